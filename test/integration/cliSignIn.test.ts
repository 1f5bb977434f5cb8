import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatCommandLine } from '../../src/core/transport/commandLine';
import { ROOT, startOAuthFixture } from './helpers';
import { runCli, type CliRun } from './cliRun';

const RECORDING_BROWSER = path.join(ROOT, 'test/fixtures/record-browser.cjs');

type Run = CliRun;

/**
 * The built CLI as a real child process, stdin and stderr pipes (no terminal), BROWSER unset unless
 * given, with a state folder of its own: each run signs in anew (a kept sign-in is cliCredentials.test.ts's).
 */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const base: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-signin-state-')), MCP_TOOL_HOST_CREDENTIALS: 'file' };
  delete base.BROWSER;
  return runCli(args, { env: { ...base, ...env } }).finally(() => fs.rmSync(base.XDG_STATE_HOME!, { recursive: true, force: true }));
}

/** A browser command for --browser / BROWSER: node running `script`, quoted (paths may hold spaces). */
const nodeCommand = (...words: string[]) => [process.execPath, ...words].map((w) => JSON.stringify(w)).join(' ');

describe('the CLI signs in with a browser command (--browser, BROWSER), without a terminal', function () {
  this.timeout(60_000);
  let dir: string;
  let fixture: Awaited<ReturnType<typeof startOAuthFixture>>;
  let config: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-signin-'));
    fixture = await startOAuthFixture();
    config = path.join(dir, 'servers.json');
    fs.writeFileSync(config, JSON.stringify({ servers: { remote: { type: 'http', url: fixture.url } } }));
  });
  after(() => {
    fixture.child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('--browser opens the sign-in page with that program, shows what it opens, and never prints the code or a token', async () => {
    const visited = path.join(dir, 'visited.txt');
    const run = await cli(['tools', 'remote', '--config', config, '--browser', nodeCommand(RECORDING_BROWSER)], { RECORD_BROWSER_FILE: visited });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.includes('whoami'), run.stdout);
    const urls = fs.readFileSync(visited, 'utf8').trim().split('\n').map((u) => new URL(u));
    assert.equal(urls[0].pathname, '/authorize');
    assert.match(run.stderr, /^Sign in to "remote" on 127\.0\.0\.1:\d+: opening http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+ with (.+) \(--browser\)$/m);
    // Word by word as it runs, quoted where a word holds a space (a checkout under "My Projects").
    assert.ok(run.stderr.includes(` with ${formatCommandLine(process.execPath, [RECORDING_BROWSER])} (--browser)\n`), run.stderr);
    const callback = urls.find((u) => u.searchParams.has('code'));
    assert.ok(callback && /^127\.0\.0\.1:\d+$/.test(callback.host), 'the redirect came back to the loopback receiver');
    const code = callback.searchParams.get('code')!;
    assert.ok(code.length > 10);
    assert.ok(!run.stdout.includes(code) && !run.stderr.includes(code), 'the authorization code never shows');
    assert.doesNotMatch(run.stdout + run.stderr, /access_token|refresh_token|Bearer /);
    assert.equal((await fixture.stats()).tokenGrants, 1);
  });

  it('BROWSER is honoured the same way; --browser wins over it', async () => {
    const visited = path.join(dir, 'visited-env.txt');
    const viaEnv = await cli(['tools', 'remote', '--config', config], { BROWSER: nodeCommand(RECORDING_BROWSER), RECORD_BROWSER_FILE: visited });
    assert.equal(viaEnv.code, 0, viaEnv.stderr);
    assert.match(viaEnv.stderr, /with .*record-browser\.cjs\S* \(BROWSER\)$/m);
    const both = await cli(['tools', 'remote', '--config', config, '--browser', nodeCommand(RECORDING_BROWSER)], { BROWSER: 'no-such-browser-xyz', RECORD_BROWSER_FILE: visited });
    assert.equal(both.code, 0, both.stderr);
    assert.match(both.stderr, /\(--browser\)$/m);
  });

  it('%s in the command stands for the URL', async () => {
    const visited = path.join(dir, 'visited-placeholder.txt');
    const run = await cli(['tools', 'remote', '--config', config, '--browser', `${nodeCommand(RECORDING_BROWSER)} %s --ignored`], { RECORD_BROWSER_FILE: visited });
    // The recording browser reads the URL from its last argument: with %s earlier, it gets "--ignored" and fails.
    assert.equal(run.code, 4, run.stderr);
    assert.match(run.stdout, /the browser command \(--browser\) ended with exit code 1 before the sign-in finished/);
  });

  it('never runs the command through a shell: shell syntax is refused, and nothing it names runs', async () => {
    const marker = path.join(dir, 'pwned');
    const flag = await cli(['tools', 'remote', '--config', config, '--browser', `${nodeCommand(RECORDING_BROWSER)}; touch ${marker}`]);
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /--browser is run as a program with arguments, never by a shell: remove ; & \| \$ ` < > and line breaks from it\./);
    for (const bad of [`touch ${marker}`, `$(touch ${marker})`, `x | touch ${marker}`, `x && touch ${marker}`, `\`touch ${marker}\``]) {
      const env = await cli(['tools', 'remote', '--config', config], { BROWSER: bad.startsWith('touch') ? `${nodeCommand('-e', 'process.exit(5)')} ${bad}` : bad });
      assert.equal(env.code, 4, `${bad}: ${env.stderr}`);
      assert.ok(!fs.existsSync(marker), `${bad} ran a shell command`);
    }
    const refused = await cli(['tools', 'remote', '--config', config], { BROWSER: `x $(touch ${marker})` });
    assert.match(refused.stdout, /Cannot sign in to "remote": BROWSER is run as a program with arguments, never by a shell/);
    // Words are argv, not shell words: * and ~ reach the program as they are (it exits 7 when they do).
    const literal = await cli(['tools', 'remote', '--config', config], { BROWSER: `${nodeCommand('-e', "process.exit(process.argv.slice(1, 3).join() === '*,~' ? 7 : 8)")} * ~` });
    assert.match(literal.stdout, /ended with exit code 7 before the sign-in finished/);
  });

  it('a browser command that fails ends the sign-in at once, saying why', async () => {
    const exits = await cli(['tools', 'remote', '--config', config, '--browser', nodeCommand('-e', 'process.exit(3)')]);
    assert.equal(exits.code, 4);
    assert.match(exits.stdout, /Signing in to "remote" failed: the browser command \(--browser\) ended with exit code 3 before the sign-in finished\./);
    assert.ok(exits.ms < 20_000, `took ${exits.ms} ms`);
    const missing = await cli(['tools', 'remote', '--config', config, '--browser', 'no-such-browser-xyz --new-window']);
    assert.equal(missing.code, 4);
    assert.match(missing.stdout, /Cannot sign in to "remote": The browser command "no-such-browser-xyz" could not be started \(ENOENT\)\./);
  });
});
