import type * as Keyring from '@napi-rs/keyring';
import type { SecretStore } from '../core/auth/ports';
import { splitRecords } from './keychainParts';

/** The service name our entries are filed under in the keychain (the account is the key). */
const SERVICE = 'mcp-tool-host';
/** The entry read, then written and removed, to find out whether a keychain answers and keeps what it is given; it holds no secret. */
const PROBE_ACCOUNT = 'mcp-tool-host.probe';
/** A keychain that does not answer a read within this long (a locked one waiting for a prompt nobody sees) is not used. */
const PROBE_TIMEOUT_MS = 5_000;
/**
 * How long writing the probe entry may take: long enough for a person to answer an unlock prompt
 * (one that cannot be shown, without a display, fails at once), short enough that a run ends.
 */
const WRITE_PROBE_TIMEOUT_MS = 60_000;

/** The operating system's keychain, once it answered, and what to call it for the user. */
export interface Keychain {
  readonly secrets: SecretStore;
  readonly name: string;
}

/**
 * The keychain through `@napi-rs/keyring`: the macOS Keychain, the Windows Credential Manager, or
 * on Linux the Secret Service (GNOME Keyring, KWallet) only: the library's other Linux store, the
 * kernel keyring, forgets everything at reboot, which is not keeping a sign-in. Undefined, with
 * the reason, when the library is not installed beside the CLI (a copy of dist/cli.js alone), no
 * keychain answers (Linux without a desktop session, CI), or the one that answers cannot keep an entry.
 */
export async function openKeychain(): Promise<Keychain | { readonly missing: string }> {
  let keyring: typeof Keyring;
  try {
    // A native module: outside the bundle (esbuild.mjs), found in node_modules beside it when installed.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    keyring = require('@napi-rs/keyring') as typeof Keyring;
  } catch {
    return { missing: 'the keychain library (@napi-rs/keyring) is not installed beside the CLI' };
  }
  const options: Keyring.EntryOptions | undefined = process.platform === 'linux' ? { linux: { store: 'secret-service' } } : undefined;
  // On Linux an entry connects to the session bus when made, and throws when there is none.
  const entry = (key: string) => new keyring.AsyncEntry(SERVICE, key, options);
  let probe: Keyring.AsyncEntry;
  try {
    probe = entry(PROBE_ACCOUNT);
    await probe.getPassword(AbortSignal.timeout(PROBE_TIMEOUT_MS));
  } catch (err) {
    return { missing: `no keychain answered (${firstLine(err)})` };
  }
  // A keychain can answer reads and still keep nothing: a Secret Service with no keyring it may
  // write to (creating one needs a prompt), or a locked one whose unlock prompt nobody can answer.
  // Chosen anyway, every sign-in would fail; found out now, the file is used, or the user told why.
  try {
    await probe.setPassword('probe', AbortSignal.timeout(WRITE_PROBE_TIMEOUT_MS));
    await probe.deletePassword(AbortSignal.timeout(PROBE_TIMEOUT_MS));
  } catch (err) {
    return { missing: `${keychainName()} did not keep an entry (${firstLine(err)})` };
  }
  const entries: SecretStore = {
    get: async (key) => (await entry(key).getPassword()) ?? undefined,
    store: async (key, value) => entry(key).setPassword(value),
    delete: async (key) => void (await entry(key).deletePassword()),
  };
  // A record too large for one Windows credential is kept in several (keychainParts.ts).
  return { name: keychainName(), secrets: splitRecords(entries, process.platform, keychainName()) };
}

function keychainName(): string {
  if (process.platform === 'darwin') return 'the macOS Keychain';
  if (process.platform === 'win32') return 'the Windows Credential Manager';
  return 'the Secret Service keyring';
}

/** The library's error, one line and short: it names the platform's failure, never a secret. */
function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0].slice(0, 200);
}
