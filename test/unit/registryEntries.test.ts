import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { readPage } from '../../src/core/install/registryClient';
import { fillEntry } from '../../src/core/install/fillEntry';
import { readEntry } from '../../src/core/install/registryEntry';
import type { RegistryEntry } from '../../src/core/install/registryTypes';

const ROOT = path.resolve(__dirname, '../../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fixture = require(path.join(ROOT, 'test/fixtures/registry/entries.cjs')) as { honest: unknown[]; hostile: unknown[] };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const everythingVersion = (require(path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/package.json')) as { version: string }).version;
const BASE = 'https://registry.example';

/** The entry the fixture holds under `name`, read as the client reads it. */
function entry(name: string): RegistryEntry {
  const item = [...fixture.honest, ...fixture.hostile].find((i) => (i as { server?: { name?: string } }).server?.name === name);
  assert.ok(item, `the fixture has ${name}`);
  const read = readEntry(item, BASE);
  assert.ok('entry' in read, `${name} is shown: ${JSON.stringify(read)}`);
  return read.entry;
}

/** A server.json wrapped as v0.1 wraps it, with one package or remote. */
const wrap = (server: Record<string, unknown>) => ({ server: { name: 'com.example/test', description: 'A test', version: '1.0.0', ...server } });
const onlyOption = (server: Record<string, unknown>) => {
  const read = readEntry(wrap(server), BASE);
  assert.ok('entry' in read);
  assert.equal(read.entry.options.length, 1);
  return read.entry.options[0];
};
const npm = (extra: Record<string, unknown>) => ({ packages: [{ registryType: 'npm', identifier: 'pkg', version: '1.2.3', transport: { type: 'stdio' }, ...extra }] });

