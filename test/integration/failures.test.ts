import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { alive, FIXTURES, makeHost, node, until } from './helpers';

describe('servers that fail, with the reason the user sees', function () {
  const hosts: ReturnType<typeof makeHost>[] = [];
  const track = (h: ReturnType<typeof makeHost>) => (hosts.push(h), h);
  const strays: number[] = []; // processes a failed test would leave behind
  const folders: string[] = []; // where fixtures wrote their pids
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
    for (const pid of strays.splice(0)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  });

  it('a missing command names the command and the PATH searched', async () => {
    const host = track(makeHost({ missing: { command: 'no-such-mcp-server-xyz', env: { PATH: '/nowhere:/also/nowhere' } } }));
    await host.pool.get('missing')!.start();
    const state = host.pool.get('missing')!.state;
    assert.equal(state.kind, 'error');
    if (state.kind === 'error') {
      assert.match(state.message, /Command "no-such-mcp-server-xyz" was not found\. Searched PATH: \/nowhere:\/also\/nowhere\./);
    }
  });

  it('npx missing gets the Node.js hint', async () => {
    const host = track(makeHost({ npx: { command: 'npx', env: { PATH: '/nowhere' } } }));
    await host.pool.get('npx')!.start();
    const state = host.pool.get('npx')!.state;
    assert.ok(state.kind === 'error' && /Install Node\.js/.test(state.message));
  });

  it('a server that dies at start shows its exit code and last stderr line', async () => {
    const host = track(makeHost({ crash: node(path.join(FIXTURES, 'crash-at-start.cjs')) }));
    await host.pool.get('crash')!.start();
    const state = host.pool.get('crash')!.state;
    assert.equal(state.kind, 'error');
    if (state.kind === 'error') {
      assert.match(state.message, /exited with code 3 before finishing the MCP handshake\. Last stderr: fatal: environment variable API_KEY is not set/);
    }
    assert.ok(host.logs.includes('crash stderr starting fixture...'), 'stderr reaches the server log');
  });

  it('a Node server whose file is missing says Node\'s error, not Node\'s version (issue 32)', async () => {
    const missing = path.join(FIXTURES, 'no-such-server.cjs');
    const host = track(makeHost({ lost: { command: process.execPath, args: [missing] } }));
    await host.pool.get('lost')!.start();
    const state = host.pool.get('lost')!.state;
    assert.equal(state.kind, 'error');
    if (state.kind === 'error') assert.ok(state.message.endsWith(`before finishing the MCP handshake. Node.js: Error: Cannot find module '${missing}'`), state.message);
  });

  describe('a server started with npx that npm cannot run says what npm said, not where its log is (issue 32)', function () {
    this.timeout(120_000);
    let cache: string;
    before(() => (cache = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-npm-cache-')))); // an empty npm cache: the registry is asked
    after(() => fs.rmSync(cache, { recursive: true, force: true }));
    /** Starts `npx -y ARGS` as a configured server would and returns the message its error state shows. */
    const failure = async (args: string[], env: Record<string, string> = {}) => {
      const host = track(makeHost({ npx: { command: 'npx', args: ['-y', ...args], env: { npm_config_cache: cache, npm_config_update_notifier: 'false', ...env } } }, 'deny', { handshakeTimeoutMs: 90_000 }));
      await host.pool.get('npx')!.start();
      const state = host.pool.get('npx')!.state;
      assert.equal(state.kind, 'error');
      const message = state.kind === 'error' ? state.message : '';
      assert.doesNotMatch(message, /complete log of this run/);
      return message;
    };

    it('a package name with a typo: E404 and the URL npm asked', async () => {
      const message = await failure(['@modelcontextprotocol/server-everythin']);
      assert.match(message, /exited with code 1 before finishing the MCP handshake\. npm error E404: 404 Not Found - GET https:\/\/registry\.npmjs\.org\/@modelcontextprotocol%2fserver-everythin \(check the package name\)/);
    });

    it('a version that does not exist: ETARGET', async () => {
      const message = await failure(['@modelcontextprotocol/server-everything@99.0.0']);
      assert.match(message, /npm error ETARGET: No matching version found for @modelcontextprotocol\/server-everything@99\.0\.0\. \(check the version\)/);
    });

    it('a package that has no command to run', async () => {
      const message = await failure(['is-number@7.0.0']);
      assert.match(message, /npm error: could not determine executable to run \(the package names no command to run: is it the server's package\?\)/);
    });

    it('a registry that cannot be reached (offline): ENOTFOUND', async () => {
      const message = await failure(['some-mcp-server'], { npm_config_registry: 'http://registry.invalid/', npm_config_fetch_retries: '0' });
      assert.match(message, /npm error ENOTFOUND: request to http:\/\/registry\.invalid\/some-mcp-server failed, reason: getaddrinfo ENOTFOUND registry\.invalid \(npm could not reach the registry: offline, or behind a proxy npm was not told about\?\)/);
    });
  });

  it('skips non-JSON stdout, drains a stderr flood, strips ANSI, and keeps progress before the result', async () => {
    const host = track(makeHost({ noisy: node(path.join(FIXTURES, 'noisy.cjs')) }));
    await host.pool.get('noisy')!.start();
    assert.equal(host.pool.get('noisy')!.state.kind, 'running');
    const outcome = await host.pipeline.call({ server: 'noisy', tool: 'work', args: {}, origin: 'api' });
    assert.ok(outcome.kind === 'ok', JSON.stringify(outcome));
    if (outcome.kind === 'ok') assert.equal(outcome.result.text, 'red result');
    assert.deepEqual(host.events.filter((e) => /^(progress|end)/.test(e)).map((e) => e.split(' (')[0]), ['progress 1/1', 'end result']);
    assert.ok(host.logs.some((l) => l.includes('warn Ignored a stdout line that is not JSON-RPC: Welcome to the noisy server v1!')));
    assert.ok(host.logs.filter((l) => l.includes('stderr debug line')).length >= 1990);
  });

  /** Starts `fixture`, which writes the pids it started (as a JSON list) to PIDS_FILE, and reads them once written. */
  async function startWritingPids(name: string, fixture: string) {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-pids-'));
    folders.push(folder);
    const pidsFile = path.join(folder, 'pids.json');
    const host = track(makeHost({ [name]: node(path.join(FIXTURES, fixture), { env: { PIDS_FILE: pidsFile } }) }));
    await host.pool.get(name)!.start();
    assert.equal(host.pool.get(name)!.state.kind, 'running');
    for (let i = 0; i < 50 && !fs.existsSync(pidsFile); i++) await new Promise((r) => setTimeout(r, 100));
    const pids = JSON.parse(fs.readFileSync(pidsFile, 'utf8')) as number[];
    strays.push(...pids);
    assert.ok(pids.every(alive));
    return { host, pids };
  }

  /** Stops the host's servers, within 5 s. */
  async function stopBounded(host: { close(): Promise<void> }) {
    const started = Date.now();
    await host.close();
    assert.ok(Date.now() - started < 5000, 'shutdown is bounded');
  }

  it('stopping a server kills its whole tree, grandchildren that ignore SIGTERM included', async function () {
    const { host, pids } = await startWritingPids('tree', 'grandchildren.cjs');
    assert.equal(pids.length, 3);
    await stopBounded(host);
    assert.deepEqual(pids.filter(alive), []);
  });

  it('a grandchild that left the process group is found after its server crashed, and stopped', async function () {
    const { host, pids } = await startWritingPids('crashy', 'setsid-grandchild.cjs');
    await host.pipeline.call({ server: 'crashy', tool: 'crash', args: {}, origin: 'api' });
    await until('the crash', () => host.pool.get('crashy')!.state.kind === 'error');
    // No parent pid leads to the grandchild any more (the child between died first). The transport
    // stops what the crashed server left (SIGTERM, then SIGKILL: ~2 s); then the host stops.
    await until('the grandchild is gone', () => !pids.some(alive), 6000).catch(() => undefined);
    await stopBounded(host);
    assert.deepEqual(pids.filter(alive), [], `grandchild ${pids[0]} survived its server's crash`);
  });

  it('stopping a server kills a grandchild that left the process group (setsid) and ignores SIGTERM', async function () {
    const { host, pids } = await startWritingPids('setsid', 'setsid-grandchild.cjs');
    await stopBounded(host);
    assert.deepEqual(pids.filter(alive), [], `grandchild ${pids[0]} survived the stop`);
  });
});
