import { createHash, webcrypto } from 'node:crypto';
import type { DpopSession, OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { loadSdk } from '../packages/load';

/** What dpopSessionOf needs of a server's stored credentials (serverCredentials.ts). */
export interface DpopKeyStore {
  readonly record: { readonly dpopKey?: JsonWebKey };
  update(patch: { dpopKey?: JsonWebKey }): Promise<void>;
}

/** The one proof algorithm offered: ES256 (P-256), the one every DPoP server is expected to take. */
const ALG = 'ES256';
type JsonWebKey = webcrypto.JsonWebKey;
const CURVE = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const sessions = new WeakMap<DpopKeyStore, Promise<DpopSession>>();

/**
 * The DPoP session (RFC 9449, SEP-1932) of one server's sign-in: its stored key pair, or a new one
 * when the authorization server advertises ES256 (`dpop_signing_alg_values_supported`), kept as a
 * private JWK with the tokens it binds (the same secret, dropped with them on Sign Out); otherwise
 * none, and tokens stay Bearer. The SDK signs the token request and every request to the server
 * with it (withDpop). The key is a secret: never logged, never in an error. Part of the
 * sign-in's bundle (dist/auth.js); the SDK's DpopSession comes from the session runtime.
 */
export function dpopSessionOf(store: DpopKeyStore, discovery: OAuthDiscoveryState | undefined): Promise<DpopSession> | undefined {
  const cached = sessions.get(store);
  if (cached) return cached;
  const stored = store.record.dpopKey;
  // (An OpenID Provider's metadata has the member too, but the SDK's type of it leaves it out.)
  const algs = (discovery?.authorizationServerMetadata as { dpop_signing_alg_values_supported?: unknown } | undefined)?.dpop_signing_alg_values_supported;
  if (!stored && !(Array.isArray(algs) && algs.includes(ALG))) return undefined;
  const session = (stored ? restore(stored) : create(store)).catch(() => {
    sessions.delete(store);
    throw new Error('The DPoP key kept with this server\'s sign-in cannot be used: sign out of the server and sign in again.');
  });
  sessions.set(store, session);
  return session;
}

async function create(store: DpopKeyStore): Promise<DpopSession> {
  const pair = await webcrypto.subtle.generateKey(CURVE, true, ['sign', 'verify']);
  const jwk = await webcrypto.subtle.exportKey('jwk', pair.privateKey);
  await store.update({ dpopKey: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d } });
  return session(pair.privateKey, pair.publicKey, jwk);
}

async function restore(jwk: JsonWebKey): Promise<DpopSession> {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.d) throw new Error('not a P-256 private key');
  const privateKey = await webcrypto.subtle.importKey('jwk', jwk, CURVE, false, ['sign']);
  const publicKey = await webcrypto.subtle.importKey('jwk', publicPart(jwk), CURVE, true, ['verify']);
  return session(privateKey, publicKey, jwk);
}

function session(privateKey: webcrypto.CryptoKey, publicKey: webcrypto.CryptoKey, jwk: JsonWebKey): Promise<DpopSession> {
  const publicJwk = publicPart(jwk);
  // RFC 7638: the SHA-256 of the required members in lexicographic order, which the server binds as cnf.jkt.
  const thumbprint = createHash('sha256').update(JSON.stringify({ crv: publicJwk.crv, kty: publicJwk.kty, x: publicJwk.x, y: publicJwk.y })).digest('base64url');
  return loadSdk().DpopSession.create({ keyPair: { privateKey, publicKey, publicJwk: { ...publicJwk }, thumbprint, alg: ALG } });
}

function publicPart(jwk: JsonWebKey): { kty: string; crv: string; x: string; y: string } {
  return { kty: jwk.kty ?? '', crv: jwk.crv ?? '', x: jwk.x ?? '', y: jwk.y ?? '' };
}
