import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packGreeter, tempDir } from './bundleFixtures';
import { runCli, runOnTerminal } from './cliRun';

/** `install-bundle` of the built CLI, then the installed server's tool called: a process per command. */
describe('CLI install-bundle (dist/cli.js)', function () {
  this.timeout(60_000);
  const dir = tempDir('mcpb-cli-');
  const env = { ...process.env, XDG_DATA_HOME: path.join(dir, 'data'), XDG_STATE_HOME: dir };
  const cli = (...args: string[]) => runCli(args, { cwd: dir, env });
  let bundle: string;
  let signed: string;
  before(() => {
    bundle = packGreeter(dir);
    signed = packGreeter(dir, { file: 'signed.mcpb', sign: true });
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('prints what will run and the claims, installs into the config keeping its other content, and the tool answers', async () => {
    const config = path.join(dir, 'servers.jsonc');
    const before = '{\n  // mine\n  "servers": {\n    "other": { "command": "node", "args": ["x.js"] }\n  },\n  "extra": 1\n}\n';
    fs.writeFileSync(config, before);
    const install = await cli('install-bundle', signed, '--config', config, '--set', 'greeting=Howdy', '--yes');
    assert.equal(install.code, 0, install.stderr);
    const unpacked = path.join(dir, 'data/mcp-tool-host/bundles');
    const [folder] = fs.readdirSync(unpacked);
    const entryPoint = path.join(unpacked, folder, 'server/index.cjs');
    assert.ok(install.stdout.includes(`Will run (as server "greeter"):\n  node ${entryPoint} --greeting Howdy\n  env GREETER_KEY=\${env:API_KEY}\n`), install.stdout);
    assert.match(install.stdout, /claims, not checked.*\n {2}Signature \(checked\): self-signed by MCPB Self-Signed Certificate/);
    assert.match(install.stdout, /\n {2}Tools: greet\n/);
    assert.match(install.stderr, /API key \(api_key\) is a secret: "greeter" reads it from the environment variable API_KEY/);
    const written = fs.readFileSync(config, 'utf8');
    assert.ok(written.startsWith('{\n  // mine\n'), written);
    const doc = JSON.parse(written.replace('// mine', '')) as { servers: Record<string, unknown>; extra: number };
    assert.deepEqual(doc.servers.other, { command: 'node', args: ['x.js'] });
    assert.deepEqual(doc.servers.greeter, { command: 'node', args: [entryPoint, '--greeting', 'Howdy'], env: { GREETER_KEY: '${env:API_KEY}' } });
    assert.equal(doc.extra, 1);

    const call = await runCli(['call', 'greeter', 'greet', '--args', '{"name":"Ann"}', '--config', config], { cwd: dir, env: { ...env, API_KEY: 'secret' } });
    assert.equal(call.code, 0, call.stderr);
    assert.match(call.stdout, new RegExp(`Howdy, Ann! \\(key of 6 characters, from ${path.dirname(entryPoint).replace(/[/\\]/g, '.')}\\)`));
  });

  it('refuses a tampered bundle: exit 2, the config untouched, nothing unpacked', async () => {
    const bytes = fs.readFileSync(signed);
    bytes[300] ^= 0x01;
    const tampered = path.join(dir, 'tampered.mcpb');
    fs.writeFileSync(tampered, bytes);
    const config = path.join(dir, 'untouched.json');
    fs.writeFileSync(config, '{"servers": {}}');
    const data = path.join(dir, 'data-tampered');
    const run = await runCli(['install-bundle', tampered, '--config', config, '--yes'], { cwd: dir, env: { ...env, XDG_DATA_HOME: data } });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /Not installed: The bundle was changed after it was signed/);
    assert.equal(fs.readFileSync(config, 'utf8'), '{"servers": {}}');
    assert.equal(fs.existsSync(data), false);
  });

  it('without --yes and without a terminal installs nothing (exit 3); on a terminal it asks, and "n" installs nothing', async () => {
    const config = path.join(dir, 'asked.json');
    const data = path.join(dir, 'data-asked');
    const piped = await runCli(['install-bundle', bundle, '--config', config, '--set', 'api_key=MY_KEY'], { cwd: dir, env: { ...env, XDG_DATA_HOME: data } });
    assert.equal(piped.code, 3);
    assert.match(piped.stderr, /pass --yes to install/);
    const asked = await runOnTerminal(['install-bundle', bundle, '--config', config], ['Hi', 'n'], { cwd: dir, env: { ...env, XDG_DATA_HOME: data } });
    assert.equal(asked.code, 3, asked.output);
    assert.match(asked.output, /Greeting \(greeting\): The word to greet with\. \[Hello\]/);
    assert.match(asked.output, /node \S+ --greeting Hi/);
    assert.match(asked.output, /Install "greeter" and let it run as above\? \[y\/N\]/);
    assert.equal(fs.existsSync(config), false);
    assert.equal(fs.existsSync(data), false);
  });

  it('says which setting is unknown, and that a secret is never given on the command line', async () => {
    const config = path.join(dir, 'bad.json');
    const unknown = await cli('install-bundle', bundle, '--config', config, '--set', 'colour=red', '--yes');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--set colour: the bundle has no such setting\. It has: greeting, api_key\./);
    const secret = await cli('install-bundle', bundle, '--config', config, '--set', 'api_key=sk-123 456', '--yes');
    assert.equal(secret.code, 2);
    assert.match(secret.stderr, /is a secret, so its value names the environment variable/);
    assert.equal(fs.existsSync(config), false);
  });
});
