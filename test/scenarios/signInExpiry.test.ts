import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT, startOAuthFixture } from '../integration/helpers';
import { runCli, type CliRun } from '../integration/cliRun';

// Issue 32, "sessions that outlive a token", as a user of the CLI meets it: one `call` signs in,
// lists the tools, and by the time it calls, the server refuses the token (it moved to another
// authorization server, or it refuses every token). The user's browser program (--browser) is
// the recording browser: it loads each sign-in page it is given and follows the redirects.

const RECORDING_BROWSER = path.join(ROOT, 'test/fixtures/record-browser.cjs');
const browserCommand = [process.execPath, RECORDING_BROWSER].map((w) => JSON.stringify(w)).join(' ');

describe('scenario: the sign-in expires during a session (CLI, --browser, a real OAuth server)', function () {
  this.timeout(60_000);
  let dir: string;
  const cleanups: (() => void)[] = [];
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-expiry-'));
  });
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The fixture started with `args`, a config naming it as the user writes it, and a CLI run of `command` against it. */
  async function run(fixtureArgs: string[], command: string[]): Promise<{ run: CliRun; visited: URL[]; stats: Awaited<ReturnType<Awaited<ReturnType<typeof startOAuthFixture>>['stats']>> }> {
    const f = await startOAuthFixture(...fixtureArgs);
    cleanups.push(() => f.child.kill());
    const config = path.join(dir, 'servers.json');
    fs.writeFileSync(config, JSON.stringify({ servers: { remote: { type: 'http', url: f.url } } }));
    const visitedFile = path.join(dir, 'visited.txt');
    const env: NodeJS.ProcessEnv = { ...process.env, RECORD_BROWSER_FILE: visitedFile, XDG_STATE_HOME: dir };
    delete env.BROWSER;
    const done = await runCli([...command, '--config', config, '--browser', browserCommand], { env });
    const visited = fs.existsSync(visitedFile) ? fs.readFileSync(visitedFile, 'utf8').trim().split('\n').map((u) => new URL(u)) : [];
    return { run: done, visited, stats: await f.stats() };
  }

  it('the server moves to another authorization server between the listing and the call: the CLI signs in there and the call succeeds', async () => {
    const { run: cli, visited, stats } = await run(['--migrate-after', '1'], ['call', 'remote', 'whoami']);
    assert.equal(cli.code, 0, `${cli.stdout}\n${cli.stderr}`);
    assert.match(cli.stdout, /signed in as client-as2-/);
    const signIns = cli.stderr.match(/^Sign in to "remote" on 127\.0\.0\.1:\d+: opening \S+/gm) ?? [];
    assert.equal(signIns.length, 2, cli.stderr);
    assert.deepEqual(visited.filter((u) => u.pathname.endsWith('/authorize')).map((u) => u.pathname), ['/authorize', '/as2/authorize']);
    assert.deepEqual([stats.as2Registrations, stats.foreignClients], [1, 0]);
  });

  it('`tools` after the token stopped working: lists them after signing in again', async () => {
    // The listing is the first tools/ request: with --revoke-after 0 nothing is revoked; with
    // --migrate-after 0 the first token is already refused when the listing comes.
    const { run: cli, stats } = await run(['--migrate-after', '0'], ['tools', 'remote']);
    assert.equal(cli.code, 0, `${cli.stdout}\n${cli.stderr}`);
    assert.match(cli.stdout, /whoami/);
    assert.equal(stats.as2TokenGrants, 1);
  });

  it('a server that refuses every token: `call` says why (exit 4), never that the tool does not exist (exit 2)', async () => {
    const { run: cli } = await run(['--refuse-after', '0'], ['call', 'remote', 'whoami']);
    assert.equal(cli.code, 4, `${cli.stdout}\n${cli.stderr}`);
    assert.doesNotMatch(cli.stderr, /has no tool named/);
    assert.match(cli.stderr, /^failed: Server "remote" has no tools to call: Listing tools failed: "remote" refused the token you just signed in with/m);
  });
});
