import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import type { SecretStore } from '../../src/core/auth/ports';
import { credentialKey, forgetCredentials } from '../../src/core/auth/serverCredentials';
import type { ServerState } from '../../src/core/connection/serverState';
import { makeHost, startOAuthFixture, signInBrowser } from './helpers';

function memorySecrets(): SecretStore & { readonly map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, get: async (k) => map.get(k), store: async (k, v) => void map.set(k, v), delete: async (k) => void map.delete(k) };
}

const SECRET = 'pre-registered-s3cret-value';

/** A workload's JWT as its platform would issue it (unsigned here: the fixture checks its claims only). */
function workloadJwt(claims: Record<string, unknown>): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iss: 'https://platform.example', ...claims })}.c2lnbmF0dXJl`;
}

describe('the "oauth" settings of a remote server, against a real authorization server', function () {
  this.timeout(20_000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  before(() => {
    process.env.MCP_TEST_OAUTH_SECRET = SECRET;
    process.env.MCP_TEST_OAUTH_WRONG = 'wrong-secret-value';
  });
  after(() => {
    delete process.env.MCP_TEST_OAUTH_SECRET;
    delete process.env.MCP_TEST_OAUTH_WRONG;
  });

  async function fixture(...args: string[]) {
    const f = await startOAuthFixture(...args);
    cleanups.push(() => f.stop());
    return f;
  }
  function host(url: string, oauth: Record<string, unknown> | undefined, opened: string[] = [], secrets: SecretStore = memorySecrets()) {
    const h = makeHost({ remote: { type: 'http', url, ...(oauth && { oauth }) } }, 'allow-once', { oauth: { secrets, openBrowser: signInBrowser(opened) } });
    cleanups.push(() => h.close());
    const states: ServerState[] = [];
    h.pool.get('remote')!.onDidChangeState((s) => states.push(s));
    const everything = () => [...h.logs, ...h.events, ...states.map((s) => JSON.stringify(s))];
    return { ...h, opened, states, everything, connection: h.pool.get('remote')! };
  }

  it('a pre-registered confidential client signs in without registering; its secret (from ${env:}) is sent only as client authentication, never shown', async () => {
    const f = await fixture('--preregistered', `my-client:${SECRET}`);
    const h = host(f.url, { clientId: 'my-client', clientSecret: '${env:MCP_TEST_OAUTH_SECRET}' });
    await h.connection.start();
    assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
    const stats = await f.stats();
    assert.deepEqual([stats.registrations, stats.tokenGrants, stats.clientAuthFailures], [0, 1, 0]);
    assert.deepEqual(stats.clientIds, ['my-client']);
    assert.ok(!h.opened[0].includes(SECRET), 'the secret is not in the sign-in page URL');
    for (const line of h.everything()) assert.ok(!line.includes(SECRET), `the secret leaked: ${line}`);
  });

  it('a pre-registered client pinned to its authorization server (oauth.issuer) is sent nowhere else', async () => {
    const f = await fixture('--preregistered', `my-client:${SECRET}`);
    const h = host(f.url, { clientId: 'my-client', clientSecret: '${env:MCP_TEST_OAUTH_SECRET}', issuer: 'https://login.example.com' });
    await h.connection.start();
    const state = h.connection.state;
    assert.ok(state.kind === 'error' && /sends you to the authorization server http:\/\/127\.0\.0\.1:\d+, but its client id \(oauth\.clientId\) belongs to https:\/\/login\.example\.com \(oauth\.issuer\): nothing was sent\./.test(state.message), JSON.stringify(state));
    assert.deepEqual(h.opened, []);
    const stats = await f.stats();
    assert.deepEqual([stats.authorizations, stats.tokenGrants, stats.clientAuthFailures], [0, 0, 0]);
  });

  it('client_credentials: no browser, no user; a wrong secret is a clear error', async () => {
    const f = await fixture('--client-credentials', `robot:${SECRET}`);
    const h = host(f.url, { grant: 'client_credentials', clientId: 'robot', clientSecret: '${env:MCP_TEST_OAUTH_SECRET}' });
    await h.connection.start();
    assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
    assert.deepEqual(h.opened, []);
    const call = await h.pipeline.call({ server: 'remote', tool: 'whoami', args: {}, origin: 'api' });
    assert.ok(call.kind === 'ok' && call.result.text.includes('signed in as robot'), JSON.stringify(call));
    assert.equal((await f.stats()).clientCredentialGrants, 1);
    for (const line of h.everything()) assert.ok(!line.includes(SECRET), `the secret leaked: ${line}`);

    const wrong = host(f.url, { grant: 'client_credentials', clientId: 'robot', clientSecret: '${env:MCP_TEST_OAUTH_WRONG}' });
    await wrong.connection.start();
    const state = wrong.connection.state;
    assert.ok(state.kind === 'error' && /^Signing in to "remote" failed: invalid_client \(client authentication failed\)\.$/.test(state.message), JSON.stringify(state));
    for (const line of wrong.everything()) assert.ok(!line.includes('wrong-secret-value'), `the secret leaked: ${line}`);
  });

  it('jwt_bearer (workload identity, SEP-1933): the workload token from a file is the grant of a public client; it is never shown', async () => {
    const f = await fixture('--jwt-bearer', 'workload:spiffe://corp/ci');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wif-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'token.jwt');
    const jwt = workloadJwt({ aud: new URL(f.url).origin, sub: 'spiffe://corp/ci', exp: Math.floor(Date.now() / 1000) + 600 });
    fs.writeFileSync(file, `${jwt}\n`);
    const h = host(f.url, { grant: 'jwt_bearer', clientId: 'workload', assertionFile: file });
    await h.connection.start();
    assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
    assert.deepEqual(h.opened, []);
    const call = await h.pipeline.call({ server: 'remote', tool: 'whoami', args: {}, origin: 'api' });
    assert.ok(call.kind === 'ok' && call.result.text.includes('signed in as workload'), JSON.stringify(call));
    const stats = await f.stats();
    assert.deepEqual([stats.jwtBearerGrants, stats.jwtBearerRefusals, stats.registrations, stats.tokenGrants], [1, 0, 0, 0]);
    for (const line of h.everything()) assert.ok(!line.includes(jwt.split('.')[1]), `the workload token leaked: ${line}`);
  });

  it('jwt_bearer: a refused workload token (invalid_grant, unauthorized_client) is said once, with no retry and no other grant', async () => {
    const f = await fixture('--jwt-bearer', 'workload:spiffe://corp/ci');
    const expired = workloadJwt({ aud: new URL(f.url).origin, sub: 'spiffe://corp/ci', exp: Math.floor(Date.now() / 1000) - 60 });
    process.env.MCP_TEST_WORKLOAD_JWT = expired;
    cleanups.push(() => void delete process.env.MCP_TEST_WORKLOAD_JWT);
    const h = host(f.url, { grant: 'jwt_bearer', clientId: 'workload', assertion: '${env:MCP_TEST_WORKLOAD_JWT}' });
    await h.connection.start();
    const state = h.connection.state;
    assert.ok(state.kind === 'error' && /rejected the sign-in to "remote" \(invalid_grant: the authorization server refused the workload token \(oauth\.assertion\); it is not sent again\)/.test(state.message), JSON.stringify(state));
    for (const line of h.everything()) assert.ok(!line.includes(expired.split('.')[1]), `the workload token leaked: ${line}`);

    const other = host(f.url, { grant: 'jwt_bearer', clientId: 'someone-else', assertion: '${env:MCP_TEST_WORKLOAD_JWT}' });
    await other.connection.start();
    const refused = other.connection.state;
    assert.ok(refused.kind === 'error' && /^Signing in to "remote" failed: unauthorized_client \(the authorization server refused the workload token \(oauth\.assertion\); it is not sent again\)\.$/.test(refused.message), JSON.stringify(refused));
    const stats = await f.stats();
    assert.deepEqual([stats.jwtBearerRefusals, stats.jwtBearerGrants, stats.registrations, stats.authorizations, stats.tokenGrants], [2, 0, 0, 0, 0], 'one token request each: no retry, no other grant');
    assert.deepEqual([...h.opened, ...other.opened], []);
  });

  it('DPoP (RFC 9449): where the authorization server offers it, the tokens are bound to a key kept with them, never sent as Bearer; the key is never shown and Sign Out drops it', async () => {
    const f = await fixture('--dpop');
    const secrets = memorySecrets();
    const h = host(f.url, undefined, [], secrets);
    await h.connection.start();
    assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
    const call = await h.pipeline.call({ server: 'remote', tool: 'whoami', args: {}, origin: 'api' });
    assert.ok(call.kind === 'ok' && call.result.text.includes('signed in as'), JSON.stringify(call));
    const record = JSON.parse(secrets.map.get(credentialKey('remote')) ?? '{}') as { tokens?: { token_type?: string }; dpopKey?: { kty?: string; crv?: string; x?: string; y?: string; d?: string } };
    assert.equal(record.tokens?.token_type, 'DPoP');
    const key = record.dpopKey;
    assert.ok(key?.kty === 'EC' && key.crv === 'P-256' && typeof key.d === 'string', 'the private key is kept, as a JWK, in the same secret as the tokens');
    const thumbprint = createHash('sha256').update(JSON.stringify({ crv: key.crv, kty: key.kty, x: key.x, y: key.y })).digest('base64url');
    let stats = await f.stats();
    assert.deepEqual([stats.dpopTokens, stats.dpopRefusals, stats.boundTokenAsBearer], [1, 0, 0]);
    assert.deepEqual(stats.thumbprints, [thumbprint], 'the token is bound to the kept key');
    assert.ok(stats.dpopRequests >= 2, `every request carries a proof (${stats.dpopRequests})`);
    for (const line of h.everything()) assert.ok(!line.includes(key.d!), `the DPoP key leaked: ${line}`);

    // A restart (a new window) uses the kept token with the kept key: no sign-in, still never Bearer.
    const again = host(f.url, undefined, [], secrets);
    await again.connection.start();
    assert.equal(again.connection.state.kind, 'running', JSON.stringify(again.connection.state));
    stats = await f.stats();
    assert.deepEqual([stats.authorizations, stats.dpopTokens, stats.boundTokenAsBearer], [1, 1, 0]);
    for (const line of again.everything()) assert.ok(!line.includes(key.d!), `the DPoP key leaked: ${line}`);

    await forgetCredentials(secrets, 'remote');
    assert.equal(secrets.map.size, 0, 'Sign Out drops the key with the tokens');
  });

  it('DPoP: a kept key that cannot be used fails the start with a sentence that never quotes it; an authorization server without DPoP gets Bearer tokens and no key is made', async () => {
    const f = await fixture('--dpop');
    const secrets = memorySecrets();
    const first = host(f.url, undefined, [], secrets);
    await first.connection.start();
    const record = JSON.parse(secrets.map.get(credentialKey('remote'))!) as { dpopKey: Record<string, string> };
    const broken = { ...record, dpopKey: { ...record.dpopKey, d: 'AAAA-not-a-key-SECRET' } };
    secrets.map.set(credentialKey('remote'), JSON.stringify(broken));
    const h = host(f.url, undefined, [], secrets);
    await h.connection.start();
    const state = h.connection.state;
    assert.ok(state.kind === 'error' && /The DPoP key kept with this server's sign-in cannot be used: sign out of the server and sign in again\./.test(state.message), JSON.stringify(state));
    for (const line of h.everything()) assert.ok(!line.includes('not-a-key-SECRET') && !line.includes(record.dpopKey.d), `the DPoP key leaked: ${line}`);
    assert.equal((await f.stats()).boundTokenAsBearer, 0, 'without its key the token is not sent as Bearer either');

    const plain = await fixture();
    const bearerSecrets = memorySecrets();
    const b = host(plain.url, undefined, [], bearerSecrets);
    await b.connection.start();
    assert.equal(b.connection.state.kind, 'running', JSON.stringify(b.connection.state));
    const kept = JSON.parse(bearerSecrets.map.get(credentialKey('remote'))!) as { tokens?: { token_type?: string }; dpopKey?: unknown };
    assert.equal(kept.tokens?.token_type, 'Bearer');
    assert.equal(kept.dpopKey, undefined);
  });

  it('a client metadata URL (CIMD) is the client id where the server supports it: nothing is registered', async () => {
    const f = await fixture('--cimd');
    const h = host(f.url, { clientMetadataUrl: 'https://app.example/mcp-tool-host/client.json' });
    await h.connection.start();
    assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
    const stats = await f.stats();
    assert.deepEqual([stats.registrations, stats.tokenGrants], [0, 1]);
    assert.deepEqual(stats.clientIds, ['https://app.example/mcp-tool-host/client.json']);
    // A server that does not support it gets a dynamically registered client instead.
    const plain = await fixture();
    const other = host(plain.url, { clientMetadataUrl: 'https://app.example/mcp-tool-host/client.json' });
    await other.connection.start();
    assert.equal(other.connection.state.kind, 'running', JSON.stringify(other.connection.state));
    assert.equal((await plain.stats()).registrations, 1);
  });

  it('a server without any OAuth metadata (2025-03-26): /register, /authorize and /token at its origin', async () => {
    const f = await fixture('--no-metadata');
    const h = host(f.url, undefined);
    await h.connection.start();
    assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
    assert.equal(new URL(h.opened[0]).origin, new URL(f.url).origin);
    assert.equal(new URL(h.opened[0]).pathname, '/authorize');
    const stats = await f.stats();
    assert.deepEqual([stats.registrations, stats.authorizations, stats.tokenGrants], [1, 1, 1]);
  });
});

describe('asking for more scope during a session (403 insufficient_scope, step-up)', function () {
  this.timeout(20_000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function signedIn(...args: string[]) {
    const f = await startOAuthFixture(...args);
    cleanups.push(() => f.stop());
    const opened: string[] = [];
    const h = makeHost({ remote: { type: 'http', url: f.url } }, 'allow-once', { oauth: { secrets: memorySecrets(), openBrowser: signInBrowser(opened) } });
    cleanups.push(() => h.close());
    await h.pool.get('remote')!.start();
    return { f, h, opened };
  }

  it('signs in again with the wider scope the server names, then sends the call once more', async () => {
    const { f, h, opened } = await signedIn('--step-up');
    const call = await h.pipeline.call({ server: 'remote', tool: 'whoami', args: {}, origin: 'api' });
    assert.ok(call.kind === 'ok' && call.result.text.includes('signed in as'), JSON.stringify(call));
    assert.equal(opened.length, 2, 'the first sign-in, then the step-up');
    const stats = await f.stats();
    assert.deepEqual(stats.scopes.map((s) => s?.split(' ').sort().join(' ')), ['mcp', 'admin mcp']);
    assert.equal(stats.insufficientScope, 1);
  });

  it('a server that still refuses with the scope it asked for is not asked again and again', async () => {
    const { f, h, opened } = await signedIn('--step-up-never');
    const call = await h.pipeline.call({ server: 'remote', tool: 'whoami', args: {}, origin: 'api' });
    assert.ok(call.kind !== 'ok', JSON.stringify(call));
    assert.ok(opened.length <= 3, `${opened.length} sign-ins`);
    const stats = await f.stats();
    assert.equal(stats.authorizations, opened.length);
    // Bounded either way: our limit on sign-ins, or the SDK's on step-up retries of one request.
    assert.match(JSON.stringify(call), /still refuses the connection after you signed in|403 insufficient_scope after step-up re-authorization/);
  });
});
