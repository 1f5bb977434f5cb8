import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { alive, allGone, FIXTURES, ROOT } from './helpers';
import { CLI, runCli } from './cliRun';

describe('the CLI exits once its answer is out; the server shutdown goes on without it (slow-shutdown.cjs)', function () {
  this.timeout(60_000);
  const leftovers: number[] = [];
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cold-'))));
  afterEach(() => {
    for (const pid of leftovers.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the CLI against slow-shutdown.cjs with `env`; the server's pids and the shutdown steps it saw are in `events()`. */
  async function run(args: string[], env: Record<string, string>) {
    const eventsFile = path.join(dir, 'events.txt');
    const config = path.join(dir, 'mcp.json');
    fs.writeFileSync(config, JSON.stringify({ servers: { slow: { command: process.execPath, args: [path.join(FIXTURES, 'slow-shutdown.cjs')], env: { EVENTS_FILE: eventsFile, ...env } } } }));
    const result = await runCli(['--config', config, ...args], { cwd: dir, env: { ...process.env, XDG_STATE_HOME: dir } });
    // Read the moment the CLI has exited, before anything else can happen.
    const atExit = fs.readFileSync(eventsFile, 'utf8').split('\n').filter(Boolean);
    const pids = JSON.parse(atExit[0].replace(/^pids /, '')) as number[];
    const aliveAtExit = pids.map(alive);
    leftovers.push(...pids);
    const events = () => fs.readFileSync(eventsFile, 'utf8').split('\n').filter(Boolean).slice(1);
    return { result, pids, aliveAtExit, events };
  }

  it('call prints the answer and exits before a server that takes 600 ms to go has gone; stdin is closed first and it goes on its own', async () => {
    const { result, pids, aliveAtExit, events } = await run(['call', 'slow', 'answer'], { SHUTDOWN_MS: '600' });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), '42');
    assert.deepEqual(aliveAtExit, [true], 'the server had already gone when the CLI exited: the CLI waited for its shutdown');
    assert.ok(await allGone(pids, 10_000), `the server ${pids[0]} outlived the CLI`);
    assert.equal(events()[0], 'eof', 'the first shutdown step is the end of stdin');
  });

  it('tools lists and exits before the server has gone, and leaves no process of it', async () => {
    const { result, pids, aliveAtExit } = await run(['tools', 'slow'], { SHUTDOWN_MS: '600' });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^ {2}answer {2}\[/m);
    assert.deepEqual(aliveAtExit, [true], 'the CLI waited for the server shutdown');
    assert.ok(await allGone(pids, 10_000), `the server ${pids[0]} outlived the CLI`);
  });

  it('a server (and its child) that ignores the end of stdin and SIGTERM is SIGKILLed after the CLI has exited', async () => {
    const { result, pids, aliveAtExit, events } = await run(['call', 'slow', 'answer'], { STUBBORN: '1' });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), '42');
    assert.equal(pids.length, 2);
    assert.deepEqual(aliveAtExit, [true, true], 'the CLI waited for the server shutdown');
    // It ignores both: only the SIGKILL that follows the grace periods (1 s + 1.5 s) ends it.
    assert.ok(await allGone(pids, 15_000), `a process of the server outlived the shutdown: ${pids.filter(alive).join(', ')}`);
    assert.deepEqual(events(), ['eof', 'term'], 'stdin closed, then SIGTERM (then SIGKILL, which it cannot see)');
  });

  it('the audit record of the call is written before the CLI exits', async () => {
    const audit = path.join(dir, 'audit.jsonl');
    // Only the CLI writes this file: a record not written by its exit is never written.
    const { result, aliveAtExit } = await run(['call', 'slow', 'answer', '--audit', audit], { SHUTDOWN_MS: '600' });
    const records = fs.readFileSync(audit, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { tool: string; outcome: string });
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(aliveAtExit, [true]);
    assert.deepEqual(records.map((r) => [r.tool, r.outcome]), [['answer', 'ok']]);
  });
});

describe('the CLI loads only what the command needs (dist/cli.js)', function () {
  this.timeout(60_000);

  /** The files a run of the CLI loaded (a require hook writes them at exit), and their bytes. */
  function loadedBy(args: string[]): { files: string[]; bytes: number; status: number | null } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-loads-'));
    try {
      const list = path.join(dir, 'loaded.txt');
      const run = spawnSync(process.execPath, ['--require', path.join(ROOT, 'test/fixtures/loaded-files.cjs'), CLI, ...args], { cwd: dir, env: { ...process.env, XDG_STATE_HOME: dir, LOADED_FILES: list }, encoding: 'utf8' });
      const files = fs.readFileSync(list, 'utf8').split('\n').filter((f) => f.startsWith(path.join(ROOT, 'dist')));
      return { files: files.map((f) => path.relative(ROOT, f)), bytes: files.reduce((sum, f) => sum + fs.statSync(f).size, 0), status: run.status };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  it('--help, no command and a usage error load the entry alone: no command, no core (under 100 KB of code)', () => {
    for (const args of [['--help'], [], ['--no-such-flag']]) {
      const { files, bytes, status } = loadedBy(args);
      assert.equal(status, args[0] === '--help' ? 0 : 2, args.join(' '));
      assert.deepEqual(files, ['dist/cli.js'], args.join(' '));
      assert.ok(bytes < 100 * 1024, `${args.join(' ') || '(no arguments)'} loaded ${Math.round(bytes / 1024)} KB of the CLI`);
    }
  });

  it('a command loads its code (dist/cli-commands.js) when it runs', () => {
    const { files, status } = loadedBy(['servers', '--config', path.join(os.tmpdir(), 'no-such-config-here.json')]);
    assert.equal(status, 2);
    assert.deepEqual(files, ['dist/cli.js', 'dist/cli-commands.js']);
  });

  it('call and tools load the early launch (dist/cli-launch.js, under 200 KB) before the commands, and never the search code (dist/cli-search.js)', () => {
    const missing = path.join(os.tmpdir(), 'no-such-config-here.json');
    for (const [command, ...rest] of [['call', 'x', 'y'], ['tools', 'x']]) {
      const { files } = loadedBy([command, ...rest, '--config', missing]);
      assert.deepEqual(files.slice(0, 3), ['dist/cli.js', 'dist/cli-launch.js', 'dist/cli-commands.js'], command);
      assert.ok(!files.includes('dist/cli-search.js'), `${command} loaded the search code`);
    }
    assert.ok(fs.statSync(path.join(ROOT, 'dist/cli-launch.js')).size < 200 * 1024);
  });
});
