import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sandboxCheck } from '../../src/core/transport/sandbox';
import { packGreeter, tempDir } from './bundleFixtures';
import { runCli, runOnTerminal, type CliRun } from './cliRun';
import { ROOT } from './helpers';

interface Fixture {
  readonly url: string;
  readonly sha256: string;
  close(): Promise<void>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startRegistry } = require(path.join(ROOT, 'test/fixtures/registry/registryServer.cjs')) as { startRegistry(options: { bundle: string }): Promise<Fixture> };

/**
 * `add` of a registry entry that is an MCP Bundle, and `--sandbox` for add and install-bundle: the
 * built CLI, a process per command, against the fixture registry on loopback serving a bundle the
 * `mcpb` tool packed here; the server written is then called.
 */
describe('CLI add of a registry bundle, and --sandbox (dist/cli.js)', function () {
  this.timeout(120_000);
  const dir = tempDir('mcpb-cli-registry-');
  const data = path.join(dir, 'data');
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_DATA_HOME: data, XDG_STATE_HOME: path.join(dir, 'state') };
  delete env.MCP_TOOL_HOST_POLICY_FILE;
  delete env.MCP_TOOL_HOST_REGISTRY;
  let registry: Fixture;
  let bundle: string;
  let canSandbox: boolean;
  const cli = (args: string[], extra: NodeJS.ProcessEnv = {}): Promise<CliRun> => runCli(args, { cwd: dir, env: { ...env, ...extra } });
  const add = (name: string, config: string, ...more: string[]) => cli(['add', name, '--registry', registry.url, '--config', config, ...more]);
  const file = (name: string) => path.join(dir, name);
  /** A PATH without bubblewrap: this machine then cannot sandbox (the CLI itself runs by its absolute path). */
  const noSandbox = { PATH: path.dirname(process.execPath) === '/usr/bin' ? '/nonexistent' : path.dirname(process.execPath) };

  before(async () => {
    bundle = packGreeter(dir);
    registry = await startRegistry({ bundle });
    canSandbox = (await sandboxCheck()).ok;
  });
  after(async () => {
    await registry.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('add downloads the bundle, shows what will run with the bundle\'s and the registry\'s claims, writes it, and its tool answers', async () => {
    const config = file('servers.json');
    const added = await add('com.example/greeter-bundle', config, '--set', 'greeting=Howdy', '--yes');
    assert.equal(added.code, 0, added.stderr);
    const [folder] = fs.readdirSync(path.join(data, 'mcp-tool-host/bundles'));
    const entryPoint = path.join(data, 'mcp-tool-host/bundles', folder, 'server/index.cjs');
    assert.ok(added.stdout.includes(`It will run: node ${entryPoint} --greeting Howdy\n  with the environment:\n    GREETER_KEY: \${env:MCP_INPUT_GREETER_BUNDLE_API_KEY}\n`), added.stdout);
    assert.match(added.stdout, /The bundle and the registry claim \(not checked, except the signature and the sha256\):\n {2}Signature \(checked\): unsigned/);
    assert.match(added.stdout, /\n {2}Tools: greet\n/);
    assert.match(added.stdout, /\n {2}Registry: Description: Greets, from a bundle the registry points at\n/);
    assert.match(added.stdout, /export:\n {2}MCP_INPUT_GREETER_BUNDLE_API_KEY {2}\(API key: A secret the server checks\.\)/);
    assert.deepEqual((JSON.parse(fs.readFileSync(config, 'utf8')) as { servers: object }).servers, {
      'greeter-bundle': { command: 'node', args: [entryPoint, '--greeting', 'Howdy'], env: { GREETER_KEY: '${env:MCP_INPUT_GREETER_BUNDLE_API_KEY}' } },
    });
    const call = await cli(['call', 'greeter-bundle', 'greet', '--args', '{"name":"Ann"}', '--config', config], { MCP_INPUT_GREETER_BUNDLE_API_KEY: 'secret' });
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, /Howdy, Ann! \(key of 6 characters, from /);
  });

  it('add refuses a bundle whose sha256 is not the registry\'s, one without it, a URL with credentials, an endless body, a redirect to http: nothing written or unpacked', async () => {
    const cases: [string, number, RegExp][] = [
      ['com.example/bundle-wrong-sha', 2, /Not installed, nothing was written: The file downloaded from http:\/\/127\.0\.0\.1:\d+\/bundles\/greeter\.mcpb has sha256 [0-9a-f]{64}, not the (ab){32} the registry lists/],
      ['com.example/bundle-no-sha', 2, /cannot be installed, nothing was written:\n {2}mcpb .*: it is a bundle without a fileSha256/],
      ['com.example/bundle-credentials', 2, /cannot be installed, nothing was written:\n {2}mcpb .*: its bundle URL carries a user name or password/],
      ['com.example/bundle-endless', 4, /The bundle at http:\/\/127\.0\.0\.1:\d+\/bundles\/endless\.mcpb is over 100 MiB: not downloaded\./],
      ['com.example/bundle-redirect', 4, /sent the request on to http:\/\/bundles\.evil\.example, which is not https: not asked\./],
    ];
    for (const [name, code, message] of cases) {
      const config = file('hostile.json');
      const home = file(`data-${name.split('/')[1]}`);
      const run = await cli(['add', name, '--registry', registry.url, '--config', config, '--yes'], { XDG_DATA_HOME: home });
      assert.equal(run.code, code, `${name}: ${run.stdout}${run.stderr}`);
      assert.match(run.stderr, message, name);
      assert.ok(!fs.existsSync(config), `${name} wrote the config`);
      assert.ok(!fs.existsSync(home), `${name} unpacked something`);
    }
  });

  it('--sandbox writes the sandbox VS Code offers into the entry where this machine can sandbox, and the server runs in it; elsewhere it is refused, saying why', async () => {
    const config = file('sandboxed.json');
    const refused = await add('com.example/greeter-bundle', config, '--sandbox', '--yes', '--name', 'boxed');
    if (!canSandbox) {
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /--sandbox: this machine cannot sandbox a server: /);
      assert.ok(!fs.existsSync(config));
      return;
    }
    assert.equal(refused.code, 0, refused.stderr);
    assert.match(refused.stdout, /\n {2}in a sandbox: \{"network":"none"\}\n/);
    const entry = (JSON.parse(fs.readFileSync(config, 'utf8')) as { servers: Record<string, { sandbox?: unknown }> }).servers.boxed;
    assert.deepEqual(entry.sandbox, { network: 'none' });
    const call = await cli(['call', 'boxed', 'greet', '--args', '{"name":"Bo"}', '--config', config], { MCP_INPUT_BOXED_API_KEY: 'k' });
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, /Hello, Bo!/);

    // Where the machine cannot (no bubblewrap on PATH): refused before anything is downloaded or written.
    for (const args of [['add', 'com.example/greeter-bundle', '--registry', registry.url], ['install-bundle', bundle]]) {
      const other = file('not-sandboxed.json');
      const run = await cli([...args, '--config', other, '--sandbox', '--yes'], noSandbox);
      assert.equal(run.code, 2, `${args[0]}: ${run.stdout}${run.stderr}`);
      assert.match(run.stderr, /--sandbox: this machine cannot sandbox a server: .*(bwrap|bubblewrap)/, args[0]);
      assert.ok(!fs.existsSync(other), `${args[0]} wrote the config`);
    }
  });

  it('install-bundle --sandbox writes the same sandbox; a remote or a container cannot have one, and says why', async () => {
    const config = file('bundle-sandboxed.json');
    const run = await cli(['install-bundle', bundle, '--config', config, '--name', 'boxed2', '--sandbox', '--yes']);
    if (canSandbox) {
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual((JSON.parse(fs.readFileSync(config, 'utf8')) as { servers: Record<string, { sandbox?: unknown }> }).servers.boxed2.sandbox, { network: 'none' });
    } else {
      assert.equal(run.code, 2);
      assert.match(run.stderr, /--sandbox: this machine cannot sandbox a server: /);
    }
    const remote = await add('com.example/weather', file('remote.json'), '--set', 'tenant=acme', '--sandbox', '--yes');
    assert.equal(remote.code, 2, remote.stderr);
    assert.match(remote.stderr, /--sandbox: a remote server runs on another machine: a sandbox here cannot hold it\. Nothing was written\./);
    const oci = await add('io.github.github/github-mcp-server', file('oci.json'), '--set', 'workspace=/tmp', '--sandbox', '--yes');
    assert.match(oci.stderr, /--sandbox: a container \(docker run\) runs under its daemon, outside any sandbox of this host\./);
    assert.ok(!fs.existsSync(file('remote.json')) && !fs.existsSync(file('oci.json')));
  });

  it('on a terminal without --yes, after what will run, says the server can be sandboxed with --sandbox (where this machine can)', async () => {
    const asked = await runOnTerminal(['add', 'com.example/greeter-bundle', '--registry', registry.url, '--config', file('asked.json'), '--name', 'asked'], ['n'], { cwd: dir, env });
    assert.equal(asked.code, 3, asked.output);
    const hint = /It will run: node [\s\S]*This machine can run it in a sandbox: add --sandbox\. It may write nowhere and reach no network\.[\s\S]*Write "asked" to/;
    if (canSandbox) assert.match(asked.output, hint);
    else assert.doesNotMatch(asked.output, /add --sandbox/);
    const bundled = await runOnTerminal(['install-bundle', bundle, '--config', file('asked.json'), '--name', 'asked2', '--set', 'greeting=Hi'], ['n'], { cwd: dir, env });
    assert.equal(bundled.code, 3, bundled.output);
    if (canSandbox) assert.match(bundled.output, /Will run [\s\S]*This machine can run it in a sandbox: add --sandbox\.[\s\S]*Install "asked2"/);
    assert.ok(!fs.existsSync(file('asked.json')));
  });
});
