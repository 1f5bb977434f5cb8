import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { alive, DEMO_SERVER } from './helpers';
import { CLI } from './cliRun';

/** How a session ended, and what it printed. */
interface SessionRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `mcp-tool-host session` (stdin a pipe) in `dir`, typing `lines` one at a time, each once
 * the command before it printed a line on stdout (`--json` sessions) or at once (`atOnce`, a
 * script piped in); then ends stdin (EOF). `onLine` sees each stdout line as it comes.
 */
function session(dir: string, args: readonly string[], lines: readonly string[], options: { atOnce?: boolean; onLine?: (line: string) => void } = {}): Promise<SessionRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'session', ...args], { cwd: dir, env: { ...process.env, XDG_STATE_HOME: dir }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const left = [...lines];
    const next = () => {
      const line = left.shift();
      if (line === undefined) child.stdin.end();
      else child.stdin.write(`${line}\n`);
    };
    let seen = 0;
    child.stdout.setEncoding('utf8').on('data', (t: string) => {
      stdout += t;
      const complete = stdout.split('\n').slice(0, -1);
      for (; seen < complete.length; seen++) {
        options.onLine?.(complete[seen]);
        if (!options.atOnce) next();
      }
    });
    child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
    const deadline = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(deadline);
      resolve({ code, stdout, stderr });
    });
    if (options.atOnce) {
      child.stdin.end(lines.map((l) => `${l}\n`).join(''));
    } else {
      next();
    }
  });
}

/**
 * Runs `session` on a real terminal (util-linux `script`), typing `answers` one each time it waits
 * at its prompt ("mcp> ") or a y/N question; then Ctrl+D. Returns everything the terminal showed.
 */
function onTerminal(dir: string, args: readonly string[], answers: readonly string[]): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, CLI, 'session', ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: dir, env: { ...process.env, XDG_STATE_HOME: dir }, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let mark = 0;
    const left = [...answers];
    child.stdout.setEncoding('utf8').on('data', (t: string) => {
      output += t;
      // The prompt or the question, then readline's cursor move (ESC [ n G).
      if (!/(mcp> |\[y\/N\] )(.\[\d*G)?$/.test(output.slice(mark))) return;
      mark = output.length;
      const answer = left.shift();
      child.stdin.write(answer === undefined ? '\x04' : `${answer}\r`);
    });
    child.stderr.setEncoding('utf8').on('data', (t: string) => (output += t));
    const deadline = setTimeout(() => child.kill('SIGKILL'), 40_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(deadline);
      resolve({ code, output });
    });
  });
}

/** Waits up to `ms` for `pid` to be gone; whether it is. */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline && alive(pid); ) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

