import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT, startOAuthFixture } from './helpers';
import { runCli, type CliRun } from './cliRun';
import { secretServiceMissing, startSecretService, type SecretService } from './secretService';

const RECORDING_BROWSER = path.join(ROOT, 'test/fixtures/record-browser.cjs');
const browserCommand = [process.execPath, RECORDING_BROWSER].map((w) => JSON.stringify(w)).join(' ');

// The CLI's keychain on Linux is the Secret Service: here a real one (GNOME Keyring on a private
// session bus, scripts/e2e/setup.sh installs it), driven by real CLI processes as a user runs them.
describe('the CLI keeps sign-ins in a real Secret Service keyring (GNOME Keyring)', function () {
  this.timeout(60_000);
  let fixture: Awaited<ReturnType<typeof startOAuthFixture>>;
  let dir: string;
  let state: string;
  let config: string;
  let service: SecretService | undefined;

  before(async function () {
    const missing = secretServiceMissing();
    if (missing) {
      console.log(`      skipped: no Secret Service can be started here: ${missing}`);
      this.skip();
    }
    fixture = await startOAuthFixture();
  });
  after(() => fixture?.child.kill());
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-keychain-'));
    state = path.join(dir, 'state');
    config = path.join(dir, 'servers.json');
    fs.writeFileSync(config, JSON.stringify({ servers: { remote: { type: 'http', url: fixture.url }, twin: { type: 'http', url: fixture.url } } }));
  });
  afterEach(async () => {
    const left = (await service?.stop()) ?? [];
    service = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
    assert.deepEqual(left, [], 'every process of the Secret Service ended');
  });

  /** One run: no terminal, no BROWSER, the Secret Service's bus and nothing of the user's session. */
  function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
    const all: NodeJS.ProcessEnv = { ...process.env, ...service!.env, XDG_STATE_HOME: state, RECORD_BROWSER_FILE: path.join(dir, 'visited.txt') };
    delete all.BROWSER;
    delete all.MCP_TOOL_HOST_CREDENTIALS;
    Object.assign(all, env);
    return runCli(args, { cwd: dir, env: all });
  }
  const visits = () => (fs.existsSync(path.join(dir, 'visited.txt')) ? fs.readFileSync(path.join(dir, 'visited.txt'), 'utf8').trim().split('\n').length : 0);
  const entries = () => service!.search('service', 'mcp-tool-host');

  for (const wanted of ['keychain', undefined]) {
    it(`login keeps the sign-in in the keyring (MCP_TOOL_HOST_CREDENTIALS=${wanted ?? 'unset'}); a later run uses it without a browser; logout removes it; the file is never written`, async () => {
      service = await startSecretService('unlocked');
      const env = wanted === undefined ? {} : { MCP_TOOL_HOST_CREDENTIALS: wanted };
      const grants = (await fixture.stats()).tokenGrants;
      const login = await cli(['login', 'remote', '--config', config, '--browser', browserCommand], env);
      assert.equal(login.code, 0, login.stdout + login.stderr);
      assert.equal(login.stdout, 'Signed in to "remote". The sign-in is kept in the Secret Service keyring: later runs use it without a browser.\n');
      // One entry, filed under our service and the server's name; its secret is the sign-in for this URL.
      const kept = entries();
      assert.match(kept, /^attribute\.username = mcpToolHost\.oauth\.remote$/m, kept);
      assert.equal(kept.match(/^attribute\.username = /gm)?.length, 1, kept);
      const record = JSON.parse(/^secret = (.*)$/m.exec(kept)![1]) as { url: string; tokens: { access_token: string; refresh_token: string } };
      assert.equal(record.url, fixture.url);
      const opened = visits();

      const call = await cli(['call', 'remote', 'whoami', '--config', config], env);
      assert.equal(call.code, 0, call.stdout + call.stderr);
      assert.match(call.stdout, /signed in as client-/);
      assert.equal(visits(), opened, 'no browser was opened');
      assert.equal((await fixture.stats()).tokenGrants, grants + 1, 'no new sign-in');

      const status = await cli(['auth', 'status', '--config', config, '--json'], env);
      assert.equal(status.code, 0, status.stderr);
      const said = JSON.parse(status.stdout) as { store: object; servers: object[] };
      assert.deepEqual(said.store, { kind: 'keychain', where: 'the Secret Service keyring' });
      assert.deepEqual(said.servers, [
        { server: 'remote', url: fixture.url, signedIn: true, renews: true },
        { server: 'twin', url: fixture.url, signedIn: false },
      ]);
      for (const run of [login, call, status]) {
        for (const secret of [record.tokens.access_token, record.tokens.refresh_token]) assert.ok(!(run.stdout + run.stderr).includes(secret), 'a token never shows');
      }

      const logout = await cli(['logout', 'remote'], env);
      assert.equal(logout.code, 0, logout.stderr);
      assert.equal(logout.stdout, 'Signed out of "remote": its sign-in was removed from the Secret Service keyring.\n');
      assert.doesNotMatch(entries(), /mcpToolHost\.oauth\.remote/);
      const after = await cli(['call', 'remote', 'whoami', '--config', config], env);
      assert.equal(after.code, 4, after.stdout + after.stderr);
      assert.match(after.stderr, /"remote" needs you to sign in/);
      assert.equal(visits(), opened, 'no browser was opened');
      assert.ok(!fs.existsSync(path.join(state, 'mcp-tool-host', 'auth')), 'the credentials file was never written');
    });
  }

  it('another server name with the same URL does not get the entry', async () => {
    service = await startSecretService('unlocked');
    const env = { MCP_TOOL_HOST_CREDENTIALS: 'keychain' };
    const login = await cli(['login', 'remote', '--config', config, '--browser', browserCommand], env);
    assert.equal(login.code, 0, login.stdout + login.stderr);
    const twin = await cli(['call', 'twin', 'whoami', '--config', config], env);
    assert.equal(twin.code, 4, twin.stdout + twin.stderr);
    assert.match(twin.stderr, /"twin" needs you to sign in, and this run has no terminal to do it in: sign in once with mcp-tool-host login twin --config /);
    const status = await cli(['auth', 'status', '--config', config], env);
    assert.match(status.stdout, /^twin \(.*\): not signed in$/m);
    assert.match(status.stdout, /^remote \(.*\): signed in, renews without a browser$/m);
    // Signing out of the twin leaves the remote's entry alone.
    await cli(['logout', 'twin'], env);
    assert.match(entries(), /^attribute\.username = mcpToolHost\.oauth\.remote$/m);
  });

  // A Secret Service that answers but has no keyring it may write to (GNOME Keyring started by the
  // session bus on a machine where nobody logged in at a desktop; creating one needs a prompt nobody can see).
  it('a Secret Service that cannot keep an entry is not chosen: the file is, and auth status says why; =keychain is a clear error', async () => {
    service = await startSecretService('none');
    const status = await cli(['auth', 'status', '--config', config, '--json']);
    assert.equal(status.code, 0, status.stderr);
    const said = JSON.parse(status.stdout) as { store: { kind: string; why: string } };
    assert.equal(said.store.kind, 'file', status.stdout);
    assert.match(said.store.why, /^the Secret Service keyring did not keep an entry \(/);
    const login = await cli(['login', 'remote', '--config', config, '--browser', browserCommand]);
    assert.equal(login.code, 0, login.stdout + login.stderr);
    assert.match(login.stdout, /^Signed in to "remote"\. The sign-in is kept in the file /);
    const call = await cli(['call', 'remote', 'whoami', '--config', config]);
    assert.equal(call.code, 0, call.stdout + call.stderr);

    const forced = await cli(['auth', 'status', '--config', config], { MCP_TOOL_HOST_CREDENTIALS: 'keychain' });
    assert.equal(forced.code, 2, forced.stdout + forced.stderr);
    assert.match(forced.stderr, /MCP_TOOL_HOST_CREDENTIALS=keychain, but the Secret Service keyring did not keep an entry \(/);
  });

  it('a locked keyring whose unlock prompt cannot be shown is not chosen: the file is, and auth status and logout say why', async () => {
    service = await startSecretService('locked');
    const status = await cli(['auth', 'status', '--config', config, '--json']);
    assert.equal(status.code, 0, status.stdout + status.stderr);
    const said = JSON.parse(status.stdout) as { store: { kind: string; why: string } };
    assert.equal(said.store.kind, 'file', status.stdout);
    assert.match(said.store.why, /^the Secret Service keyring did not keep an entry \(.*prompt/);
    const logout = await cli(['logout', 'remote']);
    assert.equal(logout.code, 0, logout.stdout + logout.stderr);
    assert.match(logout.stdout, /^No sign-in to "remote" was kept \(looked in the file /);
  });
});
