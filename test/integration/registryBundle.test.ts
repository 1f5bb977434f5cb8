import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BundleError } from '../../src/core/install/bundleErrors';
import { newRegistryClient, RegistryError } from '../../src/core/install/registryClient';
import { downloadBundle } from '../../src/core/install/registryBundle';
import type { InstallOption, RegistryBundle } from '../../src/core/install/registryTypes';
import { packGreeter, tempDir } from './bundleFixtures';
import { ROOT } from './helpers';

interface Fixture {
  readonly url: string;
  readonly sha256: string;
  close(): Promise<void>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startRegistry } = require(path.join(ROOT, 'test/fixtures/registry/registryServer.cjs')) as { startRegistry(options: { bundle: string }): Promise<Fixture> };

/**
 * A registry entry whose package is an MCP Bundle (registryType "mcpb"): downloaded from the
 * fixture registry on loopback, refused unless its sha256 is the registry's, then read as any bundle
 * file is (a bundle packed here with the `mcpb` tool).
 */
describe('registry entries that are MCP Bundles: download, sha256, then the bundle path', function () {
  this.timeout(60_000);
  const dir = tempDir('mcpb-registry-');
  let registry: Fixture;
  before(async () => (registry = await startRegistry({ bundle: packGreeter(dir) })));
  after(async () => {
    await registry.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const option = async (name: string): Promise<InstallOption> => {
    const page = await newRegistryClient({ baseUrl: registry.url }).search(name);
    const entry = page.entries.find((e) => e.name === name);
    assert.ok(entry, `${name} not found`);
    assert.equal(entry.options.length, 1);
    return entry.options[0];
  };
  const freshRoot = () => path.join(tempDir('mcpb-registry-root-'), 'bundles');

  it('offers the bundle by its URL and sha256; downloaded, its plan runs what the bundle declares and carries both sources\' claims', async () => {
    const offered = await option('com.example/greeter-bundle');
    assert.equal(offered.problem, undefined);
    assert.equal(offered.plan, undefined, 'no plan before the bundle is read');
    assert.deepEqual({ ...offered.bundle, claims: undefined }, { url: `${registry.url}/bundles/greeter.mcpb`, sha256: registry.sha256, name: 'greeter-bundle', origin: `registry ${registry.url} com.example/greeter-bundle@1.2.3`, claims: undefined });
    const root = freshRoot();
    const bundle = await downloadBundle(offered.bundle!, { root });
    const { plan } = bundle;
    assert.equal(plan.runsVia, 'mcpb');
    assert.equal(plan.name, 'greeter-bundle');
    assert.deepEqual(plan.entry, {
      command: 'node',
      args: [path.join(bundle.unpackDir, 'server/index.cjs'), '--greeting', '${input:greeter-bundle.greeting}'],
      env: { GREETER_KEY: '${input:greeter-bundle.api_key}' },
    });
    assert.equal(plan.origin, `registry ${registry.url} com.example/greeter-bundle@1.2.3, bundle ${registry.url}/bundles/greeter.mcpb sha256:${registry.sha256}`);
    const claims = Object.fromEntries(plan.claims.map((c) => [c.label, c.value]));
    assert.match(claims['Signature (checked)'], /^unsigned/);
    assert.equal(claims.Tools, 'greet');
    assert.equal(claims['Registry: Description'], 'Greets, from a bundle the registry points at');
    assert.equal(claims['Registry: Publisher namespace'], 'com.example');
    assert.equal(fs.existsSync(root), false, 'nothing on disk before unpack');
    await bundle.unpack();
    assert.ok(fs.statSync(path.join(bundle.unpackDir, 'server/index.cjs')).isFile());
  });

  it('refuses a file whose sha256 is not the registry\'s, an entry without fileSha256, and a URL with credentials; writes nothing', async () => {
    const root = freshRoot();
    const wrong = await option('com.example/bundle-wrong-sha');
    await assert.rejects(downloadBundle(wrong.bundle!, { root }), (err: Error) => err instanceof BundleError && new RegExp(`has sha256 ${registry.sha256}, not the (ab){32} the registry lists`).test(err.message));
    assert.equal(fs.existsSync(root), false);
    const none = await option('com.example/bundle-no-sha');
    assert.equal(none.bundle, undefined);
    assert.match(none.problem ?? '', /a bundle without a fileSha256: what would be downloaded could not be checked/);
    const credentials = await option('com.example/bundle-credentials');
    assert.equal(credentials.bundle, undefined);
    assert.match(credentials.problem ?? '', /its bundle URL carries a user name or password/);
  });

  it('stops an endless body at the bundle size cap, refuses a redirect to plain http, gives up on silence, and passes a cancel through', async () => {
    const root = freshRoot();
    const endless = await option('com.example/bundle-endless');
    await assert.rejects(downloadBundle(endless.bundle!, { root }), (err: Error) => err instanceof RegistryError && /is over 100 MiB: not downloaded/.test(err.message));
    const redirect = await option('com.example/bundle-redirect');
    await assert.rejects(downloadBundle(redirect.bundle!, { root }), (err: Error) => err instanceof RegistryError && /sent the request on to http:\/\/bundles\.evil\.example, which is not https/.test(err.message));
    const slow: RegistryBundle = { url: `${registry.url}/bundles/slow.mcpb`, sha256: registry.sha256, name: 'slow', origin: 'test', claims: [] };
    await assert.rejects(downloadBundle(slow, { root, timeoutMs: 500 }), (err: Error) => err instanceof RegistryError && /did not answer within 1 s/.test(err.message));
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 200);
    await assert.rejects(downloadBundle(slow, { root, signal: cancel.signal }), (err: Error) => err.name === 'AbortError');
    assert.equal(fs.existsSync(root), false);
  });
});
