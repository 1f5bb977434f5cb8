import * as assert from 'node:assert/strict';
import { IssuerMismatchError, OAuthError } from '@modelcontextprotocol/client';
import { LoopbackRedirectReceiver } from '../../src/core/auth/loopbackReceiver';
import { HostOAuthProvider } from '../../src/core/auth/oauthProvider';
import { explainSignInFailure } from '../../src/core/auth/oauthSignIn';
import type { SecretStore } from '../../src/core/auth/ports';
import { credentialKey, forgetCredentials, ServerCredentials } from '../../src/core/auth/serverCredentials';
import { OAuthUnsupportedError } from '../../src/core/auth/signInErrors';
import { explainHttpFailure, fetchWithHeaders } from '../../src/core/transport/httpTransports';

function memory(initial: Record<string, string> = {}): SecretStore & { map: Map<string, string> } {
  const map = new Map(Object.entries(initial));
  return { map, get: async (k) => map.get(k), store: async (k, v) => void map.set(k, v), delete: async (k) => void map.delete(k) };
}
const URL_A = 'https://a.example/mcp';
const tokens = { access_token: 'at-secret', token_type: 'Bearer', refresh_token: 'rt-secret' };

describe('OAuth: stored credentials and the provider', () => {
  it('credentials saved for another URL, or unreadable, read as empty', async () => {
    const key = credentialKey('s');
    const other = memory({ [key]: JSON.stringify({ url: 'https://b.example/mcp', tokens }) });
    assert.equal((await ServerCredentials.load(other, 's', URL_A)).record.tokens, undefined);
    const broken = memory({ [key]: '{not json' });
    assert.deepEqual((await ServerCredentials.load(broken, 's', URL_A)).record, { url: URL_A });
  });

  it('keeps tokens and registration through the store; sign-out forgets them', async () => {
    const secrets = memory();
    const provider = new HostOAuthProvider(await ServerCredentials.load(secrets, 's', URL_A), { url: 'http://127.0.0.1:4242/callback', port: 4242 }, () => undefined);
    await provider.saveClientInformation({ client_id: 'c1' });
    await provider.saveCodeVerifier('verifier');
    await provider.saveTokens(tokens);
    const reloaded = new HostOAuthProvider(await ServerCredentials.load(secrets, 's', URL_A), { url: 'http://127.0.0.1:4242/callback', port: 4242 }, () => undefined);
    assert.deepEqual(await reloaded.tokens(), tokens); // the SDK awaits it: a token about to expire is refreshed first
    assert.equal(reloaded.clientInformation()?.client_id, 'c1');
    assert.throws(() => reloaded.codeVerifier(), /No sign-in is in progress/, 'the verifier is dropped once tokens arrive');
    assert.equal((await ServerCredentials.load(secrets, 's', URL_A)).record.redirectPort, 4242, 'the registered port is reused');
    const elsewhere = new HostOAuthProvider(await ServerCredentials.load(secrets, 's', URL_A), { url: 'http://127.0.0.1:5000/callback', port: 5000 }, () => undefined);
    assert.equal(elsewhere.clientInformation(), undefined, 'another redirect URL registers again');
    await forgetCredentials(secrets, 's');
    assert.equal(secrets.map.size, 0);
  });

  it('a server without OAuth metadata: the 2025-03-26 default endpoints, and the plain "needs credentials" error when they fail too', async () => {
    const provider = new HostOAuthProvider(await ServerCredentials.load(memory(), 's', URL_A), { url: 'http://127.0.0.1:1/callback', port: 1 }, () => undefined);
    // No metadata: the 2025-03-26 default endpoints are tried (the sign-in turns their failure into this error).
    provider.saveDiscoveryState({ authorizationServerUrl: 'https://a.example/' });
    assert.equal(provider.usesFallbackEndpoints, true);
    assert.match(explainHttpFailure(new OAuthUnsupportedError(), URL_A), /answered 401 Unauthorized: it needs credentials\. Check the "headers"/);
    provider.saveDiscoveryState({ authorizationServerUrl: 'https://a.example/', resourceMetadata: { resource: URL_A, authorization_servers: ['https://a.example/'] } });
    assert.equal(provider.usesFallbackEndpoints, false);
  });

  it('hands discovery back to the SDK only across one sign-in\'s round trip: every other 401 discovers again (the server may have moved, SEP-2352)', async () => {
    const provider = new HostOAuthProvider(await ServerCredentials.load(memory(), 's', URL_A), { url: 'http://127.0.0.1:1/callback', port: 1 }, () => undefined);
    provider.saveDiscoveryState({ authorizationServerUrl: 'https://a.example/', resourceMetadata: { resource: URL_A, authorization_servers: ['https://a.example/'] } });
    assert.equal(provider.discoveryState(), undefined, 'a 401 outside a sign-in discovers again');
    provider.redirectToAuthorization(new URL('https://a.example/authorize?state=x'));
    assert.equal(provider.discoveryState()?.authorizationServerUrl, 'https://a.example/', 'the callback leg checks the server it sent the user to');
    await provider.saveTokens({ access_token: 't', token_type: 'Bearer' });
    assert.equal(provider.discoveryState(), undefined, 'signed in: the next 401 discovers again');
    provider.redirectToAuthorization(new URL('https://a.example/authorize?state=y'));
    provider.endSignIn();
    assert.equal(provider.discoveryState(), undefined, 'a sign-in that ended without a code');
  });

  it('explains failed sign-ins in one sentence, without trusting server text blindly', () => {
    assert.equal(explainSignInFailure(new OAuthError('access_denied', 'no\u001b[31m way'), 'x'), 'Signing in to "x" was denied (no way). Restart the server to try again.');
    assert.match(explainSignInFailure(new OAuthError('invalid_grant', 'PKCE verification failed'), 'x'), /rejected the sign-in to "x" \(invalid_grant: PKCE verification failed\)/);
    assert.match(explainSignInFailure(new IssuerMismatchError('authorization_response', 'https://a', 'https://evil'), 'x'), /another authorization server than the one asked/);
  });
});

describe('OAuth: the loopback redirect receiver', () => {
  it('answers only the callback with our state, on 127.0.0.1', async () => {
    const receiver = new LoopbackRedirectReceiver('s');
    const port = await LoopbackRedirectReceiver.freePort();
    await receiver.listen(port);
    try {
      const callback = receiver.waitForCallback('expected');
      assert.equal((await fetch(`http://127.0.0.1:${port}/callback?code=c&state=forged`)).status, 400);
      const ok = await fetch(`http://127.0.0.1:${port}/callback?code=c&state=expected`);
      assert.equal(ok.status, 200);
      assert.match(await ok.text(), /You are signed in to &#34;s&#34;/);
      assert.equal((await callback).get('code'), 'c');
      assert.equal((await fetch(`http://127.0.0.1:${port}/callback?code=c&state=expected`)).status, 400, 'one callback only');
    } finally {
      receiver.dispose();
    }
  });
});

describe('remote server headers', () => {
  it('go to the server origin only, never to another one (an authorization server)', async () => {
    const seen: [string, string | null][] = [];
    const original = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      seen.push([String(input), new Headers(init?.headers).get('x-api-key')]);
      return new Response('');
    };
    try {
      const f = fetchWithHeaders(URL_A, { 'X-Api-Key': 'k' });
      await f('https://a.example/mcp', {});
      await f(new URL('https://auth.example/token'), {});
    } finally {
      globalThis.fetch = original;
    }
    assert.deepEqual(seen, [['https://a.example/mcp', 'k'], ['https://auth.example/token', null]]);
  });
});
