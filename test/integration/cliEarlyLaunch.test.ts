import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { alive, allGone, FIXTURES } from './helpers';
import { runCli, type CliRun } from './cliRun';

/**
 * `call` and `tools` spawn their one server before the commands' code loads, so the two overlap.
 * The early spawn must refuse exactly what the normal path refuses, before anything runs: each
 * server here leaves a mark when it starts, and a refused one must leave none, not even for a
 * moment. A require hook in the CLI's process writes, in order, each process it spawns and the
 * moment the commands' bundle is required.
 */
describe('the CLI spawns the server of call and tools before the commands load (same refusals first)', function () {
  this.timeout(60_000);
  let dir: string;
  let marker: string;
  let trace: string;
  let policy: string;
  const answerServer = path.join(FIXTURES, 'slow-shutdown.cjs');

  /** A server that writes `marker` when it starts, then serves slow-shutdown.cjs's one tool (answer: 42). */
  const marking = (extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: ['-e', `require('fs').appendFileSync(${JSON.stringify(marker)}, 'ran\\n'); require(${JSON.stringify(answerServer)})`], env: { EVENTS_FILE: path.join(dir, 'events.txt') }, ...extra });

  function writeConfig(servers: Record<string, unknown>, file = path.join(dir, 'servers.json')): string {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ servers }));
    return file;
  }

  function cli(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<CliRun> {
    const hook = path.join(dir, 'hook.cjs');
    return runCli(args, { cwd: options.cwd ?? dir, env: { ...process.env, XDG_STATE_HOME: path.join(dir, 'state'), MCP_TOOL_HOST_POLICY_FILE: policy, NODE_OPTIONS: `--require ${hook}`, TRACE_FILE: trace, ...options.env } });
  }

  /** Whether the marking server started; waits a moment, so a server spawned and killed at once is seen too. */
  async function ran(): Promise<boolean> {
    await new Promise((r) => setTimeout(r, 300));
    return fs.existsSync(marker);
  }

  /** What the CLI's process did, in order: `spawn <file>` for each process it started, `commands` when it required the commands' bundle. */
  const traced = () => (fs.existsSync(trace) ? fs.readFileSync(trace, 'utf8').split('\n').filter(Boolean) : []);

  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mth-early-')));
    marker = path.join(dir, 'started');
    trace = path.join(dir, 'trace.txt');
    policy = path.join(dir, 'policy.json');
    // Only in the CLI's own process (NODE_OPTIONS reaches the servers too).
    fs.writeFileSync(path.join(dir, 'hook.cjs'), `
      if (/cli\\.js$/.test(process.argv[1] ?? '')) {
        const fs = require('fs');
        const note = (line) => fs.appendFileSync(process.env.TRACE_FILE, line + '\\n');
        const cp = require('child_process');
        const spawn = cp.spawn;
        cp.spawn = function (command, args, ...rest) { note('spawn ' + [command, ...(Array.isArray(args) ? args : [])].join(' ').slice(0, 200)); return spawn.call(this, command, args, ...rest); };
        const Module = require('module');
        const load = Module._load;
        Module._load = function (request, ...rest) { if (/cli-commands(\\.js)?$/.test(request)) note('commands'); return load.call(this, request, ...rest); };
      }
    `);
  });
  // The CLI exits before its servers have gone (by design: cliColdExit); they note their end in
  // events.txt, so wait for them before the folder goes, and fail if one stays.
  afterEach(async () => {
    const events = path.join(dir, 'events.txt');
    const lines = fs.existsSync(events) ? fs.readFileSync(events, 'utf8').split('\n') : [];
    const pids = lines.filter((l) => l.startsWith('pids ')).flatMap((l) => JSON.parse(l.slice(5)) as number[]);
    const gone = await allGone(pids, 10_000);
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    assert.ok(gone, `a server the CLI started still runs: ${pids.filter(alive).join(', ')}`);
  });

  it('a server the allowlist refuses is never spawned, not even while the commands load', async () => {
    fs.writeFileSync(policy, JSON.stringify({ allowedServers: [{ command: '/nowhere/else' }] }));
    const config = writeConfig({ refused: marking() });
    const run = await cli(['--config', config, 'call', 'refused', 'answer']);
    assert.equal(run.code, 4, run.stderr);
    assert.match(run.stderr, /allow/i, 'says the allowlist refused it');
    assert.equal(await ran(), false, 'the refused server ran');
    assert.deepEqual(traced().filter((l) => l.startsWith('spawn')), [], 'something was spawned');
  });

  it('a policy file that cannot be read refuses every launch early too', async () => {
    fs.writeFileSync(policy, '{ "allowedServers": [ broken');
    const config = writeConfig({ refused: marking() });
    const run = await cli(['--config', config, 'tools', 'refused']);
    assert.notEqual(run.code, 0);
    assert.equal(await ran(), false, 'a server ran under a policy that could not be read');
  });

  it("a repository's config that reads a file outside the workspace is refused before anything runs", async () => {
    fs.mkdirSync(path.join(dir, 'repo', '.git'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'secret.env'), 'TOKEN=x\n');
    const config = writeConfig({ carried: marking({ envFile: path.join(dir, 'secret.env') }) }, path.join(dir, 'repo', 'servers.json'));
    const run = await cli(['--config', config, 'call', 'carried', 'answer', '--yes'], { cwd: path.join(dir, 'repo') });
    assert.equal(run.code, 4, run.stderr);
    assert.match(run.stderr, /outside the workspace/);
    assert.equal(await ran(), false);
  });

  it("a repository's .mcp.json run from a folder above it is judged against its own folder, not the current one: a file beside it in that folder is outside", async () => {
    fs.mkdirSync(path.join(dir, 'repo', '.git'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'secret.env'), 'TOKEN=x\n');
    const config = writeConfig({ carried: marking({ envFile: path.join(dir, 'secret.env') }) }, path.join(dir, 'repo', '.mcp.json'));
    const run = await cli(['--config', config, 'call', 'carried', 'answer', '--yes'], { cwd: dir });
    assert.equal(run.code, 4, run.stderr);
    assert.match(run.stderr, /outside the workspace/);
    assert.equal(await ran(), false, 'the server ran with a file of the folder the CLI was run from');
  });

  it("${workspaceFolder} of a repository's .vscode/mcp.json is the folder that holds .vscode, wherever the CLI runs (and a server starts there)", async () => {
    const repo = path.join(dir, 'repo');
    const told = path.join(repo, 'told.txt');
    const writes = `require('fs').writeFileSync(process.argv[1], process.cwd()); require(${JSON.stringify(answerServer)})`;
    const config = writeConfig({ here: { command: process.execPath, args: ['-e', writes, '${workspaceFolder}/told.txt'], env: { EVENTS_FILE: path.join(dir, 'events.txt') } } }, path.join(repo, '.vscode', 'mcp.json'));
    const run = await cli(['--config', config, 'call', 'here', 'answer', '--trust-config'], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(fs.readFileSync(told, 'utf8'), repo);
  });

  it('a rules file that is broken, bad --args, a usage mistake or an ${input} stops before anything runs', async () => {
    const config = writeConfig({ ok: marking(), asks: marking({ args: ['-e', `require('fs').appendFileSync(${JSON.stringify(marker)}, 'ran')`, '${input:token}'] }) });
    fs.writeFileSync(path.join(dir, 'rules.json'), '{ "rules": [ { "tool": 3 } ] }');
    const runs = [
      await cli(['--config', config, 'call', 'ok', 'answer', '--rules', path.join(dir, 'rules.json')]),
      await cli(['--config', config, 'call', 'ok', 'answer', '--args', '{ not json']),
      await cli(['--config', config, 'call', 'ok', 'answer', '--args', '[1]']),
      await cli(['--config', config, 'call', 'ok', 'answer', '--templates']),
      await cli(['--config', config, 'call', 'ok']),
      await cli(['--config', config, 'call', 'asks', 'answer']),
    ];
    for (const run of runs) assert.notEqual(run.code, 0, run.stdout);
    assert.equal(await ran(), false, `a server ran: ${runs.map((r) => r.stderr.split('\n')[0]).join(' | ')}`);
  });

  it('an allowed server is spawned once, before the commands load, and answers; the run ends as before', async () => {
    fs.writeFileSync(policy, JSON.stringify({ allowedServers: [{ command: process.execPath }] }));
    const config = writeConfig({ ok: marking() });
    const run = await cli(['--config', config, 'call', 'ok', 'answer']);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), '42');
    assert.equal(run.stderr, '');
    const steps = traced();
    const spawns = steps.filter((l) => l.startsWith(`spawn ${process.execPath} -e`));
    assert.equal(spawns.length, 1, steps.join('\n'));
    assert.ok(steps.indexOf(spawns[0]) < steps.indexOf('commands'), `the server was spawned after the commands loaded:\n${steps.join('\n')}`);
    assert.equal(await ran(), true);
    assert.equal(fs.readFileSync(marker, 'utf8'), 'ran\n', 'the server started twice');
  });

  it("a rules file with a regex (the early launch does not load RE2) still applies: its deny stops the call, the server starts once", async () => {
    const config = writeConfig({ ok: marking() });
    fs.writeFileSync(path.join(dir, 'rules.json'), JSON.stringify({ rules: [{ name: 'no x', server: 'ok', tool: 'answer', when: [{ pointer: '/q', regex: '^x' }], effect: 'deny' }] }));
    const denied = await cli(['--config', config, 'call', 'ok', 'answer', '--args', '{"q":"xy"}', '--rules', path.join(dir, 'rules.json')]);
    assert.equal(denied.code, 3, denied.stderr);
    assert.match(denied.stderr, /no x/);
    const allowed = await cli(['--config', config, 'call', 'ok', 'answer', '--args', '{"q":"y"}', '--rules', path.join(dir, 'rules.json')]);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(allowed.stdout.trim(), '42');
    assert.equal(fs.readFileSync(marker, 'utf8'), 'ran\nran\n', 'one start a run');
  });

  it('tools SERVER is spawned early too; with no SERVER and two servers, both start as before', async () => {
    const config = writeConfig({ a: marking(), b: marking() });
    const one = await cli(['--config', config, 'tools', 'a']);
    assert.equal(one.code, 0, one.stderr);
    assert.match(one.stdout, /answer/);
    const steps = traced();
    assert.ok(steps.findIndex((l) => l.startsWith('spawn')) < steps.indexOf('commands'), steps.join('\n'));
    fs.rmSync(trace);
    const both = await cli(['--config', config, 'tools']);
    assert.equal(both.code, 0, both.stderr);
    assert.equal(traced().filter((l) => l.startsWith(`spawn ${process.execPath} -e`)).length, 2);
  });

  it('a server that dies at once, while the commands still load, fails its start as before (its stderr said)', async () => {
    const config = writeConfig({ dies: { command: process.execPath, args: [path.join(FIXTURES, 'crash-at-start.cjs')] } });
    const run = await cli(['--config', config, 'call', 'dies', 'anything']);
    assert.equal(run.code, 4, run.stderr);
    assert.match(run.stderr, /did not start/);
    assert.match(run.stderr, /API_KEY is not set/);
    assert.match(run.stderr, /code 3|exited with 3|exit code 3/i);
  });

  it('a sandboxed server, a remote one and a command that is not there take the normal order', async () => {
    const config = writeConfig({ boxed: marking({ sandbox: { network: { allowedDomains: [] } } }), missing: { command: 'no-such-command-here' } });
    const boxed = await cli(['--config', config, 'call', 'boxed', 'answer']);
    const steps = traced();
    const first = steps.findIndex((l) => l.startsWith('spawn'));
    assert.ok(first === -1 || first > steps.indexOf('commands'), `a sandboxed server was spawned before the commands loaded: ${boxed.stderr}\n${steps.join('\n')}`);
    const missing = await cli(['--config', config, 'call', 'missing', 'x']);
    assert.equal(missing.code, 4);
    assert.match(missing.stderr, /was not found/);
  });
});
