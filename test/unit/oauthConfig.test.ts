import * as assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { requiredInputs, resolveLaunch } from '../../src/core/config/launch';
import { launchFingerprint, parseServers } from '../../src/core/config/serverConfig';

const URL_A = 'https://mcp.example/mcp';
/** The one error of a single http entry with `oauth`, or '' when it parses. */
const problem = (oauth: unknown, extra: Record<string, unknown> = {}) => parseServers({ s: { type: 'http', url: URL_A, oauth, ...extra } }, 'user').errors.map((e) => e.message).join('\n');
const ctx = (env: Record<string, string> = {}, folder = os.tmpdir()) => ({ workspaceFolders: [{ name: 'w', path: folder }], env });

describe('the "oauth" settings of an http server', () => {
  it('accepts each way of getting credentials', () => {
    for (const ok of [
      { clientId: 'pre-registered' },
      { clientId: 'c', clientSecret: '${env:SECRET}', issuer: 'https://as.example' },
      { clientId: 'c', clientSecret: '${input:secret}', scope: 'read write' },
      { clientMetadataUrl: 'https://app.example/oauth/client.json' },
      { grant: 'client_credentials', clientId: 'c', clientSecret: '${env:S}' },
      { grant: 'client_credentials', clientId: 'c', privateKeyFile: '~/keys/c.pem', signingAlgorithm: 'ES256' },
      { grant: 'client_credentials', clientId: 'c', privateKey: '${env:KEY}', signingAlgorithm: 'RS256' },
      { grant: 'cross_app_access', clientId: 'c', clientSecret: '${env:S}', idp: { tokenEndpoint: 'https://idp.example/token', clientId: 'i', idToken: '${env:ID_TOKEN}' } },
      { grant: 'cross_app_access', clientId: 'c', clientSecret: '${env:S}', idp: { tokenEndpoint: 'https://idp.example/token', clientId: 'i', clientSecret: '${env:IS}', idTokenFile: 'token.jwt' } },
      { grant: 'jwt_bearer', clientId: 'workload', assertionFile: '/var/run/secrets/tokens/mcp.jwt', scope: 'mcp' },
      { grant: 'jwt_bearer', clientId: 'workload', assertion: '${env:WORKLOAD_JWT}', issuer: 'https://as.example' },
    ]) {
      assert.equal(problem(ok), '', JSON.stringify(ok));
    }
  });

  it('refuses bad input with a sentence naming the key and what to do', () => {
    const cases: [unknown, RegExp, Record<string, unknown>?][] = [
      ['x', /"oauth" must be an object/],
      [{ clientID: 'c' }, /unknown key "oauth\.clientID"/],
      [{ grant: 'password' }, /"oauth\.grant" must be "authorization_code", "client_credentials", "cross_app_access", "jwt_bearer" \(got "password"\)/],
      [{ clientId: '' }, /"oauth\.clientId" must be a non-empty string/],
      [{ clientId: 'c', clientSecret: 'hunter2' }, /"oauth\.clientSecret" is a secret: give it as a variable, \$\{env:NAME\} or \$\{input:id\}, never written in the file\./],
      [{ clientSecret: '${env:S}' }, /"oauth\.clientSecret" needs "oauth\.clientId"/],
      [{ clientMetadataUrl: 'http://app.example/client.json' }, /"oauth\.clientMetadataUrl" must be an https URL with a path/],
      [{ clientMetadataUrl: 'https://app.example/' }, /must be an https URL with a path/],
      [{ clientMetadataUrl: 'https://app.example/c.json', clientId: 'c' }, /is itself the client id: give it or "oauth\.clientId", not both/],
      [{ grant: 'client_credentials', clientId: 'c' }, /needs exactly one of "oauth\.clientSecret", "oauth\.privateKey" and "oauth\.privateKeyFile"/],
      [{ grant: 'client_credentials', clientSecret: '${env:S}' }, /"oauth\.clientSecret" needs "oauth\.clientId"/],
      [{ grant: 'client_credentials', clientId: 'c', privateKeyFile: 'k.pem' }, /"oauth\.signingAlgorithm" is required with a private key/],
      [{ grant: 'client_credentials', clientId: 'c', privateKeyFile: 'k.pem', signingAlgorithm: 'none' }, /"oauth\.signingAlgorithm" must be one of RS256/],
      [{ grant: 'client_credentials', clientId: 'c', privateKey: '-----BEGIN PRIVATE KEY-----', signingAlgorithm: 'ES256' }, /"oauth\.privateKey" is a secret/],
      [{ grant: 'client_credentials', clientId: 'c', privateKey: '${env:K}', privateKeyFile: 'k', signingAlgorithm: 'ES256' }, /not both/],
      [{ clientId: 'c', privateKeyFile: 'k.pem', signingAlgorithm: 'ES256' }, /a private key .* is for the "client_credentials" grant/],
      [{ grant: 'client_credentials', clientMetadataUrl: 'https://a.example/c.json' }, /is for signing in in a browser/],
      [{ grant: 'cross_app_access', clientId: 'c', clientSecret: '${env:S}' }, /needs "oauth\.idp"/],
      [{ grant: 'cross_app_access', clientId: 'c' }, /needs "oauth\.clientId" and "oauth\.clientSecret"/],
      [{ grant: 'cross_app_access', clientId: 'c', clientSecret: '${env:S}', idp: { tokenEndpoint: 'https://i/t', clientId: 'i' } }, /exactly one of "idToken" \(a variable\) and "idTokenFile"/],
      [{ grant: 'cross_app_access', clientId: 'c', clientSecret: '${env:S}', idp: { tokenEndpoint: 'https://i/t', clientId: 'i', idToken: 'eyJ...' } }, /"oauth\.idp\.idToken" is a secret/],
      [{ grant: 'cross_app_access', clientId: 'c', clientSecret: '${env:S}', idp: { tokenEndpoint: 'https://i/t', clientId: 'i', idToken: '${env:T}', extra: 1 } }, /unknown key "oauth\.idp\.extra"/],
      [{ idp: { tokenEndpoint: 'https://i/t', clientId: 'i', idToken: '${env:T}' } }, /"oauth\.idp" is for the "cross_app_access" grant/],
      [{ grant: 'jwt_bearer', assertionFile: 't.jwt' }, /the "jwt_bearer" grant needs "oauth\.clientId" \(the client the workload is known as/],
      [{ grant: 'jwt_bearer', clientId: 'w' }, /the "jwt_bearer" grant needs exactly one of "oauth\.assertion" \(a variable\) and "oauth\.assertionFile"/],
      [{ grant: 'jwt_bearer', clientId: 'w', assertion: '${env:T}', assertionFile: 't.jwt' }, /exactly one of "oauth\.assertion" \(a variable\) and "oauth\.assertionFile"/],
      [{ grant: 'jwt_bearer', clientId: 'w', assertion: 'eyJhbGciOiJSUzI1NiJ9.e30.sig' }, /"oauth\.assertion" is a secret: give it as a variable/],
      [{ grant: 'jwt_bearer', clientId: 'w', clientSecret: '${env:S}', assertionFile: 't.jwt' }, /is for a public client: the workload token is its only credential, so "oauth\.clientSecret" is not used/],
      [{ grant: 'jwt_bearer', clientId: 'w', assertionFile: 't.jwt', privateKeyFile: 'k.pem', signingAlgorithm: 'ES256' }, /a private key .* is for the "client_credentials" grant/],
      [{ clientId: 'c', assertionFile: 't.jwt' }, /a workload token \("oauth\.assertion", "oauth\.assertionFile"\) is for the "jwt_bearer" grant/],
      [{ grant: 'client_credentials', clientId: 'c', clientSecret: '${env:S}', assertion: '${env:T}' }, /is for the "jwt_bearer" grant/],
      [{ clientId: 'c', issuer: 'as.example' }, /"oauth\.issuer" must be the authorization server's URL/],
      [{ clientId: 'c' }, /"oauth" and an Authorization header both say how to authenticate: keep one/, { headers: { Authorization: 'Bearer x' } }],
    ];
    for (const [oauth, expected, extra] of cases) assert.match(problem(oauth, extra), expected, JSON.stringify(oauth));
    const stdio = parseServers({ s: { command: 'node', oauth: { clientId: 'c' } } }, 'user').errors[0]?.message ?? '';
    assert.match(stdio, /"oauth" is for http servers/);
  });

  it('secrets come from variables at launch, are masked, and an unset variable is a clear error, never an empty secret', () => {
    const def = parseServers({ s: { type: 'http', url: URL_A, oauth: { clientId: 'c', clientSecret: '${input:secret}' } } }, 'user').servers[0];
    assert.deepEqual(requiredInputs(def), ['secret'], 'an ${input:} secret is asked for before the launch');
    const launch = resolveLaunch(def, { ...ctx(), inputs: { secret: 's3cret-value' } });
    assert.ok(launch.type === 'http' && launch.oauth?.clientSecret === 's3cret-value');
    assert.ok(launch.secrets?.includes('s3cret-value'), 'masked wherever the launch is shown');
    const unset = parseServers({ s: { type: 'http', url: URL_A, oauth: { grant: 'client_credentials', clientId: 'c', clientSecret: '${env:NOT_SET_ANYWHERE}' } } }, 'user').servers[0];
    assert.throws(() => resolveLaunch(unset, ctx()), /Server "s": "oauth\.clientSecret" is empty once its variables are filled in \(is the environment variable set\?\)\./);
  });

  it('reads a private key or ID token file (relative to the workspace), checks the key, and never quotes it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oauth-config-'));
    try {
      const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      fs.writeFileSync(path.join(dir, 'key.pem'), pem);
      fs.writeFileSync(path.join(dir, 'bad.pem'), 'NOT-A-KEY-but-maybe-a-secret');
      const keyed = (file: string) => parseServers({ s: { type: 'http', url: URL_A, oauth: { grant: 'client_credentials', clientId: 'c', privateKeyFile: file, signingAlgorithm: 'ES256' } } }, 'user').servers[0];
      const launch = resolveLaunch(keyed('key.pem'), ctx({}, dir));
      assert.ok(launch.type === 'http' && launch.oauth?.privateKey === pem.trim());
      assert.ok(launch.secrets?.includes(pem.trim()));
      assert.throws(() => resolveLaunch(keyed('bad.pem'), ctx({}, dir)), (err: Error) => /is not a private key in PEM form/.test(err.message) && !err.message.includes('NOT-A-KEY'));
      assert.throws(() => resolveLaunch(keyed('missing.pem'), ctx({}, dir)), /"oauth\.privateKeyFile" names ".*missing\.pem", which cannot be read: ENOENT\./);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the workload token of the jwt_bearer grant from its file or variable, masks it, and refuses a non-JWT without quoting it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oauth-wif-'));
    try {
      const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9.c2lnbmF0dXJl';
      fs.writeFileSync(path.join(dir, 'token.jwt'), `${jwt}\n`);
      fs.writeFileSync(path.join(dir, 'bad.jwt'), 'NOT-A-JWT-but-maybe-a-secret');
      const wif = (oauth: Record<string, unknown>) => parseServers({ s: { type: 'http', url: URL_A, oauth: { grant: 'jwt_bearer', clientId: 'w', ...oauth } } }, 'user').servers[0];
      const fromFile = resolveLaunch(wif({ assertionFile: 'token.jwt' }), ctx({}, dir));
      assert.ok(fromFile.type === 'http' && fromFile.oauth?.assertion === jwt && fromFile.oauth.grant === 'jwt_bearer');
      assert.ok(fromFile.secrets?.includes(jwt), 'masked wherever the launch is shown');
      const fromEnv = resolveLaunch(wif({ assertion: '${env:WORKLOAD_JWT}' }), ctx({ WORKLOAD_JWT: jwt }));
      assert.ok(fromEnv.type === 'http' && fromEnv.oauth?.assertion === jwt && fromEnv.secrets?.includes(jwt));
      assert.throws(() => resolveLaunch(wif({ assertionFile: 'bad.jwt' }), ctx({}, dir)), (err: Error) => /the workload token \("oauth\.assertionFile"\) is not a JWT \(three base64url parts separated by dots\)\./.test(err.message) && !err.message.includes('NOT-A-JWT'));
      assert.throws(() => resolveLaunch(wif({ assertion: '${env:WORKLOAD_JWT}' }), ctx({ WORKLOAD_JWT: 'opaque secret value' })), (err: Error) => /"oauth\.assertion"\) is not a JWT/.test(err.message) && !err.message.includes('opaque'));
      assert.throws(() => resolveLaunch(wif({ assertion: '${env:WORKLOAD_JWT}' }), ctx()), /"oauth\.assertion" is empty once its variables are filled in/);
      assert.throws(() => resolveLaunch(wif({ assertionFile: 'missing.jwt' }), ctx({}, dir)), /"oauth\.assertionFile" names ".*missing\.jwt", which cannot be read: ENOENT\./);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is part of the launch: changing it restarts the server; a server without it keeps its fingerprint', () => {
    const plain = parseServers({ s: { type: 'http', url: URL_A } }, 'user').servers[0];
    assert.deepEqual(Object.keys(plain.spec), ['type', 'url', 'headers']);
    const a = parseServers({ s: { type: 'http', url: URL_A, oauth: { clientId: 'a' } } }, 'user').servers[0];
    const b = parseServers({ s: { type: 'http', url: URL_A, oauth: { clientId: 'b' } } }, 'user').servers[0];
    assert.notEqual(launchFingerprint(a.spec), launchFingerprint(b.spec));
    assert.notEqual(launchFingerprint(a.spec), launchFingerprint(plain.spec));
  });
});
