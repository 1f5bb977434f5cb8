import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { resolveLaunch } from '../../src/core/config/launch';
import { parseServers, type ServerDefinition } from '../../src/core/config/serverConfig';
import { ServerConnection, type ConnectionDeps } from '../../src/core/connection/serverConnection';
import { RestartPolicy } from '../../src/core/connection/restartPolicy';
import { ServerState } from '../../src/core/connection/serverState';
import { SchemaValidator } from '../../src/core/tools/schemaValidator';
import { formatCommandLine } from '../../src/core/transport/commandLine';
import { DEMO_SERVER, FIXTURES, ROOT, until } from './helpers';

function connection(raw: Record<string, unknown>, extra: Partial<ConnectionDeps> = {}, inputs: Record<string, string> = {}) {
  const [def] = parseServers({ s: raw }, 'user').servers as [ServerDefinition];
  const logs: string[] = [];
  const states: ServerState[] = [];
  const c = new ServerConnection(def, {
    validator: new SchemaValidator(),
    clientVersion: 'test',
    log: { info: (m) => logs.push(m), warn: (m) => logs.push(m), error: (m) => logs.push(m), stderr: (m) => logs.push(`stderr ${m}`) },
    resolveLaunch: async (d) => resolveLaunch(d, { workspaceFolders: [{ name: 'root', path: ROOT }], env: process.env, inputs }),
    ...extra,
  });
  c.onDidChangeState((s) => states.push(s));
  return { c, logs, states };
}

