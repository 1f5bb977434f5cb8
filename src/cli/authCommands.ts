import { credentialKey, forgetCredentials } from '../core/auth/credentialKeys';
import type { CredentialRecord } from '../core/auth/serverCredentials';
import { resolveLaunch } from '../core/config/launch';
import type { ServerDefinition } from '../core/config/serverConfig';
import { sanitizeLine, shownName, visibleJson } from '../core/render/sanitize';
import { formatCommandLine } from '../core/transport/commandLine';
import { CliError, Exit, type ExitCode } from './args';
import type { CredentialStore } from './credentialStore';
import type { CliHost } from './host';

/** The command that signs in to `server` for later runs, as the user types it. */
export function loginCommand(server: string, config: string): string {
  return formatCommandLine('mcp-tool-host', ['login', ...(server.startsWith('-') ? ['--'] : []), server, '--config', config]);
}

/** What `auth status` knows of one server's sign-in: never a token, only whether there is one. */
interface SignInStatus {
  readonly server: string;
  readonly url: string;
  readonly signedIn: boolean;
  /** When the access token expires, where the token says so (a JWT's exp). */
  readonly expiresAt?: string;
  /** A refresh token is kept: the sign-in renews without a browser. */
  readonly renews?: boolean;
  /** Why nothing is kept: the config supplies the credentials. */
  readonly note?: string;
}

/**
 * `login SERVER`: connects to the remote server, signing in when it asks (on a terminal, or with
 * --browser), so the sign-in is kept in `store` for later runs. Says whether it signed in, was
 * signed in already, or was let in without signing in.
 */
export async function login(host: CliHost, server: string, store: CredentialStore): Promise<ExitCode> {
  const connection = host.pool.get(server)!;
  const url = remoteUrl(host, connection.definition);
  const name = `"${shownName(server)}"`;
  const before = await storedRecord(store, server, url);
  await connection.start();
  if (connection.state.kind === 'error') throw new CliError(`Signing in to ${name} did not succeed: ${sanitizeLine(connection.state.message)}`, Exit.connection);
  const after = await storedRecord(store, server, url);
  if (!after?.tokens) console.log(`${name} let this client in without signing in: there is nothing to keep.`);
  else if (before?.tokens?.access_token === after.tokens.access_token) console.log(`Already signed in to ${name}; the sign-in is kept in ${where(store)}. To sign in again: ${formatCommandLine('mcp-tool-host', ['logout', server])}, then login.`);
  else console.log(`Signed in to ${name}. The sign-in is kept in ${where(store)}: later runs use it without a browser.`);
  return Exit.ok;
}

/** `logout SERVER`: forgets the server's sign-in in every store it may be in (keychain and file). */
export async function logout(server: string, stores: readonly CredentialStore[]): Promise<ExitCode> {
  const forgotten: string[] = [];
  for (const store of stores) {
    if ((await store.secrets.get(credentialKey(server))) === undefined) continue;
    await forgetCredentials(store.secrets, server);
    forgotten.push(where(store));
  }
  const name = `"${shownName(server)}"`;
  console.log(forgotten.length ? `Signed out of ${name}: its sign-in was removed from ${forgotten.join(' and ')}.` : `No sign-in to ${name} was kept (looked in ${stores.map(where).join(' and ')}).`);
  return Exit.ok;
}

/** `auth status`: for each configured remote server, whether a sign-in is kept, where, and until when if known. Connects to nothing. */
export async function authStatus(host: CliHost, store: CredentialStore, json: boolean): Promise<ExitCode> {
  const rows: SignInStatus[] = [];
  for (const { definition } of host.pool.connections) {
    if (definition.spec.type !== 'http') continue;
    const url = remoteUrl(host, definition);
    if (Object.keys(definition.spec.headers).some((h) => h.toLowerCase() === 'authorization')) {
      rows.push({ server: definition.name, url, signedIn: false, note: 'its Authorization header is configured' });
      continue;
    }
    const tokens = (await storedRecord(store, definition.name, url))?.tokens;
    const expiresAt = tokens && tokenExpiry(tokens.access_token);
    rows.push({ server: definition.name, url, signedIn: tokens !== undefined, ...(expiresAt && { expiresAt }), ...(tokens && { renews: tokens.refresh_token !== undefined }) });
  }
  if (json) {
    console.log(visibleJson({ store: { kind: store.kind, where: store.where, ...(store.why && { why: store.why }) }, servers: rows }, 2));
    return Exit.ok;
  }
  console.log(`Sign-ins are kept in ${where(store)}${store.why ? ` (${sanitizeLine(store.why)})` : ''}.`);
  if (rows.length === 0) console.log('No remote (http) server is configured.');
  for (const r of rows) {
    const state = r.note ? `no sign-in (${r.note})` : r.signedIn ? `signed in${r.expiresAt ? `, token expires ${r.expiresAt}` : ''}${r.renews ? ', renews without a browser' : ''}` : 'not signed in';
    console.log(`${shownName(r.server)} (${sanitizeLine(r.url)}): ${state}`);
  }
  return Exit.ok;
}

/** The server's URL as the sign-in is kept for it (variables substituted); a stdio server is a usage error. */
function remoteUrl(host: CliHost, definition: ServerDefinition): string {
  if (definition.spec.type !== 'http') throw new CliError(`"${shownName(definition.name)}" is not a remote (http) server: there is nothing to sign in to.`);
  const launch = resolveLaunch(definition, host.variables);
  return launch.type === 'http' ? launch.url : definition.spec.url;
}

/**
 * The sign-in kept for this server name at exactly this URL, as the core reads it: kept under the
 * name, and an entry made for another URL is not this server's.
 */
async function storedRecord(store: CredentialStore, server: string, url: string): Promise<CredentialRecord | undefined> {
  const text = await store.secrets.get(credentialKey(server));
  if (text === undefined) return undefined;
  try {
    const record = JSON.parse(text) as CredentialRecord | null;
    return record?.url === url ? record : undefined;
  } catch {
    return undefined;
  }
}

function where(store: CredentialStore): string {
  return store.kind === 'file' ? `the file ${store.where}` : store.where;
}

/**
 * When an access token expires, when it is a JWT that says so (its `exp`); undefined for an
 * opaque token. Read for display only: the token is the authorization server's, and nothing
 * here trusts what it claims.
 */
export function tokenExpiry(token: string): string | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const exp = (JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) && exp > 0 && exp < 1e11 ? new Date(exp * 1000).toISOString() : undefined;
  } catch {
    return undefined;
  }
}
