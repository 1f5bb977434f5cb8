// Where a server's sign-in is kept, in a module of its own: Sign Out (dist/forms.js) copies it
// without the ServerCredentials class (esbuild.mjs).
import type { SecretStore } from './ports';

const KEY_PREFIX = 'mcpToolHost.oauth.';

/** The secret key of a server's credentials. */
export function credentialKey(serverName: string): string {
  return `${KEY_PREFIX}${serverName}`;
}

/** Forgets everything stored for a server's sign-in (the "Sign Out" command). */
export async function forgetCredentials(secrets: SecretStore, serverName: string): Promise<void> {
  await secrets.delete(credentialKey(serverName));
}
