import * as assert from 'node:assert/strict';
import type { SecretStore } from '../../src/core/auth/ports';
import { credentialKey } from '../../src/core/auth/serverCredentials';
import type { ServerState } from '../../src/core/connection/serverState';
import { makeHost, startOAuthFixture, signInBrowser } from './helpers';

// The client's duties of the 2026-07-28 authorization rules and of a sign-in that lasts, each
// against the OAuth fixture made to misbehave: refresh before expiry, a refresh that keeps
// failing, the `iss` of the authorization response (RFC 9207), application_type, and credentials
// that belong to one authorization server only (SEP-2352).

function memorySecrets(): SecretStore & { readonly map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, get: async (k) => map.get(k), store: async (k, v) => void map.set(k, v), delete: async (k) => void map.delete(k) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// A token of TTL_S seconds is refreshed once half its life has gone (at most a minute before it ends): a sign-in
// and a start must fit in that half on a loaded machine, or the start itself refreshes and the count is off.
const TTL_S = 4;
const DUE_MS = (TTL_S * 1000) / 2 + 100;

describe('signing in for good: refresh, iss, application_type, credentials per authorization server', function () {
  this.timeout(30_000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function fixture(...args: string[]) {
    const f = await startOAuthFixture(...args);
    cleanups.push(() => f.stop());
    return f;
  }
  function host(url: string, secrets: SecretStore = memorySecrets(), opened: string[] = [], oauth?: Record<string, unknown>) {
    const h = makeHost({ remote: { type: 'http', url, ...(oauth && { oauth }) } }, 'allow-once', { oauth: { secrets, openBrowser: signInBrowser(opened) } });
    cleanups.push(() => h.close());
    const states: ServerState[] = [];
    h.pool.get('remote')!.onDidChangeState((s) => states.push(s));
    return { ...h, opened, secrets, states, connection: h.pool.get('remote')! };
  }
  const call = (h: ReturnType<typeof host>) => h.pipeline.call({ server: 'remote', tool: 'whoami', args: {}, origin: 'api' });

  it('a token near its expiry is refreshed before the request is sent: the server never sees it expire (no 401)', async () => {
    const f = await fixture('--ttl', '4');
    const h = host(f.url);
    await h.connection.start();
    assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
    await sleep(2_500); // 1.5 s left of 4: inside the margin
    const unauthorized = (await f.stats()).unauthorized;
    const answer = await call(h);
    assert.equal(answer.kind, 'ok', JSON.stringify(answer));
    const stats = await f.stats();
    assert.equal(stats.refreshGrants, 1, 'refreshed once');
    assert.equal(stats.unauthorized, unauthorized, 'the request went with the fresh token: no 401 first');
    assert.equal(h.opened.length, 1, 'no second sign-in');
  });

  for (const status of ['500', '400']) {
    it(`a refresh that fails (token endpoint answers ${status}) is tried once, said once, and the user is asked to sign in; no loop`, async () => {
      const f = await fixture('--ttl', String(TTL_S), '--refresh-fails', status);
      const secrets = memorySecrets();
      const first = host(f.url, secrets);
      await first.connection.start();
      assert.equal(first.connection.state.kind, 'running', JSON.stringify(first.connection.state));
      await first.close();
      await sleep(DUE_MS);
      const second = host(f.url, secrets, first.opened);
      await second.connection.start();
      assert.equal(second.connection.state.kind, 'running', JSON.stringify(second.connection.state));
      const stats = await f.stats();
      assert.equal(stats.refreshAttempts, 1, 'the token endpoint was asked once');
      assert.equal(first.opened.length, 2, 'the user signed in again, once');
      const said = second.logs.filter((l) => l.includes('Could not refresh the sign-in to "remote"'));
      assert.equal(said.length, 1, second.logs.join('\n'));
      assert.match(said[0]!, /asking you to sign in again/);
    });
  }

  it('a session whose refresh keeps failing: each expiry costs one refresh attempt and one sign-in, never a loop', async () => {
    const f = await fixture('--ttl', String(TTL_S), '--refresh-fails', '500');
    const h = host(f.url);
    await h.connection.start();
    assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
    await sleep(DUE_MS);
    const answer = await call(h);
    assert.equal(answer.kind, 'ok', JSON.stringify(answer));
    const stats = await f.stats();
    assert.equal(stats.refreshAttempts, 1);
    assert.equal(h.opened.length, 2);
    assert.equal(h.logs.filter((l) => l.includes('Could not refresh the sign-in')).length, 1, h.logs.join('\n'));
  });

  for (const advertised of [true, false]) {
    it(`RFC 9207: an authorization response whose iss names another authorization server is refused, and the code is never redeemed (iss ${advertised ? '' : 'not '}advertised in the metadata)`, async () => {
      const f = await fixture('--iss', 'https://attacker.example', ...(advertised ? [] : ['--iss-unadvertised']));
      const h = host(f.url);
      await h.connection.start();
      const state = h.connection.state;
      assert.ok(state.kind === 'error' && /the answer came from another authorization server than the one asked, so it was ignored/.test(state.message), JSON.stringify(state));
      assert.ok(!JSON.stringify(state).includes('attacker.example'), 'the foreign issuer (attacker-chosen) is not shown');
      const stats = await f.stats();
      assert.deepEqual([stats.authorizations, stats.tokenGrants], [1, 0], 'the code was not sent to the token endpoint');
    });
  }

  it('RFC 9207: the right iss is accepted; an advertised iss that is missing is refused', async () => {
    const good = await fixture('--iss', 'self');
    const ok = host(good.url);
    await ok.connection.start();
    assert.equal(ok.connection.state.kind, 'running', JSON.stringify(ok.connection.state));
    const missing = await fixture('--iss', 'none');
    const refused = host(missing.url);
    await refused.connection.start();
    assert.equal(refused.connection.state.kind, 'error', JSON.stringify(refused.connection.state));
    assert.equal((await missing.stats()).tokenGrants, 0);
  });

  it('registers dynamically as a native application (application_type "native": the loopback redirect)', async () => {
    const f = await fixture();
    const h = host(f.url);
    await h.connection.start();
    assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
    assert.deepEqual((await f.stats()).applicationTypes, ['native']);
  });

  it('a server that moved to another authorization server: the old refresh token and client id go nowhere near the new one', async () => {
    const f = await fixture('--migrate-after', '1');
    const secrets = memorySecrets();
    const first = host(f.url, secrets);
    await first.connection.start();
    assert.equal(first.connection.state.kind, 'running', JSON.stringify(first.connection.state));
    await first.close();
    const second = host(f.url, secrets, first.opened);
    await second.connection.start(); // its tools/list is refused: the resource now names /as2
    assert.equal(second.connection.state.kind, 'running', JSON.stringify(second.connection.state));
    const stats = await f.stats();
    assert.deepEqual([stats.foreignRefreshTokens, stats.foreignClients], [0, 0], 'nothing of the first authorization server was shown to the second');
    assert.deepEqual([stats.as2Registrations, stats.as2TokenGrants], [1, 1]);
  });

  it('credentials saved without the authorization server they belong to (an older version) are never sent to a server the resource moved to', async () => {
    const f = await fixture('--migrate-after', '1');
    const secrets = memorySecrets();
    const first = host(f.url, secrets);
    await first.connection.start();
    assert.equal(first.connection.state.kind, 'running', JSON.stringify(first.connection.state));
    await first.close();
    // What a version before the issuer stamps kept: the same record, with no "issuer" on the client or the tokens.
    const key = credentialKey('remote');
    const record = JSON.parse(secrets.map.get(key)!) as { client: Record<string, unknown>; tokens: Record<string, unknown> };
    delete record.client.issuer;
    delete record.tokens.issuer;
    secrets.map.set(key, JSON.stringify(record));
    const second = host(f.url, secrets, first.opened);
    await second.connection.start();
    assert.equal(second.connection.state.kind, 'running', JSON.stringify(second.connection.state));
    const stats = await f.stats();
    assert.deepEqual([stats.foreignRefreshTokens, stats.foreignClients], [0, 0], 'an unstamped refresh token or client id was replayed to the new authorization server');
  });

  it('client credentials without oauth.issuer go to the first authorization server only: a server that then names another is refused, nothing sent (and the SDK has no cause to warn)', async () => {
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warned.push(args.map(String).join(' '));
    cleanups.push(() => void (console.warn = warn));
    process.env.MCP_TEST_CC_SECRET = 'cc-s3cret';
    cleanups.push(() => void delete process.env.MCP_TEST_CC_SECRET);
    const f = await fixture('--client-credentials', 'machine:cc-s3cret', '--migrate-after', '1');
    const h = host(f.url, memorySecrets(), [], { grant: 'client_credentials', clientId: 'machine', clientSecret: '${env:MCP_TEST_CC_SECRET}' });
    await h.connection.start();
    assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
    const answer = await call(h); // the resource now names /as2
    assert.notEqual(answer.kind, 'ok', JSON.stringify(answer));
    assert.match(JSON.stringify(answer), /sends its client credentials to the authorization server http:\/\/127\.0\.0\.1:\d+\/as2, but they belong to http:\/\/127\.0\.0\.1:\d+ \(where they were first used\): nothing was sent/);
    assert.equal((await f.stats()).clientCredentialGrants, 1, 'the secret went to the first authorization server only');
    assert.deepEqual(warned.filter((w) => w.includes('expectedIssuer')), []);
  });
});
