import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT, startOAuthFixture } from './helpers';
import { CLI, keptTokenExpired, runCli } from './cliRun';

const RECORDING_BROWSER = path.join(ROOT, 'test/fixtures/record-browser.cjs');
const browserCommand = [process.execPath, RECORDING_BROWSER].map((w) => JSON.stringify(w)).join(' ');

/** The JSON line a session's call printed (outcome "failed" with a message when it failed). */
interface Answer {
  readonly outcome?: string;
  readonly message?: string;
  readonly [key: string]: unknown;
}

// A CLI `session` (one process, commands one a line on stdin) that outlives its sign-in: signed in
// beforehand with `login` (kept in the file store of a temporary XDG_STATE_HOME), then the server's
// token expires, is revoked, or is refused whatever it is, between two commands of the session.
describe('the CLI session whose sign-in ends mid-session', function () {
  this.timeout(90_000);
  let dir: string;
  let fixture: Awaited<ReturnType<typeof startOAuthFixture>> | undefined;
  let config: string;

  const env = (): NodeJS.ProcessEnv => {
    const all: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: path.join(dir, 'state'), MCP_TOOL_HOST_CREDENTIALS: 'file', RECORD_BROWSER_FILE: path.join(dir, 'visited.txt') };
    delete all.BROWSER;
    return all;
  };
  const credentials = () => path.join(dir, 'state', 'mcp-tool-host', 'auth', 'credentials.json');
  const visits = () => (fs.existsSync(path.join(dir, 'visited.txt')) ? fs.readFileSync(path.join(dir, 'visited.txt'), 'utf8').split('\n').filter((l) => l.includes('/authorize')).length : 0);

  /** The fixture with `args`, a config naming it, and a sign-in kept by `login` (one browser visit). */
  async function signedIn(...args: string[]) {
    fixture = await startOAuthFixture(...args);
    fs.writeFileSync(config, JSON.stringify({ servers: { remote: { type: 'http', url: fixture.url } } }));
    const login = await runCli(['login', 'remote', '--config', config, '--browser', browserCommand], { cwd: dir, env: env() });
    assert.equal(login.code, 0, login.stdout + login.stderr);
    assert.equal(visits(), 1);
    return fixture;
  }

  /**
   * `session --json` with stdin a pipe, each line typed once the one before it answered and `between`
   * resolved (a token's expiry, say); stdin ends after the last answer. Resolves with each command's answer, stderr and the exit code.
   */
  function session(lines: readonly string[], between: () => Promise<void> = async () => undefined): Promise<{ answers: Answer[]; stderr: string; code: number | null }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, 'session', '--config', config, '--json', '--yes', '--browser', browserCommand], { cwd: dir, env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
      const answers: Answer[] = [];
      let stdout = '';
      let stderr = '';
      const left = [...lines];
      const type = () => {
        const line = left.shift();
        if (line === undefined) child.stdin.end();
        else child.stdin.write(`${line}\n`);
      };
      const next = () => (left.length === 0 ? type() : void between().then(type, reject));
      child.stdout.setEncoding('utf8').on('data', (t: string) => {
        stdout += t;
        const complete = stdout.split('\n');
        stdout = complete.pop() ?? '';
        for (const line of complete) {
          answers.push(JSON.parse(line) as Answer);
          next();
        }
      });
      child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
      const deadline = setTimeout(() => child.kill('SIGKILL'), 80_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(deadline);
        resolve({ answers, stderr, code });
      });
      type();
    });
  }

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-session-'));
    config = path.join(dir, 'servers.json');
  });
  afterEach(() => {
    fixture?.child.kill();
    fixture = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const whoami = 'call remote whoami';
  const signedInAs = (a: Answer | undefined) => JSON.stringify(a).includes('signed in as client-');

  it('the token expires between two calls: the next call renews it with the kept refresh token, without a browser, and succeeds', async () => {
    // 4 s tokens, due for a refresh after 2 s (2 s ones were due after 1 s: a request sent just before, slowed by a
    // loaded machine, could reach the server after their expiry). The second call waits until the kept one expired.
    const f = await signedIn('--ttl', '4');
    const run = await session([whoami, whoami], () => keptTokenExpired(credentials()));
    assert.equal(run.code, 0, run.stderr + JSON.stringify(run.answers));
    assert.ok(run.answers.length === 2 && run.answers.every(signedInAs), JSON.stringify(run.answers));
    const stats = await f.stats();
    assert.equal(stats.refreshGrants >= 1, true, 'renewed with the refresh token');
    assert.equal(stats.authorizations, 1, 'no second sign-in');
    assert.equal(visits(), 1, 'no browser');
  });

  it('the sign-in is revoked mid-session (refresh token too): the next call discovers again, signs in once through --browser, succeeds, and the later calls use the new token', async () => {
    const f = await signedIn('--revoke-after', '3'); // login's listing, the session's and its first call are answered; then every token is revoked
    const run = await session([whoami, whoami, whoami]);
    assert.equal(run.code, 0, run.stderr + JSON.stringify(run.answers));
    assert.ok(run.answers.length === 3 && run.answers.every(signedInAs), JSON.stringify(run.answers));
    const stats = await f.stats();
    assert.deepEqual([stats.authorizations, stats.tokenGrants], [2, 2], 'one more sign-in, one more code redeemed');
    assert.equal(visits(), 2, 'the browser opened once more, not per call');
    assert.equal(run.stderr.split('\n').filter((l) => l.startsWith('Sign in to "remote"')).length, 1, run.stderr);
    // The new sign-in is kept: a later run uses it without a browser.
    const later = await runCli(['call', 'remote', 'whoami', '--config', config], { cwd: dir, env: env() });
    assert.equal(later.code, 0, later.stdout + later.stderr);
    assert.equal(visits(), 2);
  });

  it('a server that refuses the new token too: one sign-in, then the call fails saying so; the next call neither signs in again nor loops', async () => {
    const f = await signedIn('--refuse-after', '3'); // after login's listing, the session's and its first call
    const before = (await f.stats()).unauthorized;
    const run = await session([whoami, whoami, whoami]);
    assert.equal(run.answers.length, 3, run.stderr + JSON.stringify(run.answers));
    assert.ok(signedInAs(run.answers[0]), JSON.stringify(run.answers[0]));
    assert.equal(run.answers[1]?.outcome, 'failed', JSON.stringify(run.answers[1]));
    assert.match(String(run.answers[1]?.message), /"remote" refused the token you just signed in with/);
    assert.equal(run.answers[2]?.outcome, 'failed', JSON.stringify(run.answers[2]));
    assert.equal(run.stderr.split('\n').filter((l) => l.startsWith('Sign in to "remote"')).length, 1, run.stderr);
    assert.equal(run.code, 4);
    assert.equal(visits(), 2, 'one sign-in for the refused token, then no more');
    const stats = await f.stats();
    assert.equal(stats.authorizations, 2);
    // The refused call costs four (a refresh and one sign-in between them), the next two (a refresh): a loop would cost many more.
    assert.ok(stats.unauthorized - before <= 6, `401s in the session: ${stats.unauthorized - before}`);
  });
});
