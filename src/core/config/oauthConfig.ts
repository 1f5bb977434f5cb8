import { createPrivateKey } from 'node:crypto';
import type { OAuthGrant, ResolvedOAuth } from '../oauthCredentials';

export type { OAuthGrant, ResolvedOAuth } from '../oauthCredentials';

/** The enterprise identity provider of a cross-app access grant. */
export interface IdpSettings {
  readonly tokenEndpoint: string;
  readonly clientId: string;
  readonly clientSecret?: string;
  /** The user's ID token (a variable), or the file it is kept in. */
  readonly idToken?: string;
  readonly idTokenFile?: string;
}

/** The `oauth` entry of an http server, as written (variables not substituted). */
export interface OAuthSettings {
  readonly grant?: OAuthGrant;
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly clientMetadataUrl?: string;
  readonly privateKey?: string;
  readonly privateKeyFile?: string;
  readonly signingAlgorithm?: string;
  readonly scope?: string;
  /** The authorization server these credentials belong to: they are sent to no other. */
  readonly issuer?: string;
  readonly idp?: IdpSettings;
  /** The workload JWT of the `jwt_bearer` grant (a variable), or the file it is kept in. */
  readonly assertion?: string;
  readonly assertionFile?: string;
}

const KEYS = new Set(['grant', 'clientId', 'clientSecret', 'clientMetadataUrl', 'privateKey', 'privateKeyFile', 'signingAlgorithm', 'scope', 'issuer', 'idp', 'assertion', 'assertionFile']);
const IDP_KEYS = new Set(['tokenEndpoint', 'clientId', 'clientSecret', 'idToken', 'idTokenFile']);
const GRANTS: readonly OAuthGrant[] = ['authorization_code', 'client_credentials', 'cross_app_access', 'jwt_bearer'];
/** The JWS algorithms a private key may sign client assertions with (RFC 7518, RFC 8037). */
export const SIGNING_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** Values that must come from a variable: written into a settings file they would sit in plain text (and in a repository). */
const SECRET_KEYS = new Set(['clientSecret', 'privateKey', 'idp.clientSecret', 'idp.idToken', 'assertion']);
const VARIABLE = /\$\{(env|input):[^}]+\}/;

/** Validates an http server's `oauth` entry; `fail` throws the entry's ConfigError. */
export function parseOAuthSettings(raw: unknown, fail: (message: string) => never): OAuthSettings {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('"oauth" must be an object (for example { "clientId": "...", "clientSecret": "${env:MY_SECRET}" }).');
  const o = raw as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !KEYS.has(k));
  if (unknown.length) fail(`unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"oauth.${k}"`).join(', ')}.`);
  const text = (value: unknown, key: string): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.trim() === '') return fail(`"oauth.${key}" must be a non-empty string.`);
    if (SECRET_KEYS.has(key) && !VARIABLE.test(value)) fail(`"oauth.${key}" is a secret: give it as a variable, \${env:NAME} or \${input:id}, never written in the file.`);
    return value;
  };
  const grant = o.grant ?? 'authorization_code';
  if (!GRANTS.includes(grant as OAuthGrant)) fail(`"oauth.grant" must be ${GRANTS.map((g) => `"${g}"`).join(', ')} (got ${JSON.stringify(grant)}).`);
  const settings: OAuthSettings = {
    ...(o.grant !== undefined && { grant: grant as OAuthGrant }),
    ...optional('clientId', text(o.clientId, 'clientId')),
    ...optional('clientSecret', text(o.clientSecret, 'clientSecret')),
    ...optional('clientMetadataUrl', text(o.clientMetadataUrl, 'clientMetadataUrl')),
    ...optional('privateKey', text(o.privateKey, 'privateKey')),
    ...optional('privateKeyFile', text(o.privateKeyFile, 'privateKeyFile')),
    ...optional('signingAlgorithm', text(o.signingAlgorithm, 'signingAlgorithm')),
    ...optional('scope', text(o.scope, 'scope')),
    ...optional('issuer', text(o.issuer, 'issuer')),
    ...(o.idp !== undefined && { idp: parseIdp(o.idp, text, fail) }),
    ...optional('assertion', text(o.assertion, 'assertion')),
    ...optional('assertionFile', text(o.assertionFile, 'assertionFile')),
  };
  checkCombination(settings, grant as OAuthGrant, fail);
  return settings;
}

function parseIdp(raw: unknown, text: (v: unknown, key: string) => string | undefined, fail: (m: string) => never): IdpSettings {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('"oauth.idp" must be an object with tokenEndpoint, clientId and idToken (or idTokenFile).');
  const o = raw as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !IDP_KEYS.has(k));
  if (unknown.length) fail(`unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"oauth.idp.${k}"`).join(', ')}.`);
  const tokenEndpoint = text(o.tokenEndpoint, 'idp.tokenEndpoint');
  const clientId = text(o.clientId, 'idp.clientId');
  if (!tokenEndpoint || !clientId) return fail('"oauth.idp" needs "tokenEndpoint" and "clientId".');
  const idToken = text(o.idToken, 'idp.idToken');
  const idTokenFile = text(o.idTokenFile, 'idp.idTokenFile');
  if ((idToken === undefined) === (idTokenFile === undefined)) fail('"oauth.idp" needs exactly one of "idToken" (a variable) and "idTokenFile".');
  return { tokenEndpoint, clientId, ...optional('clientSecret', text(o.clientSecret, 'idp.clientSecret')), ...optional('idToken', idToken), ...optional('idTokenFile', idTokenFile) };
}

