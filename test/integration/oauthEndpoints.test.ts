import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SecretStore } from '../../src/core/auth/ports';
import { credentialKey } from '../../src/core/auth/serverCredentials';
import { makeHost, startOAuthFixture, signInBrowser } from './helpers';

// Attacker's tests of the endpoints an authorization server's metadata names: metadata that claims
// another issuer than the one asked (mix-up), a token endpoint that redirects the token request to
// another origin, and the allowed case, a token endpoint on another origin than the issuer's.

function memorySecrets(): SecretStore & { readonly map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, get: async (k) => map.get(k), store: async (k, v) => void map.set(k, v), delete: async (k) => void map.delete(k) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Heard {
  readonly method: string;
  readonly path: string;
  readonly body: string;
  readonly authorization: string | undefined;
}

/**
 * A listener on another origin (another port) that keeps every request it gets. With `forwardTo`
 * it passes token requests on to that origin's /token and answers with its answer (a real token
 * endpoint on another origin than the issuer's); else it answers 400.
 */
async function otherOrigin(forwardTo?: () => string): Promise<{ origin: string; heard: Heard[]; close(): Promise<void> }> {
  const heard: Heard[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      heard.push({ method: req.method ?? '', path: req.url ?? '', body, authorization: req.headers.authorization });
      if (!forwardTo) {
        res.writeHead(400, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: 'invalid_request' }));
      }
      void fetch(`${forwardTo()}/token`, { method: 'POST', headers: { 'content-type': String(req.headers['content-type']) }, body }).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(await answer.text());
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, heard, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('attacker: the endpoints an authorization server names (mix-up, a redirected token request, a token endpoint elsewhere)', function () {
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
  async function listener(forwardTo?: () => string) {
    const l = await otherOrigin(forwardTo);
    cleanups.push(() => l.close());
    return l;
  }
  function host(url: string, secrets = memorySecrets(), opened: string[] = []) {
    const h = makeHost({ remote: { type: 'http', url } }, 'allow-once', { oauth: { secrets, openBrowser: signInBrowser(opened) } });
    cleanups.push(() => h.close());
    return { ...h, opened, secrets, connection: h.pool.get('remote')! };
  }
  /** Whether anything secret of a sign-in reached the listener: a code, a code verifier, a refresh token or a client's credentials. */
  const secretsHeard = (heard: readonly Heard[]) => heard.filter((h) => /(^|&)(code|code_verifier|refresh_token|client_secret|assertion)=/.test(h.body) || h.authorization !== undefined);

  it('mix-up (RFC 8414 §3.3): metadata whose issuer is not the authorization server it was fetched for is refused; the user is not sent to sign in and its token endpoint hears nothing', async () => {
    const attacker = await listener();
    const f = await fixture('--issuer', attacker.origin, '--token-at', `${attacker.origin}/token`, '--authorize-at', `${attacker.origin}/authorize`);
    const h = host(f.url);
    await h.connection.start();
    const state = h.connection.state;
    assert.ok(state.kind === 'error', JSON.stringify(state));
    assert.match(state.message, /the metadata of the authorization server http:\/\/127\.0\.0\.1:\d+ names another authorization server as its issuer than the one it was fetched from .*nothing was sent to it/, state.message);
    assert.ok(!state.message.includes(attacker.origin), 'the issuer the metadata claims (chosen by the attacker) is not shown');
    assert.deepEqual(h.opened, [], 'no sign-in page was opened');
    assert.deepEqual(attacker.heard, [], 'the other origin heard nothing');
    const stats = await f.stats();
    assert.deepEqual([stats.registrations, stats.authorizations], [0, 0]);
  });

  it('a token endpoint that redirects the code exchange (307) to another origin: the code and code verifier never reach it, and the sign-in says why it failed', async () => {
    const attacker = await listener();
    const f = await fixture('--token-redirect', `${attacker.origin}/token`);
    const h = host(f.url);
    await h.connection.start();
    const state = h.connection.state;
    assert.ok(state.kind === 'error', JSON.stringify(state));
    assert.deepEqual(attacker.heard, [], 'the redirect was not followed');
    assert.equal((await f.stats()).tokenRedirects, 1);
    assert.match(state.message, /token endpoint .* redirected the request to another origin \(http:\/\/127\.0\.0\.1:\d+\): not followed, nothing was sent there/, state.message);
  });

  it('a token endpoint that redirects the refresh (307) to another origin: the refresh token never reaches it; the user signs in again, once', async () => {
    const attacker = await listener();
    // 4 s tokens, due for a refresh after 2 s (with 1 s ones a start on a loaded machine refreshed too).
    const f = await fixture('--ttl', '4', '--refresh-redirect', `${attacker.origin}/token`);
    const secrets = memorySecrets();
    const first = host(f.url, secrets);
    await first.connection.start();
    assert.equal(first.connection.state.kind, 'running', JSON.stringify(first.connection.state));
    await first.close();
    await sleep(2_100);
    const second = host(f.url, secrets, first.opened);
    await second.connection.start();
    assert.equal(second.connection.state.kind, 'running', JSON.stringify(second.connection.state));
    assert.deepEqual(secretsHeard(attacker.heard), [], 'the refresh token stayed home');
    assert.deepEqual(attacker.heard, []);
    assert.equal((await f.stats()).tokenRedirects, 1);
    assert.equal(first.opened.length, 2, 'signed in again once');
  });

  it('a token endpoint on another origin than the issuer (as Google has) is used, and the tokens are kept for the issuer, not for the token endpoint', async () => {
    let fixtureOrigin = '';
    const tokens = await listener(() => fixtureOrigin);
    const f = await fixture('--token-at', `${tokens.origin}/token`);
    fixtureOrigin = new URL(f.url).origin;
    const h = host(f.url);
    await h.connection.start();
    assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
    assert.deepEqual(tokens.heard.map((r) => `${r.method} ${r.path}`), ['POST /token']);
    assert.equal((await f.stats()).tokenGrants, 1);
    const record = JSON.parse(h.secrets.map.get(credentialKey('remote'))!) as { tokens: { issuer?: string }; client: { issuer?: string } };
    assert.deepEqual([record.tokens.issuer, record.client.issuer], [fixtureOrigin, fixtureOrigin]);
  });
});
