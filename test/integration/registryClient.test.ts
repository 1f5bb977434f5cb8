import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ROOT } from './helpers';
import { newRegistryClient, RegistryError } from '../../src/core/install/registryClient';
import type { RegistryEntry } from '../../src/core/install/registryTypes';

interface Fixture {
  readonly url: string;
  readonly requests: string[];
  close(): Promise<void>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startRegistry } = require(path.join(ROOT, 'test/fixtures/registry/registryServer.cjs')) as { startRegistry(): Promise<Fixture> };

/** The registry client against a real HTTP registry on loopback (test/fixtures/registry). */
describe('registry client (a fixture registry over HTTP)', function () {
  this.timeout(60_000);
  let registry: Fixture;
  before(async () => (registry = await startRegistry()));
  after(() => registry.close());

  it('asks the v0.1 path with search, limit and version=latest, and reads the entries', async () => {
    const client = newRegistryClient({ baseUrl: `${registry.url}/` });
    assert.equal(client.baseUrl, registry.url, 'a trailing slash is not doubled');
    const page = await client.search('everything', { limit: 5 });
    assert.equal(registry.requests.at(-1), '/v0.1/servers?search=everything&limit=5&version=latest');
    assert.deepEqual(page.entries.map((e) => e.name), ['io.github.modelcontextprotocol/everything']);
    assert.ok(page.entries[0].options[0].plan);
    assert.equal(page.nextCursor, undefined);
  });

  it('pages with the cursor until the last page, every entry once, the hostile ones shown as problems', async () => {
    const client = newRegistryClient({ baseUrl: registry.url });
    const seen: RegistryEntry[] = [];
    const dropped: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.search('', { cursor, limit: 6 });
      assert.ok(page.entries.length + page.dropped.length <= 6);
      seen.push(...page.entries);
      dropped.push(...page.dropped.map((d) => d.reason));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 5);
    assert.equal(new Set(seen.map((e) => e.name)).size, seen.length);
    assert.equal(seen.length + dropped.length, 29);
    const installable = seen.filter((e) => e.options.some((o) => o.plan)).map((e) => e.name);
    assert.deepEqual(installable, ['io.github.modelcontextprotocol/everything', 'io.github.modelcontextprotocol/filesystem', 'io.github.modelcontextprotocol/fetch', 'io.github.github/github-mcp-server', 'com.example/weather']);
    assert.equal(dropped.length, 2);
    // Bundles are installed by download, once their file is checked (registryBundle.test.ts).
    const bundles = seen.filter((e) => e.options.some((o) => o.bundle)).map((e) => e.name);
    assert.deepEqual(bundles, ['com.example/greeter-bundle', 'com.example/bundle-wrong-sha', 'com.example/bundle-endless', 'com.example/bundle-redirect']);
  });

  it('gives up on a registry that does not answer in time, with a sentence that says so', async () => {
    const client = newRegistryClient({ baseUrl: registry.url, timeoutMs: 500 });
    const started = Date.now();
    await assert.rejects(client.search('__slow__'), (err: Error) => err instanceof RegistryError && /did not answer within 1 s/.test(err.message));
    assert.ok(Date.now() - started < 5000);
  });

  it('stops reading an answer over the size cap while it streams', async () => {
    const client = newRegistryClient({ baseUrl: registry.url, maxBytes: 4 * 1024 * 1024 });
    await assert.rejects(client.search('__huge__'), /The registry's answer is over 4 MiB: not read\./);
  });

  it('says what is wrong with an answer that is not JSON, an HTTP error, an endless cursor, a redirect to http', async () => {
    const client = newRegistryClient({ baseUrl: registry.url });
    await assert.rejects(client.search('__not_json__'), /did not answer with JSON/);
    await assert.rejects(client.search('__error__'), /answered HTTP 500/);
    const endless = await client.search('__endless__', { cursor: 'again' });
    assert.equal(endless.nextCursor, undefined, 'the cursor just sent does not come back as the next one');
    await assert.rejects(client.search('__redirect_http__'), /sent the request on to http:\/\/registry\.evil\.example, which is not https: not asked/);
    await assert.rejects(newRegistryClient({ baseUrl: 'http://127.0.0.1:1' }).search(''), /could not be reached/);
  });

  it('passes the caller\'s abort through as an abort', async () => {
    const client = newRegistryClient({ baseUrl: registry.url });
    const controller = new AbortController();
    const search = client.search('__slow__', { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(search, (err: Error) => err.name === 'AbortError');
  });

  it('refuses a registry URL that is not https (http only to this machine) or carries credentials', () => {
    assert.throws(() => newRegistryClient({ baseUrl: 'http://registry.example' }), /must be https/);
    assert.throws(() => newRegistryClient({ baseUrl: 'https://me:pw@registry.example' }), /user name or password/);
    assert.throws(() => newRegistryClient({ baseUrl: 'not a url' }), /is not a URL/);
  });
});