function checkCombination(s: OAuthSettings, grant: OAuthGrant, fail: (m: string) => never): void {
  const keys = s.privateKey !== undefined || s.privateKeyFile !== undefined;
  const assertion = s.assertion !== undefined || s.assertionFile !== undefined;
  if (assertion && grant !== 'jwt_bearer') fail('a workload token ("oauth.assertion", "oauth.assertionFile") is for the "jwt_bearer" grant.');
  if (s.clientSecret !== undefined && s.clientId === undefined) fail('"oauth.clientSecret" needs "oauth.clientId".');
  if (s.clientMetadataUrl !== undefined) {
    if (grant !== 'authorization_code') fail('"oauth.clientMetadataUrl" is for signing in in a browser (grant "authorization_code").');
    if (s.clientId !== undefined) fail('"oauth.clientMetadataUrl" is itself the client id: give it or "oauth.clientId", not both.');
    if (!VARIABLE.test(s.clientMetadataUrl)) checkMetadataUrl(s.clientMetadataUrl, fail);
  }
  if (s.privateKey !== undefined && s.privateKeyFile !== undefined) fail('give "oauth.privateKey" or "oauth.privateKeyFile", not both.');
  if (keys && grant !== 'client_credentials') fail('a private key ("oauth.privateKey", "oauth.privateKeyFile") is for the "client_credentials" grant.');
  if (keys !== (s.signingAlgorithm !== undefined)) fail(keys ? `"oauth.signingAlgorithm" is required with a private key (${SIGNING_ALGORITHMS.join(', ')}).` : '"oauth.signingAlgorithm" is only for a private key.');
  if (s.signingAlgorithm !== undefined && !SIGNING_ALGORITHMS.includes(s.signingAlgorithm)) fail(`"oauth.signingAlgorithm" must be one of ${SIGNING_ALGORITHMS.join(', ')} (got "${s.signingAlgorithm}").`);
  if (s.idp !== undefined && grant !== 'cross_app_access') fail('"oauth.idp" is for the "cross_app_access" grant.');
  if (s.issuer !== undefined && !VARIABLE.test(s.issuer) && !/^https?:\/\/[^/]/i.test(s.issuer)) fail(`"oauth.issuer" must be the authorization server's URL (got "${s.issuer}").`);
  if (grant === 'client_credentials') {
    if (s.clientId === undefined) fail('the "client_credentials" grant needs "oauth.clientId".');
    if ((s.clientSecret !== undefined) === keys) fail('the "client_credentials" grant needs exactly one of "oauth.clientSecret", "oauth.privateKey" and "oauth.privateKeyFile".');
  }
  if (grant === 'jwt_bearer') {
    if (s.clientId === undefined) fail('the "jwt_bearer" grant needs "oauth.clientId" (the client the workload is known as at the authorization server).');
    if (s.clientSecret !== undefined) fail('the "jwt_bearer" grant is for a public client: the workload token is its only credential, so "oauth.clientSecret" is not used.');
    if ((s.assertion === undefined) === (s.assertionFile === undefined)) fail('the "jwt_bearer" grant needs exactly one of "oauth.assertion" (a variable) and "oauth.assertionFile" (the workload token\'s file).');
  }
  if (grant === 'cross_app_access') {
    if (s.clientId === undefined || s.clientSecret === undefined) fail('the "cross_app_access" grant needs "oauth.clientId" and "oauth.clientSecret" (the client registered with the server\'s authorization server).');
    if (s.idp === undefined) fail('the "cross_app_access" grant needs "oauth.idp" (your identity provider: tokenEndpoint, clientId, idToken).');
  }
}

/** A client metadata document URL (SEP-991): https, with a path; the authorization server fetches it. */
function checkMetadataUrl(url: string, fail: (m: string) => never): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || parsed.protocol !== 'https:' || parsed.pathname === '/') fail(`"oauth.clientMetadataUrl" must be an https URL with a path, where your client's metadata document is published (got "${url}").`);
}

/** Every string of the settings that variables may appear in (which `${input:}` a launch needs). */
export function oauthStrings(s: OAuthSettings): string[] {
  const idp = s.idp;
  return [s.clientId, s.clientSecret, s.clientMetadataUrl, s.privateKey, s.privateKeyFile, s.scope, s.issuer, s.assertion, s.assertionFile, idp?.tokenEndpoint, idp?.clientId, idp?.clientSecret, idp?.idToken, idp?.idTokenFile].filter((v): v is string => v !== undefined);
}

