import type { webcrypto } from 'node:crypto';
import type { StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import { credentialKey } from './credentialKeys';
import type { SecretStore } from './ports';

export { credentialKey, forgetCredentials } from './credentialKeys';

/** What we keep for one server's sign-in, as one JSON secret. */
export interface CredentialRecord {
  /** The server URL these credentials were obtained for: another URL never gets them. */
  readonly url: string;
  /** The loopback port of the redirect receiver, kept so the registered redirect URL stays the same. */
  readonly redirectPort?: number;
  /** The redirect URL `client` was registered with; a different one registers again. */
  readonly redirectUrl?: string;
  readonly client?: StoredOAuthClientInformation;
  readonly tokens?: StoredOAuthTokens;
  /** When `tokens` came (ms since the epoch): with their `expires_in`, when to refresh them before a request. */
  readonly tokensSavedAt?: number;
  /** The PKCE verifier of the sign-in in flight. */
  readonly codeVerifier?: string;
  /** The authorization server a machine grant's configured credentials were first sent to: they go to no other. */
  readonly issuer?: string;
  /** The private key (a JWK) that DPoP-bound `tokens` are bound to (dpopKeys.ts): a secret, like them. */
  readonly dpopKey?: webcrypto.JsonWebKey;
}

/**
 * One server's credentials: loaded once, kept in memory (the SDK asks for the token before every
 * request) and written through to the secret store on every change. Credentials stored for a
 * different URL read as empty, so renaming a server's URL never leaks its tokens to the new one.
 */
export class ServerCredentials {
  private constructor(private readonly _secrets: SecretStore, private readonly _key: string, private _record: CredentialRecord) {}

  static async load(secrets: SecretStore, serverName: string, url: string): Promise<ServerCredentials> {
    const key = credentialKey(serverName);
    const stored = parseRecord(await secrets.get(key));
    return new ServerCredentials(secrets, key, stored?.url === url ? stored : { url });
  }

  get record(): CredentialRecord {
    return this._record;
  }

  async update(patch: Partial<Omit<CredentialRecord, 'url'>>): Promise<void> {
    this._record = { ...this._record, ...patch };
    await this._secrets.store(this._key, JSON.stringify(this._record));
  }
}

/** A stored record, or undefined when there is none or it is unreadable (then the user signs in again). */
function parseRecord(text: string | undefined): CredentialRecord | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || typeof (value as { url?: unknown }).url !== 'string') return undefined;
    return value as CredentialRecord;
  } catch {
    return undefined;
  }
}
