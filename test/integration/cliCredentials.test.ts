import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatCommandLine } from '../../src/core/transport/commandLine';
import { ROOT, startOAuthFixture } from './helpers';
import { keptTokenExpired, runCli, type CliRun } from './cliRun';

const RECORDING_BROWSER = path.join(ROOT, 'test/fixtures/record-browser.cjs');
const browserCommand = [process.execPath, RECORDING_BROWSER].map((w) => JSON.stringify(w)).join(' ');

// A CLI user signs in once (`login`, one process) and later runs without a terminal or a browser
// use the kept sign-in; `logout` forgets it. Each run is its own process, as a script or CI runs it.
describe('the CLI keeps sign-ins between runs (login, logout, auth status)', function () {
  this.timeout(60_000);
  let dir: string;
  let state: string;
  let fixture: Awaited<ReturnType<typeof startOAuthFixture>>;
  let config: string;
  let credentials: string;

  /** One run: no terminal, no BROWSER, the file store (the keychain of a developer's machine is left alone). */
  function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
    const all: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: state, MCP_TOOL_HOST_CREDENTIALS: 'file', RECORD_BROWSER_FILE: path.join(dir, 'visited.txt'), ...env };
    delete all.BROWSER;
    return runCli(args, { cwd: dir, env: all });
  }
  const visits = () => (fs.existsSync(path.join(dir, 'visited.txt')) ? fs.readFileSync(path.join(dir, 'visited.txt'), 'utf8').trim().split('\n').length : 0);

  before(async () => {
    fixture = await startOAuthFixture();
  });
  after(() => fixture.child.kill());
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-creds-'));
    state = path.join(dir, 'state');
    config = path.join(dir, 'servers.json');
    credentials = path.join(state, 'mcp-tool-host', 'auth', 'credentials.json');
    fs.writeFileSync(config, JSON.stringify({ servers: { remote: { type: 'http', url: fixture.url }, twin: { type: 'http', url: fixture.url }, local: { command: process.execPath, args: ['-e', ''] } } }));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('login signs in once; a later run without a terminal or browser uses it; after logout a run fails at once with the login command', async () => {
    const grants = (await fixture.stats()).tokenGrants;
    const login = await cli(['login', 'remote', '--config', config, '--browser', browserCommand]);
    assert.equal(login.code, 0, login.stdout + login.stderr);
    assert.equal(login.stdout, `Signed in to "remote". The sign-in is kept in the file ${credentials}: later runs use it without a browser.\n`);
    assert.equal((await fixture.stats()).tokenGrants, grants + 1);
    // Created 0600 in a 0700 folder; the token is in it and in no output.
    assert.equal(fs.statSync(credentials).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(credentials)).mode & 0o777, 0o700);
    const kept = JSON.parse(JSON.parse(fs.readFileSync(credentials, 'utf8')).entries['mcpToolHost.oauth.remote']) as { url: string; tokens: { access_token: string; refresh_token: string } };
    assert.equal(kept.url, fixture.url);
    const opened = visits();

    const call = await cli(['call', 'remote', 'whoami', '--config', config]);
    assert.equal(call.code, 0, call.stdout + call.stderr);
    assert.match(call.stdout, /signed in as client-/);
    assert.equal(visits(), opened, 'no browser was opened');
    assert.equal((await fixture.stats()).tokenGrants, grants + 1, 'no new sign-in');

    const status = await cli(['auth', 'status', '--config', config, '--json']);
    assert.equal(status.code, 0, status.stderr);
    const said = JSON.parse(status.stdout) as { store: { kind: string; where: string }; servers: { server: string; url: string; signedIn: boolean; renews?: boolean }[] };
    assert.deepEqual(said.store, { kind: 'file', where: credentials, why: 'MCP_TOOL_HOST_CREDENTIALS=file' });
    assert.deepEqual(said.servers, [
      { server: 'remote', url: fixture.url, signedIn: true, renews: true },
      { server: 'twin', url: fixture.url, signedIn: false },
    ]);
    const text = await cli(['auth', 'status', '--config', config]);
    assert.match(text.stdout, new RegExp(`^remote \\(${fixture.url.replace(/[.?]/g, '\\$&')}\\): signed in, renews without a browser$`, 'm'));
    for (const run of [login, call, status, text]) {
      for (const secret of [kept.tokens.access_token, kept.tokens.refresh_token]) assert.ok(!(run.stdout + run.stderr).includes(secret), 'a token never shows');
    }

    const again = await cli(['login', 'remote', '--config', config]);
    assert.match(again.stdout, /^Already signed in to "remote"; the sign-in is kept in the file /);

    const logout = await cli(['logout', 'remote']);
    assert.equal(logout.code, 0, logout.stderr);
    assert.equal(logout.stdout, `Signed out of "remote": its sign-in was removed from the file ${credentials}.\n`);
    assert.equal((JSON.parse(fs.readFileSync(credentials, 'utf8')) as { entries: object }).entries['mcpToolHost.oauth.remote' as keyof object], undefined);

    const after = await cli(['call', 'remote', 'whoami', '--config', config]);
    assert.equal(after.code, 4, after.stdout + after.stderr);
    assert.ok(after.stderr.includes(`"remote" needs you to sign in, and this run has no terminal to do it in: sign in once with ${formatCommandLine('mcp-tool-host', ['login', 'remote', '--config', config])} (on a terminal, or with --browser)`), after.stderr);
    assert.ok(after.ms < 15_000, `took ${after.ms} ms`);
    assert.equal(visits(), opened, 'no browser was opened');
  });

  it('a later run renews an expired kept sign-in with its refresh token, without a browser, and keeps the new one', async () => {
    // 4 s tokens, due for a refresh after 2 s: a run's requests after its refresh fit in that on a loaded machine (1 s
    // ones were due after 0.5 s: a slow run could renew twice, a slow login once). Then it waits until the kept one expired.
    const shortLived = await startOAuthFixture('--ttl', '4');
    try {
      fs.writeFileSync(config, JSON.stringify({ servers: { remote: { type: 'http', url: shortLived.url } } }));
      const login = await cli(['login', 'remote', '--config', config, '--browser', browserCommand]);
      assert.equal(login.code, 0, login.stdout + login.stderr);
      const first = fs.readFileSync(credentials, 'utf8');
      const signedIn = await shortLived.stats(); // a slow login may have renewed its own token already
      await keptTokenExpired(credentials);
      const call = await cli(['call', 'remote', 'whoami', '--config', config]);
      assert.equal(call.code, 0, call.stdout + call.stderr);
      const stats = await shortLived.stats();
      assert.deepEqual([stats.authorizations, stats.refreshGrants - signedIn.refreshGrants], [1, 1]);
      assert.notEqual(fs.readFileSync(credentials, 'utf8'), first, 'the renewed tokens are kept');
    } finally {
      shortLived.child.kill();
    }
  });

  it('a sign-in kept for another server name with the same URL, or for the same name at another URL, is not used', async () => {
    const login = await cli(['login', 'remote', '--config', config, '--browser', browserCommand]);
    assert.equal(login.code, 0, login.stdout + login.stderr);
    const twin = await cli(['call', 'twin', 'whoami', '--config', config]);
    assert.equal(twin.code, 4, twin.stdout + twin.stderr);
    assert.match(twin.stderr, /"twin" needs you to sign in, and this run has no terminal to do it in: sign in once with mcp-tool-host login twin --config /);
    // The same name, another URL (the same server, by its own account, but not the URL the sign-in was made for).
    const moved = path.join(dir, 'moved.json');
    fs.writeFileSync(moved, JSON.stringify({ servers: { remote: { type: 'http', url: `${fixture.url}?tenant=other` } } }));
    const elsewhere = await cli(['call', 'remote', 'whoami', '--config', moved]);
    assert.equal(elsewhere.code, 4, elsewhere.stdout + elsewhere.stderr);
    assert.match(elsewhere.stderr, /"remote" needs you to sign in, and this run has no terminal to do it in: sign in once with mcp-tool-host login remote --config /);
    const status = await cli(['auth', 'status', '--config', moved]);
    assert.match(status.stdout, /: not signed in$/m);
  });

  it('a credentials file or folder others can read is refused, with the command that fixes it; nothing is read or written', async () => {
    const login = await cli(['login', 'remote', '--config', config, '--browser', browserCommand]);
    assert.equal(login.code, 0, login.stdout + login.stderr);
    const before = fs.readFileSync(credentials, 'utf8');
    fs.chmodSync(credentials, 0o644);
    const loose = await cli(['call', 'remote', 'whoami', '--config', config]);
    assert.equal(loose.code, 4, loose.stdout + loose.stderr);
    assert.ok(loose.stderr.includes(`The credentials file ${credentials} can be read or changed by other users (mode 0644), so it was not used.`), loose.stderr);
    assert.ok(loose.stderr.includes(`Make it yours alone: chmod 600 ${formatCommandLine(credentials, [])}`), loose.stderr);
    const status = await cli(['auth', 'status', '--config', config]);
    assert.notEqual(status.code, 0);
    assert.ok(status.stderr.includes('chmod 600'), status.stderr);
    assert.equal(fs.readFileSync(credentials, 'utf8'), before, 'the file was left as it is');
    assert.equal(fs.statSync(credentials).mode & 0o777, 0o644, 'and its mode too: the user decides');

    fs.chmodSync(credentials, 0o600);
    fs.chmodSync(path.dirname(credentials), 0o755);
    const folder = await cli(['call', 'remote', 'whoami', '--config', config]);
    assert.equal(folder.code, 4);
    assert.ok(folder.stderr.includes(`The credentials folder ${path.dirname(credentials)} can be read or changed by other users (mode 0755), so it was not used.`), folder.stderr);
    assert.ok(folder.stderr.includes(`Make it yours alone: chmod 700 ${formatCommandLine(path.dirname(credentials), [])}`), folder.stderr);
    fs.chmodSync(path.dirname(credentials), 0o700);
    const fixed = await cli(['call', 'remote', 'whoami', '--config', config]);
    assert.equal(fixed.code, 0, fixed.stdout + fixed.stderr);
  });

  it('login of a server that is not remote is a usage error; auth status lists only remote servers', async () => {
    const local = await cli(['login', 'local', '--config', config]);
    assert.equal(local.code, 2);
    assert.match(local.stderr, /"local" is not a remote \(http\) server: there is nothing to sign in to\./);
    const status = await cli(['auth', 'status', '--config', config]);
    assert.equal(status.code, 0, status.stderr);
    assert.equal(status.stdout, `Sign-ins are kept in the file ${credentials} (MCP_TOOL_HOST_CREDENTIALS=file).\nremote (${fixture.url}): not signed in\ntwin (${fixture.url}): not signed in\n`);
  });

  it('without a keychain (Linux without a Secret Service, as CI), the file is the store, and auth status says why', async function () {
    if (process.platform !== 'linux') this.skip();
    const status = await cli(['auth', 'status', '--config', config, '--json'], { MCP_TOOL_HOST_CREDENTIALS: '', DBUS_SESSION_BUS_ADDRESS: '' });
    assert.equal(status.code, 0, status.stderr);
    const said = JSON.parse(status.stdout) as { store: { kind: string; where: string; why: string } };
    assert.equal(said.store.kind, 'file');
    assert.equal(said.store.where, credentials);
    assert.match(said.store.why, /^no keychain answered \(/);
  });
});
