import * as assert from 'node:assert/strict';
import type { OAuthHost, SecretStore } from '../../src/core/auth/ports';
import { makeHost, startOAuthFixture, signInBrowser } from './helpers';

// Issue 32: a session that outlives its token. The server answers a later request with 401
// invalid_token (the token was revoked, or the resource moved to another authorization server,
// SEP-2352): the host discovers again, registers again where the server changed, asks the user to
// sign in (through the same OAuthHost prompt as the first time), and sends the request once more.

function memorySecrets(): SecretStore {
  const map = new Map<string, string>();
  return { get: async (k) => map.get(k), store: async (k, v) => void map.set(k, v), delete: async (k) => void map.delete(k) };
}

describe('a session that outlives its token (401 mid-session)', function () {
  this.timeout(30_000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** A host signed in to the fixture started with `args`: the first sign-in is behind it. */
  async function signedIn(openBrowser: (opened: string[]) => OAuthHost['openBrowser'], ...args: string[]) {
    const f = await startOAuthFixture(...args);
    cleanups.push(() => f.stop());
    const opened: string[] = [];
    const h = makeHost({ remote: { type: 'http', url: f.url } }, 'allow-once', { oauth: { secrets: memorySecrets(), openBrowser: openBrowser(opened) } });
    cleanups.push(() => h.close());
    const connection = h.pool.get('remote')!;
    await connection.start();
    assert.equal(connection.state.kind, 'running', JSON.stringify(connection.state));
    assert.equal(opened.length, 1, opened.join('\n'));
    return { f, h, opened, connection };
  }

  it('the server moved to another authorization server: registers there, signs in with the user again, and the call goes through', async () => {
    const { f, h, opened } = await signedIn(signInBrowser, '--migrate-after', '1');
    const call = await h.pipeline.call({ server: 'remote', tool: 'whoami', args: {}, origin: 'api' });
    assert.ok(call.kind === 'ok' && call.result.text.includes('signed in as client-as2-'), JSON.stringify(call));
    assert.equal(opened.length, 2, 'the user was asked once more');
    assert.equal(new URL(opened[1]!).pathname, '/as2/authorize', 'the second sign-in is at the new authorization server');
    const stats = await f.stats();
    assert.deepEqual([stats.registrations, stats.as2Registrations, stats.as2TokenGrants], [1, 1, 1], 'registered again with the new server');
    assert.equal(stats.foreignClients, 0, 'the first server\'s client id never went to the second');
    assert.ok(h.logs.some((l) => /no longer accepts the sign-in/.test(l)), h.logs.join('\n'));
  });

  it('the token was revoked (its refresh token too): signs in again with the user and sends the request once more', async () => {
    const { f, h, opened } = await signedIn(signInBrowser, '--revoke-after', '1');
    const call = await h.pipeline.call({ server: 'remote', tool: 'whoami', args: {}, origin: 'api' });
    assert.ok(call.kind === 'ok' && call.result.text.includes('signed in as client-'), JSON.stringify(call));
    assert.equal(opened.length, 2);
    const stats = await f.stats();
    assert.deepEqual([stats.registrations, stats.tokenGrants], [1, 2], 'the registration is kept; a second sign-in');
    // Later calls use the new token: no more sign-ins.
    const again = await h.pipeline.call({ server: 'remote', tool: 'whoami', args: {}, origin: 'api' });
    assert.equal(again.kind, 'ok', JSON.stringify(again));
    assert.equal(opened.length, 2);
  });

  it('a listing refused mid-session signs in again too (tools/list after list_changed or Refresh)', async () => {
    const { connection, opened } = await signedIn(signInBrowser, '--migrate-after', '1');
    await connection.refreshTools();
    assert.equal(connection.facts.listingError, undefined);
    assert.deepEqual(connection.tools.map((t) => t.name), ['whoami']);
    assert.equal(opened.length, 2);
  });

  it('the user declines the new sign-in: the call fails saying the sign-in ran out and was cancelled, and nothing opened silently', async () => {
    let asked = 0;
    const declineSecond = (opened: string[]): OAuthHost['openBrowser'] => {
      const open = signInBrowser(opened);
      return async (url, name, onFailed, page) => (++asked === 1 ? open(url, name, onFailed, page) : false);
    };
    const { h, opened } = await signedIn(declineSecond, '--migrate-after', '1');
    const call = await h.pipeline.call({ server: 'remote', tool: 'whoami', args: {}, origin: 'api' });
    assert.equal(call.kind, 'failed', JSON.stringify(call));
    assert.equal(asked, 2, 'the user was asked (through the host) rather than a browser opened');
    assert.equal(opened.length, 1);
    assert.match(JSON.stringify(call), /Signing in to \\"remote\\" was cancelled/);
  });

  it('a server that refuses the new token too fails the call once, saying so (no loop of sign-ins)', async () => {
    const { f, h, opened } = await signedIn(signInBrowser, '--refuse-after', '1');
    const call = await h.pipeline.call({ server: 'remote', tool: 'whoami', args: {}, origin: 'api' });
    assert.notEqual(call.kind, 'ok', JSON.stringify(call));
    assert.match(JSON.stringify(call), /"remote\\" refused the token you just signed in with/);
    assert.equal(opened.length, 2, 'one sign-in for the refused token, then no more');
    const next = await h.pipeline.call({ server: 'remote', tool: 'whoami', args: {}, origin: 'api' });
    assert.notEqual(next.kind, 'ok');
    assert.equal(opened.length, 2, 'not asked again for a server that refuses every token');
    assert.ok((await f.stats()).unauthorized >= 3);
  });
});