describe('mcp-tool-host session (node dist/cli.js, the demo server, stdin a pipe)', function () {
  this.timeout(60_000);
  let dir: string;
  const pidFile = () => path.join(dir, 'server.pid');

  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `node esbuild.mjs` first');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-session-'));
    // The demo server through a shell that writes its pid and becomes it (exec): which process is the server's, and is it gone.
    const launch = `echo $$ >> ${JSON.stringify(path.join(dir, 'server.pid'))}; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(DEMO_SERVER)}`;
    fs.writeFileSync(path.join(dir, 'servers.json'), JSON.stringify({ servers: { demo: { command: 'sh', args: ['-c', launch] }, other: { command: process.execPath, args: [DEMO_SERVER] } } }));
  });
  beforeEach(() => fs.rmSync(pidFile(), { force: true }));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('makes two calls against one server process: a note added is listed by the next call', async () => {
    const run = await session(dir, ['demo', '--config', 'servers.json'], ['call demo add_note {"name": "from session", "text": "kept"}', 'call demo list_notes']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Note "from session" now has 4 characters\.\nwelcome\nshopping\nfrom session\n$/);
    // One server started for both calls.
    assert.equal(fs.readFileSync(pidFile(), 'utf8').trim().split('\n').length, 1);
  });

  it('with --json, prints one line of JSON per command: the listing\'s inputSchema, handed back in a call', async () => {
    const lines = ['tools demo', 'call demo read_note {"name":"welcome"}', 'call demo read_note {"name":""}'];
    const run = await session(dir, ['demo', '--config', 'servers.json', '--json'], lines);
    assert.equal(run.code, 2, run.stderr); // the empty name is invalid arguments (exit 2), the worst of the three
    const said = run.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as unknown);
    assert.equal(said.length, 3, run.stdout);
    const [listing, read, invalid] = said as [{ tools: { name: string; inputSchema: { required: string[] } }[] }[], { outcome: string; result: { text: string } }, { outcome: string; exitCode: number }];
    assert.deepEqual(listing[0].tools.find((t) => t.name === 'read_note')?.inputSchema.required, ['name']);
    assert.equal(read.outcome, 'ok');
    assert.match(read.result.text, /./);
    assert.deepEqual([invalid.outcome, invalid.exitCode], ['invalid-arguments', 2]);
  });

  it('answers a bad line with one line of error and goes on; the exit code is the worst (2)', async () => {
    const bad = ['bogus', 'call demo', 'call demo list_notes {not json', 'call nowhere list_notes', 'call demo no_such_tool', 'tools demo extra'];
    const run = await session(dir, ['--config', 'servers.json'], [...bad, '', '# a comment', 'call demo list_notes'], { atOnce: true });
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stdout, 'welcome\nshopping\n');
    const errors = run.stderr.trimEnd().split('\n');
    assert.equal(errors.length, bad.length, run.stderr);
    assert.match(errors[0], /^Unknown command "bogus"\. Commands: servers, tools, call, help, quit\.$/);
    assert.match(errors[1], /^call needs SERVER and TOOL/);
    assert.match(errors[2], /^--args is not valid JSON/);
    assert.match(errors[3], /^No server "nowhere" in this session\. Its servers: demo, other\.$/);
    assert.match(errors[4], /^Server "demo" has no tool named "no_such_tool"/);
    assert.match(errors[5], /^tools takes at most SERVER\.$/);
  });

  it('closes every server at end of input (EOF): no server process is left', async () => {
    let pidWhileRunning: number | undefined;
    const run = await session(dir, ['demo', '--config', 'servers.json'], ['call demo list_notes'], {
      onLine: () => (pidWhileRunning ??= Number(fs.readFileSync(pidFile(), 'utf8'))),
    });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(pidWhileRunning && pidWhileRunning > 0);
    // It ran while the session did; the session is over, and the server's shutdown (run after the
    // CLI exits: stdin, SIGTERM 1 s later, SIGKILL 1.5 s after that) ends it.
    assert.ok(await goneWithin(pidWhileRunning, 10_000), `server ${pidWhileRunning} is still running`);
  });

  it('refuses a piped call that needs approval without --yes (exit 3, nothing sent, the reason said), and makes it with --yes', async () => {
    const lines = ['call demo delete_note {"name":"welcome"}', 'call demo list_notes'];
    const refused = await session(dir, ['demo', '--config', 'servers.json'], lines, { atOnce: true });
    assert.equal(refused.code, 3, refused.stderr);
    assert.match(refused.stderr, /^not sent: denied, approval required: delete_note may change or delete data \(destructive\): a session reads its commands from stdin, so it cannot ask y\/N there: start the session with --yes/);
    assert.equal(refused.stdout, 'welcome\nshopping\n');
    const allowed = await session(dir, ['demo', '--config', 'servers.json', '--yes'], lines, { atOnce: true });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(allowed.stdout, 'Deleted "welcome".\nshopping\n');
  });

  it('on a terminal, prompts for each command and asks y/N as call does, then reads the next command', async () => {
    const run = await onTerminal(dir, ['demo', '--config', 'servers.json'], ['call demo delete_note {"name":"shopping"}', 'y', 'call demo delete_note {"name":"welcome"}', 'n', 'call demo list_notes']);
    assert.equal(run.code, 3, run.output); // the "n": denied by the user
    assert.match(run.output, /demo\/delete_note may change or delete data \(destructive\)\.\r?\nArguments: \{"name":"shopping"\}\r?\nAllow this call\? \[y\/N\] /);
    assert.match(run.output, /Deleted "shopping"\./);
    assert.match(run.output, /not sent: denied by the user\./);
    // What is left: welcome, which the "n" kept.
    assert.match(run.output, /call demo list_notes\r+\nwelcome\r\n/);
  });

  it('quit ends the session before the lines after it; help lists the commands', async () => {
    const run = await session(dir, ['--config', 'servers.json'], ['help', 'quit', 'call demo list_notes'], { atOnce: true });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^commands \(one a line/);
    assert.doesNotMatch(run.stdout, /welcome/);
  });

  it('rejects what a session does not take on its command line (exit 2)', async () => {
    const run = await session(dir, ['demo', 'list_notes', '--config', 'servers.json'], [], { atOnce: true });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^session takes at most SERVER; its commands come from stdin, one a line\./);
    const help = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
    assert.match(help.stdout, /\n {2}session \[SERVER\] {15}run commands read from stdin/);
  });
});