/**
 * Substitutes the variables and reads the files. `sub` substitutes (throwing a ConfigError that
 * names the key), `readFile` reads a file named in the settings (relative to the workspace), and
 * `fail` reports a value that cannot be used: never with the value itself, which may be a secret.
 * Returns the settings and the secret values in them (masked wherever anything is shown).
 */
export function resolveOAuth(s: OAuthSettings, sub: (value: string, where: string) => string, readFile: (file: string, where: string) => string, fail: (m: string) => never): { oauth: ResolvedOAuth; secrets: string[] } {
  const value = (raw: string | undefined, key: string): string | undefined => {
    if (raw === undefined) return undefined;
    const resolved = sub(raw, `oauth.${key}`).trim();
    if (resolved === '') fail(`"oauth.${key}" is empty once its variables are filled in (is the environment variable set?).`);
    return resolved;
  };
  const grant = s.grant ?? 'authorization_code';
  const privateKey = value(s.privateKey, 'privateKey') ?? (s.privateKeyFile === undefined ? undefined : readFile(value(s.privateKeyFile, 'privateKeyFile')!, 'oauth.privateKeyFile').trim());
  if (privateKey !== undefined) {
    try {
      createPrivateKey(privateKey);
    } catch {
      fail(`the private key (${s.privateKey !== undefined ? '"oauth.privateKey"' : '"oauth.privateKeyFile"'}) is not a private key in PEM form ("-----BEGIN PRIVATE KEY-----").`);
    }
  }
  const clientMetadataUrl = value(s.clientMetadataUrl, 'clientMetadataUrl');
  if (clientMetadataUrl !== undefined) checkMetadataUrl(clientMetadataUrl, fail);
  const idp = s.idp && {
    tokenEndpoint: value(s.idp.tokenEndpoint, 'idp.tokenEndpoint')!,
    clientId: value(s.idp.clientId, 'idp.clientId')!,
    ...optional('clientSecret', value(s.idp.clientSecret, 'idp.clientSecret')),
    idToken: value(s.idp.idToken, 'idp.idToken') ?? readFile(value(s.idp.idTokenFile, 'idp.idTokenFile')!, 'oauth.idp.idTokenFile').trim(),
  };
  // Credentials go to these endpoints: never in clear text over a network.
  if (idp) checkEndpoint(idp.tokenEndpoint, 'oauth.idp.tokenEndpoint', fail);
  const issuer = value(s.issuer, 'issuer');
  if (issuer !== undefined) checkEndpoint(issuer, 'oauth.issuer', fail);
  // An ID token is a JWT (OpenID Connect Core 2): a file of another shape (a key, a password file) is never sent.
  if (idp && !isJwt(idp.idToken)) fail(`the ID token (${s.idp?.idToken !== undefined ? '"oauth.idp.idToken"' : '"oauth.idp.idTokenFile"'}) is not a JWT (three base64url parts separated by dots), so it is not sent.`);
  const assertion = value(s.assertion, 'assertion') ?? (s.assertionFile === undefined ? undefined : readFile(value(s.assertionFile, 'assertionFile')!, 'oauth.assertionFile').trim());
  // A JWT is three base64url parts (RFC 7519); anything else would only be refused by the server, after a round trip.
  if (assertion !== undefined && !isJwt(assertion)) {
    fail(`the workload token (${s.assertion !== undefined ? '"oauth.assertion"' : '"oauth.assertionFile"'}) is not a JWT (three base64url parts separated by dots).`);
  }
  const oauth: ResolvedOAuth = {
    grant,
    ...optional('clientId', value(s.clientId, 'clientId')),
    ...optional('clientSecret', value(s.clientSecret, 'clientSecret')),
    ...optional('clientMetadataUrl', clientMetadataUrl),
    ...optional('privateKey', privateKey),
    ...optional('signingAlgorithm', s.signingAlgorithm),
    ...optional('scope', value(s.scope, 'scope')),
    ...optional('issuer', issuer),
    ...(idp && { idp }),
    ...optional('assertion', assertion),
  };
  const secrets = [oauth.clientSecret, oauth.privateKey, idp?.clientSecret, idp?.idToken, assertion].filter((v): v is string => v !== undefined);
  return { oauth, secrets };
}

const isJwt = (text: string) => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(text);

/** An endpoint credentials are sent to: https, or http to this machine only (a local test server). */
function checkEndpoint(url: string, key: string, fail: (m: string) => never): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  const loopback = parsed !== undefined && /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i.test(parsed.hostname);
  if (!parsed || !(parsed.protocol === 'https:' || (parsed.protocol === 'http:' && loopback))) {
    fail(`"${key}" must be an https URL (plain http only to this machine: localhost, 127.0.0.1, [::1]); got "${url}".`);
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