describe('registry entries (server.json read as plans or problems)', () => {
  it('an npm package runs as npx -y pkg@version, pinned, with no inputs when it declares none', () => {
    const e = entry('io.github.modelcontextprotocol/everything');
    assert.equal(e.namespace, 'io.github.modelcontextprotocol');
    assert.equal(e.title, 'Everything');
    const plan = e.options[0].plan!;
    assert.deepEqual(plan.entry, { command: 'npx', args: ['-y', `@modelcontextprotocol/server-everything@${everythingVersion}`] });
    assert.equal(plan.name, 'everything');
    assert.equal(plan.runsVia, 'npm');
    assert.equal(plan.origin, `registry ${BASE} io.github.modelcontextprotocol/everything@${everythingVersion}`);
    assert.deepEqual(plan.inputs, []);
    assert.deepEqual(plan.claims.map((c) => c.label), ['Description', 'Publisher namespace', 'Version', 'Repository', 'Website']);
  });

  it('a PyPI package runs as uvx pkg==version; declared arguments and variables become asked inputs', () => {
    const plan = entry('io.github.modelcontextprotocol/fetch').options[0].plan!;
    assert.deepEqual(plan.entry, { command: 'uvx', args: ['mcp-server-fetch==2025.4.7', '--user-agent', '${input:fetch.user-agent}'], env: { FETCH_LOG_LEVEL: '${input:fetch.FETCH_LOG_LEVEL}' } });
    const level = plan.inputs.find((i) => i.id === 'fetch.FETCH_LOG_LEVEL')!;
    assert.deepEqual(level.choices, ['debug', 'info', 'warning']);
    assert.equal(level.default, 'info');
    assert.equal(level.required, false);
  });

  it('an OCI image runs as docker run -i --rm image:tag, its environment passed by name, a secret only as ${input:}', () => {
    const plan = entry('io.github.github/github-mcp-server').options[0].plan!;
    assert.deepEqual(plan.entry.args, ['run', '-i', '--rm', '-v', '${input:github.workspace}:/workspace', '-e', 'GITHUB_PERSONAL_ACCESS_TOKEN', '-e', 'GITHUB_TOOLSETS', 'ghcr.io/github/github-mcp-server:0.13.0']);
    assert.deepEqual(plan.entry.env, { GITHUB_PERSONAL_ACCESS_TOKEN: '${input:github.GITHUB_PERSONAL_ACCESS_TOKEN}', GITHUB_TOOLSETS: '${input:github.GITHUB_TOOLSETS}' });
    const token = plan.inputs.find((i) => i.label === 'GITHUB_PERSONAL_ACCESS_TOKEN')!;
    assert.equal(token.secret, true);
    assert.equal(token.required, true);
  });

  it("a remote is the URL and headers, each {variable} asked; a secret header's variables are secrets", () => {
    const [streamable, sse] = entry('com.example/weather').options;
    assert.deepEqual(streamable.plan!.entry, { type: 'http', url: 'https://${input:weather.tenant}.weather.example.com/mcp', headers: { Authorization: 'Bearer ${input:weather.api_key}', 'X-Region': '${input:weather.X-Region}' } });
    assert.equal(streamable.plan!.inputs.find((i) => i.id === 'weather.api_key')!.secret, true, 'isSecret on the header covers its {api_key}');
    assert.deepEqual(sse.plan!.entry, { type: 'http', url: 'https://weather.example.com/sse' });
  });

  it('every hostile entry of the fixture is refused with a clear reason, and none offers a plan', () => {
    const expected: Record<string, RegExp> = {
      'com.example/huge-description': /description is 10485774 characters long/,
      'com.example/escapes': /title hides a terminal escape sequence/,
      'com.example/shell-npm': /is not an npm package name/,
      'com.example/shell-pypi': /is not a PyPI project name/,
      'com.example/shell-oci': /is not an image tag/,
      'com.example/option-npm': /"--package=evil" is not an npm package name/,
      'com.example/credentials': /user name or password/,
      'com.example/plain-http': /plain http to another machine/,
      'com.example/unknown-type': /registry type "cargo" is unknown/,
      'com.example/latest': /version is "latest"/,
      'com.example/range': /">=1.0" is a range/,
      'com.example/no-version': /names no version/,
      'com.example/oci-latest': /version is "latest"/,
      'com.example/env-reader': /contains "\$\{", which would read your own variables/,
      'com.example/header-split': /is not an HTTP header name/,
      'com.example/privileged': /asks docker for "--privileged"/,
      'com.example/bundle-no-sha': /a bundle without a fileSha256/,
      'com.example/bundle-credentials': /its bundle URL carries a user name or password/,
    };
    const page = readPage({ servers: fixture.hostile }, BASE);
    assert.deepEqual(page.entries.map((e) => e.name).sort(), Object.keys(expected).sort());
    for (const e of page.entries) {
      assert.ok(e.options.length > 0, `${e.name} says why it cannot be installed`);
      for (const option of e.options) {
        assert.equal(option.plan, undefined, `${e.name} offers no plan`);
        assert.equal(option.bundle, undefined, `${e.name} offers no bundle to download`);
        assert.match(option.problem!, expected[e.name], e.name);
      }
    }
    assert.deepEqual(page.dropped.map((d) => d.reason), [
      'its name is not a registry name (reverse-DNS, one slash, letters, digits, ".", "_" and "-")',
      'it has no "server" object (the v0.1 answer wraps each server.json in one)',
    ]);
    assert.equal(page.dropped[0].name, 'com.example/\\u001B[2Jwiped', 'a dropped name is shown with its escape made visible');
  });

  it('shown text is bounded and its escape and direction characters are made visible', () => {
    const huge = entry('com.example/huge-description');
    assert.ok(huge.description.length <= 301, `cut: ${huge.description.length}`);
    assert.ok(huge.description.endsWith('…'));
    const escapes = entry('com.example/escapes');
    assert.equal(escapes.title, 'Totally \\u001B[32mSafe\\u001B[0m');
    // eslint-disable-next-line no-control-regex
    assert.ok(!/[\u001b\u202e\u0007]/.test(escapes.description + escapes.options[0].problem), 'nothing in it acts on a terminal');
    assert.match(escapes.description, /\\u202E/);
    const links = (url: string) => readEntry(wrap({ repository: { url, source: 'github' }, websiteUrl: url }), BASE);
    const withCredentials = links('https://me:pw@github.com/x');
    assert.ok('entry' in withCredentials && withCredentials.entry.repositoryUrl === undefined && withCredentials.entry.websiteUrl === undefined, 'a link with credentials is not shown');
    const scoped = links('https://www.npmjs.com/package/@scope/x');
    assert.ok('entry' in scoped && scoped.entry.repositoryUrl === 'https://www.npmjs.com/package/@scope/x');
  });

  it('refuses versions that are not one exact version, per registry', () => {
    for (const version of ['latest', 'LATEST', '', '^1.2.3', '~1.2.3', '>=1.2.3', '1.x', '1.*', '1.2', '1.2.3 || 2.0.0']) {
      assert.ok(onlyOption(npm({ version })).problem, `npm ${JSON.stringify(version)}`);
    }
    assert.ok(onlyOption(npm({ version: '1.2.3-beta.1' })).plan, 'a prerelease is exact');
    const pypi = (version: string) => onlyOption({ packages: [{ registryType: 'pypi', identifier: 'pkg', version, transport: { type: 'stdio' } }] });
    for (const version of ['1.0rc1', '2024.1.15', '0.1.dev3', '1!2.0.post1']) assert.ok(pypi(version).plan, `pypi ${version}`);
    for (const version of ['==1.0', '1.*', '~=1.0', 'latest']) assert.ok(pypi(version).problem, `pypi ${version}`);
    const oci = (identifier: string, version?: string) => onlyOption({ packages: [{ registryType: 'oci', identifier, version, transport: { type: 'stdio' } }] });
    assert.deepEqual(oci('docker.io/acme/server', '1.0.0').plan!.entry.args, ['run', '-i', '--rm', 'docker.io/acme/server:1.0.0'], 'an older entry: version beside the identifier');
    assert.ok(oci(`ghcr.io/acme/server@sha256:${'a'.repeat(64)}`).plan, 'a digest pins');
    assert.match(oci('ghcr.io/acme/server').problem!, /names no version/);
    assert.match(oci('ghcr.io/acme/server', 'latest').problem!, /version is "latest"/);
    assert.match(oci('GHCR.io/Acme/Server:1.0').problem!, /not an OCI image reference/);
  });

  it('refuses names outside each registry grammar, and options that change what runs', () => {
    for (const identifier of ['-y', 'a b', 'pkg;id', '$(id)', '`id`', 'Pkg', '../x', 'a\nb', '@scope/a/b']) assert.ok(onlyOption(npm({ identifier })).problem, JSON.stringify(identifier));
    assert.ok(onlyOption(npm({ identifier: '@scope/name.js' })).plan);
    assert.match(onlyOption(npm({ runtimeArguments: [{ type: 'named', name: '--package', value: 'evil' }] })).problem!, /npx options/);
    assert.match(onlyOption(npm({ registryBaseUrl: 'https://npm.evil.example' })).problem!, /another registry/);
    assert.match(onlyOption(npm({ transport: { type: 'streamable-http', url: 'http://localhost:8080/mcp' } })).problem!, /only packages spoken to over stdio/);
    const mcpb = (pkg: Record<string, unknown>) => onlyOption({ packages: [{ registryType: 'mcpb', identifier: 'https://x.example/a.mcpb', fileSha256: 'AB'.repeat(32), transport: { type: 'stdio' }, ...pkg }] });
    assert.deepEqual(mcpb({}).bundle && { url: mcpb({}).bundle!.url, sha256: mcpb({}).bundle!.sha256 }, { url: 'https://x.example/a.mcpb', sha256: 'ab'.repeat(32) });
    assert.match(mcpb({ fileSha256: 'ab' }).problem!, /fileSha256 is not a sha256/);
    assert.match(mcpb({ fileSha256: undefined }).problem!, /without a fileSha256/);
    assert.match(mcpb({ identifier: 'http://x.example/a.mcpb' }).problem!, /plain http to another machine/);
    assert.match(mcpb({ identifier: 'https://x.example/{file}.mcpb' }).problem!, /holds a variable/);
    assert.match(mcpb({ identifier: 'file:///etc/passwd' }).problem!, /not an http\(s\) URL/);
    assert.match(mcpb({ transport: { type: 'sse', url: 'https://x.example/sse' } }).problem!, /only bundles spoken to over stdio/);
    const docker = (runtimeArguments: unknown[]) => onlyOption({ packages: [{ registryType: 'oci', identifier: 'ghcr.io/a/b:1.0.0', transport: { type: 'stdio' }, runtimeArguments }] });
    assert.match(docker([{ type: 'positional', value: 'evil/image:1.0' }]).problem!, /where an option belongs/);
    assert.match(docker([{ type: 'named', name: '--network', value: 'host' }]).problem!, /--network/);
    assert.ok(docker([{ type: 'named', name: '-p', value: '8080:8080' }]).plan);
  });

  it('refuses remotes that cannot be checked or send credentials; loopback http is fine', () => {
    const remote = (url: string) => onlyOption({ remotes: [{ type: 'streamable-http', url }] });
    assert.ok(remote('http://127.0.0.1:3000/mcp').plan);
    assert.ok(remote('http://localhost:3000/mcp').plan);
    assert.match(remote('https://user@host.example/mcp').problem!, /user name or password/);
    assert.match(remote('{base}/mcp').problem!, /starts with a variable/);
    assert.match(remote('ftp://host.example/mcp').problem!, /not an http\(s\) URL/);
    assert.match(onlyOption({ remotes: [{ type: 'websocket', url: 'wss://x.example' }] }).problem!, /transport "websocket" is unknown/);
    assert.match(onlyOption({ remotes: [{ type: 'sse', url: 'https://x.example', headers: [{ name: 'Host', value: 'evil' }] }] }).problem!, /connection's own/);
  });

  it('a fixed value, default or choice with ${...} is refused: it would read the user\'s own variables at launch', () => {
    for (const variable of [{ name: 'A', value: '${input:github.GITHUB_TOKEN}' }, { name: 'A', default: '${env:HOME}' }, { name: 'A', choices: ['ok', '${userHome}'] }]) {
      assert.match(onlyOption(npm({ environmentVariables: [variable] })).problem!, /would read your own variables/, JSON.stringify(variable));
    }
    assert.match(onlyOption(npm({ environmentVariables: [{ name: 'BAD NAME', value: '1' }] })).problem!, /not an environment variable name/);
    assert.match(onlyOption(npm({ environmentVariables: [{ name: 'A' }, { name: 'A' }] })).problem!, /declared twice/);
    const secret = onlyOption(npm({ environmentVariables: [{ name: 'KEY', isSecret: true, default: 'shh' }] })).plan!;
    assert.deepEqual(secret.entry.env, { KEY: '${input:test.KEY}' });
    assert.equal(secret.inputs[0].default, undefined, "a secret's default is not offered");
  });

  it('a deleted entry, or one with more options than are read, is shown but not installable', () => {
    const deleted = readEntry({ ...wrap(npm({})), _meta: { 'io.modelcontextprotocol.registry/official': { status: 'deleted' } } }, BASE);
    assert.ok('entry' in deleted);
    assert.match(deleted.entry.options[0].problem!, /marks it deleted/);
    const many = readEntry(wrap({ packages: Array.from({ length: 17 }, () => npm({}).packages[0]) }), BASE);
    assert.ok('entry' in many);
    assert.ok(many.entry.options.every((o) => /more than 16/.test(o.problem ?? '')));
  });

  it('fillEntry puts given values in, and leaves out an optional value with its flag, its header or its docker -e', () => {
    const oci = onlyOption({ packages: [{ registryType: 'oci', identifier: 'ghcr.io/a/b:1.0.0', transport: { type: 'stdio' }, packageArguments: [{ type: 'named', name: '--mode' }, { type: 'positional', valueHint: 'target' }], environmentVariables: [{ name: 'KEEP' }, { name: 'DROP' }] }] }).plan!;
    const values = new Map<string, string | undefined>([['test.mode', undefined], ['test.target', 'x y'], ['test.KEEP', '1'], ['test.DROP', undefined]]);
    assert.deepEqual(fillEntry(oci, values), { command: 'docker', args: ['run', '-i', '--rm', '-e', 'KEEP', 'ghcr.io/a/b:1.0.0', 'x y'], env: { KEEP: '1' } });
    const remote = onlyOption({ remotes: [{ type: 'sse', url: 'https://x.example/{path}', variables: { path: {} }, headers: [{ name: 'X-Opt' }] }] }).plan!;
    assert.deepEqual(fillEntry(remote, new Map([['test.path', 'mcp'], ['test.X-Opt', undefined]])), { type: 'http', url: 'https://x.example/mcp' });
    assert.deepEqual(fillEntry(remote, new Map()), remote.entry, 'ids not given stay ${input:} for the launch to ask');
  });
});