describe('server lifecycle (real child processes)', function () {
  const open: ServerConnection[] = [];
  const folders: string[] = [];
  /** A new folder for what a fixture writes, removed after the test (once its servers stopped). */
  const tempFolder = (prefix: string) => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    folders.push(folder);
    return folder;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.stop()));
    for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('a crashing server restarts with backoff, then stops retrying and says why', async () => {
    const counter = path.join(tempFolder('mcp-crash-'), 'starts');
    const { c, states } = connection(
      { command: process.execPath, args: [path.join(FIXTURES, 'crash-soon.cjs')], env: { START_COUNT_FILE: counter } },
      { restartPolicy: new RestartPolicy([50, 100], 60_000) },
    );
    open.push(c);
    await c.start();
    await until('giving up', () => c.state.kind === 'error' && /automatic restarts stopped/.test(c.state.message));
    assert.equal(fs.readFileSync(counter, 'utf8').split('\n').filter(Boolean).length, 3, 'first start + 2 restarts');
    const waits = states.flatMap((s) => (s.kind === 'error' && s.restartInMs ? [s.restartInMs] : []));
    assert.deepEqual(waits, [50, 100]);
    assert.match(c.state.kind === 'error' ? c.state.message : '', /^The server exited with code 9\. It failed 3 times within 3 minutes, so automatic restarts stopped; use Restart to try again\.$/);
    // a start the user asks for is honoured again
    await c.start();
    assert.equal(c.state.kind, 'running');
  });

  it('a start failure the user asked for is not retried on its own', async () => {
    const { c, states } = connection({ command: process.execPath, args: [path.join(FIXTURES, 'crash-at-start.cjs')] }, { restartPolicy: new RestartPolicy([10], 60_000) });
    open.push(c);
    await c.start();
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(states.filter((s) => s.kind === 'starting').length, 1);
  });

  it('shows the cached tool list at once, then the live one', async () => {
    const saved: (readonly Tool[])[] = [];
    const cachedTool: Tool = { name: 'old_tool', inputSchema: { type: 'object' } };
    const { c } = connection({ command: process.execPath, args: [DEMO_SERVER] }, { toolCache: { load: () => [cachedTool], save: (t) => saved.push(t) } });
    open.push(c);
    assert.deepEqual(c.tools.map((t) => t.name), ['old_tool']);
    assert.equal(c.toolsFromCache, true);
    await c.start();
    assert.equal(c.toolsFromCache, false);
    assert.ok(c.tools.some((t) => t.name === 'slow_count'));
    assert.equal(saved.length, 1);
  });

  it('a declined workspace launch leaves the server stopped and spawns nothing', async () => {
    const asked: string[] = [];
    const { c, logs } = connection({ command: process.execPath, args: [DEMO_SERVER] }, { confirmLaunch: async (_d, shown) => (asked.push(shown), false) });
    open.push(c);
    await c.start();
    assert.equal(c.state.kind, 'stopped');
    assert.deepEqual(asked, [formatCommandLine(process.execPath, [DEMO_SERVER])]);
    assert.ok(logs.some((l) => l.includes('declined')));
    assert.ok(!logs.some((l) => l.startsWith('Starting:')));
  });

  it('a launch the user declined earlier is not asked about again by a change: stopped, saying why; their own start asks', async () => {
    const asked: boolean[] = [];
    const { c, logs } = connection({ command: process.execPath, args: [DEMO_SERVER] }, {
      confirmLaunch: async (_d, _shown, _waiting, byUser) => (asked.push(byUser), byUser ? true : { notAsked: 'not started: you chose "Do not start"' }),
    });
    open.push(c);
    await c.start();
    assert.deepEqual(c.state, { kind: 'stopped', message: 'not started: you chose "Do not start"' });
    assert.ok(logs.some((l) => l.includes('Start it to be asked again')), logs.join('\n'));
    assert.ok(!logs.some((l) => l.startsWith('Starting:')), 'it spawned');
    await c.start({ byUser: true });
    assert.equal(c.state.kind, 'running');
    assert.deepEqual(asked, [false, true]);
  });

  it('while the launch prompt waits for the user, the state says so (not a bare "starting"); once allowed it runs', async () => {
    const states: string[] = [];
    const { c } = connection({ command: process.execPath, args: [DEMO_SERVER] }, {
      confirmLaunch: async (_d, _shown, waiting) => {
        waiting('Waiting for you to allow it to start');
        states.push(ServerState.label(c.state));
        return true;
      },
    });
    open.push(c);
    await c.start();
    assert.deepEqual(states, ['starting: Waiting for you to allow it to start']);
    assert.equal(c.state.kind, 'running');
  });

  it('substitutes ${input:...} and never shows the secret', async () => {
    const secret = 's3cr3t-value-123';
    const asked: string[] = [];
    const { c, logs } = connection(
      { command: process.execPath, args: [DEMO_SERVER, '--token=${input:apiToken}'], env: { API_TOKEN: '${input:apiToken}' } },
      { confirmLaunch: async (_d, shown) => (asked.push(shown), true) },
      { apiToken: secret },
    );
    open.push(c);
    await c.start();
    assert.equal(c.state.kind, 'running');
    assert.equal(asked[0], formatCommandLine(process.execPath, [DEMO_SERVER, `--token=${secret}`]).replace(secret, '••••••'));
    assert.equal(c.launchLine, asked[0]);
    assert.ok(logs.length > 0);
    for (const line of [...logs, ...asked]) assert.ok(!line.includes(secret), `secret leaked: ${line}`);
  });

  it('speaks protocol revision 2026-07-28 to a server that offers it', async () => {
    const { c } = connection({ command: process.execPath, args: [path.join(FIXTURES, 'modern-sdk.cjs')] });
    open.push(c);
    await c.start();
    assert.equal(c.state.kind === 'running' && c.state.protocolVersion, '2026-07-28');
    const result = await c.callTool('hello', {}, { timeoutMs: 10_000, maxTotalTimeoutMs: 10_000 });
    assert.deepEqual('content' in result ? result.content : undefined, [{ type: 'text', text: 'hello from the modern era' }]);
  });

  /** A memory of eras as the extension and the CLI keep one (eraMemory.ts), here in a variable. */
  const memory = (start?: 'modern' | 'legacy') => {
    const m = { remembered: start, saves: 0, load: () => m.remembered, save: (era: 'modern' | 'legacy') => void ((m.remembered = era), m.saves++) };
    return m;
  };
  const protocolOf = (c: ServerConnection) => (c.state.kind === 'running' ? c.state.protocolVersion : c.state.kind);
  const methodsIn = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);

  it('falls back to initialize when a 2025-era server ignores the 2026 probe, and does not remember an era chosen by a timeout: the next start probes again', async () => {
    const eraMemory = memory();
    const { c, logs } = connection({ command: process.execPath, args: [path.join(FIXTURES, 'ignores-unknown.cjs')] }, { eraMemory });
    open.push(c);
    await c.start();
    assert.equal(protocolOf(c), '2025-06-18');
    assert.deepEqual(c.tools.map((t) => t.name), ['noop']);
    assert.ok(logs.includes('stderr got server/discover'), logs.join('\n'));
    assert.ok(logs.includes('The server did not answer the 2026-07-28 probe in time: this start speaks the 2025 era, and the next start asks again.'), logs.join('\n'));
    assert.equal(eraMemory.remembered, undefined);
    await c.stop();
    logs.length = 0;
    await c.start();
    assert.equal(protocolOf(c), '2025-06-18');
    assert.ok(logs.includes('stderr got server/discover') && logs.includes('stderr got initialize'), logs.join('\n'));
  });

  it('a 2025-era server that refuses the probe gets initialize and is remembered: the next start does not probe', async () => {
    const methods = path.join(tempFolder('mcp-era-'), 'methods');
    const eraMemory = memory();
    const { c } = connection({ command: process.execPath, args: [path.join(FIXTURES, 'starts-slowly.cjs')], env: { OLD: '1', START_DELAY_MS: '0', METHODS_LOG: methods } }, { eraMemory });
    open.push(c);
    await c.start();
    assert.notEqual(protocolOf(c), '2026-07-28');
    assert.equal(eraMemory.remembered, 'legacy');
    assert.deepEqual(methodsIn(methods).slice(0, 2), ['server/discover', 'initialize']);
    await c.stop();
    fs.rmSync(methods);
    await c.start();
    assert.equal(c.state.kind, 'running');
    assert.deepEqual(methodsIn(methods).slice(0, 1), ['initialize']);
    assert.equal(eraMemory.saves, 1, 'a start that skipped the probe learned nothing: the day the era is kept for runs from the answer');
  });

  it('a 2026-07-28 server that starts slowly, writing nothing meanwhile, still gets the 2026-07-28 era, and it is remembered', async () => {
    const eraMemory = memory();
    const { c } = connection({ command: process.execPath, args: [path.join(FIXTURES, 'starts-slowly.cjs')], env: { START_DELAY_MS: '2500' } }, { eraMemory });
    open.push(c);
    await c.start();
    assert.equal(protocolOf(c), '2026-07-28');
    assert.equal(eraMemory.remembered, 'modern');
  });

  it('a 2026-07-28 server that says it is starting, then keeps the probe waiting, gets 2025 for this start by a timeout; its late answer is remembered, so the next start waits for it', async () => {
    const methods = path.join(tempFolder('mcp-era-'), 'methods');
    const eraMemory = memory();
    const { c, logs } = connection({ command: process.execPath, args: [path.join(FIXTURES, 'starts-slowly.cjs')], env: { BANNER: '1', START_DELAY_MS: '5000', METHODS_LOG: methods } }, { eraMemory });
    open.push(c);
    await c.start();
    assert.notEqual(protocolOf(c), '2026-07-28');
    assert.ok(logs.includes('The server answered the 2026-07-28 probe only after the host went on without it: this start speaks the 2025 era, and the next start waits longer for its answer.'), logs.join('\n'));
    assert.ok(!logs.some((l) => /unknown/i.test(l)), `the late answer is dropped quietly:\n${logs.join('\n')}`);
    assert.equal(eraMemory.remembered, 'modern', 'what its late answer said, not the 2025 era of the guess');
    await c.stop();
    fs.rmSync(methods, { force: true });
    await c.start();
    assert.equal(methodsIn(methods)[0], 'server/discover', 'the next start probes again');
    assert.equal(protocolOf(c), '2026-07-28');
  });

  it('a 2025-era server that says it is starting, then refuses the probe only after the timeout, is remembered by its refusal', async () => {
    const eraMemory = memory();
    const { c, logs } = connection({ command: process.execPath, args: [path.join(FIXTURES, 'starts-slowly.cjs')], env: { OLD: '1', BANNER: '1', START_DELAY_MS: '5000' } }, { eraMemory });
    open.push(c);
    await c.start();
    assert.equal(c.state.kind, 'running');
    assert.ok(logs.includes('The server refused the 2026-07-28 probe only after the host went on without it: this start speaks the 2025 era, and the next start skips the probe.'), logs.join('\n'));
    assert.equal(eraMemory.remembered, 'legacy');
  });

  it('a server that writes nothing and never answers the probe gets 2025 at the probe\'s limit, not remembered', async () => {
    const eraMemory = memory();
    const { c, logs } = connection({ command: process.execPath, args: [path.join(FIXTURES, 'ignores-unknown.cjs')], env: { QUIET: '1' } }, { eraMemory, handshakeTimeoutMs: 4000 });
    open.push(c);
    await c.start();
    assert.equal(protocolOf(c), '2025-06-18');
    assert.ok(!logs.some((l) => l.startsWith('stderr ')), logs.join('\n'));
    assert.equal(eraMemory.remembered, undefined);
  });

  it('a server remembered as 2026-07-28 is probed as usual', async () => {
    let remembered: 'modern' | 'legacy' | undefined = 'modern';
    const { c } = connection({ command: process.execPath, args: [path.join(FIXTURES, 'modern-sdk.cjs')] }, { eraMemory: { load: () => remembered, save: (era) => void (remembered = era) } });
    open.push(c);
    await c.start();
    assert.equal(c.state.kind === 'running' && c.state.protocolVersion, '2026-07-28');
    assert.equal(remembered, 'modern');
  });
});
