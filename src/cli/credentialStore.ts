import type { SecretStore } from '../core/auth/ports';
import { CliError } from './args';
import { credentialFilePath, fileSecretStore } from './credentialStoreFile';
import { openKeychain } from './credentialStoreKeychain';

/** Which store the user asked for (MCP_TOOL_HOST_CREDENTIALS): the keychain, the file, or the keychain when one answers. */
export const STORE_VARIABLE = 'MCP_TOOL_HOST_CREDENTIALS';

/** Where the CLI keeps sign-ins, and how to name it for the user (`auth status`). */
export interface CredentialStore {
  readonly secrets: SecretStore;
  readonly kind: 'keychain' | 'file';
  /** "the macOS Keychain", or the file's path. */
  readonly where: string;
  /** Why the keychain is not used, when it is not. */
  readonly why?: string;
}

/**
 * The store the CLI keeps sign-ins in: the operating system's keychain when one answers, else a
 * file only the user can read. MCP_TOOL_HOST_CREDENTIALS=keychain or =file picks one (keychain:
 * an error when none answers, rather than a file the user did not want).
 */
export async function openCredentialStore(env: NodeJS.ProcessEnv = process.env): Promise<CredentialStore> {
  const wanted = env[STORE_VARIABLE];
  if (wanted !== undefined && wanted !== '' && wanted !== 'keychain' && wanted !== 'file') throw new CliError(`${STORE_VARIABLE} must be keychain or file, not "${wanted}".`);
  const file = credentialFilePath(env);
  if (wanted === 'file') return { secrets: fileSecretStore(file), kind: 'file', where: file, why: `${STORE_VARIABLE}=file` };
  const keychain = await openKeychain();
  if ('secrets' in keychain) return { secrets: keychain.secrets, kind: 'keychain', where: keychain.name };
  if (wanted === 'keychain') throw new CliError(`${STORE_VARIABLE}=keychain, but ${keychain.missing}.`);
  return { secrets: fileSecretStore(file), kind: 'file', where: file, why: keychain.missing };
}

/** Every store a sign-in may be in (`logout` forgets it in each): the keychain, if one answers, and the file. */
export async function everyCredentialStore(env: NodeJS.ProcessEnv = process.env): Promise<CredentialStore[]> {
  const file = credentialFilePath(env);
  const keychain = await openKeychain();
  return [...('secrets' in keychain ? [{ secrets: keychain.secrets, kind: 'keychain' as const, where: keychain.name }] : []), { secrets: fileSecretStore(file), kind: 'file', where: file }];
}

/**
 * A SecretStore that opens `open()` on first use: a run that signs in nowhere never asks the
 * keychain (which may prompt) or touches the file. The choice is made once a run.
 */
export function lazySecretStore(open: () => Promise<CredentialStore>): SecretStore {
  let opened: Promise<CredentialStore> | undefined;
  const store = () => (opened ??= open()).then((s) => s.secrets);
  return {
    get: async (key) => (await store()).get(key),
    store: async (key, value) => (await store()).store(key, value),
    delete: async (key) => (await store()).delete(key),
  };
}
