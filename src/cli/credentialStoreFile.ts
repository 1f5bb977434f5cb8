import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as lockfile from 'proper-lockfile';
import type { SecretStore } from '../core/auth/ports';
import { formatCommandLine } from '../core/transport/commandLine';
import { makeFolder as makeParents, userStateFolder } from '../core/userFolders';

/** Only the user may read or write the file, or list and enter its folder. */
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;
/** Bits that let anyone but the owner in. */
const OTHERS = 0o077;
const FORMAT_VERSION = 1;
/**
 * A change holds the lock for milliseconds; one not refreshed for this long was left by a process
 * that died (the library refreshes it at half this while held), and is taken over.
 */
const LOCK_STALE_MS = 5_000;
/** How a change waits for another process's: long enough to outwait a stale lock. */
const LOCK_RETRIES = { retries: 60, factor: 1.3, minTimeout: 15, maxTimeout: 150 };

/**
 * Where the CLI keeps sign-ins when no keychain answers: a folder of its own under the state
 * folder, since the state folder itself (audit log, remembered eras) is made with the usual
 * permissions. `$XDG_STATE_HOME/mcp-tool-host/auth/credentials.json` (~/.local/state without it).
 */
export function credentialFilePath(env: NodeJS.ProcessEnv = process.env, platform = process.platform, home = os.homedir()): string {
  return path.join(userStateFolder(env, platform, home), 'mcp-tool-host', 'auth', 'credentials.json');
}

/** The credentials file cannot be used as it is; the message says why and the command that fixes it. */
export class CredentialFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialFileError';
  }
}

/**
 * Secrets in one JSON file only the user can read: created 0600 in a 0700 folder, replaced whole
 * on every change (written beside it, then renamed over it, so a crash never leaves half a
 * file). A file or folder that others could read, that belongs to someone else, or that is a
 * link, is refused rather than used or repaired: someone may have planted or read it, and the
 * user decides. A file that is not ours to parse is refused too, and never overwritten. Each
 * change reads, changes and writes the file under a lock, so two CLI runs saving at once (two
 * servers' refreshed tokens) both keep their change; reading needs none (the file is only ever
 * replaced whole).
 */
export function fileSecretStore(file: string): SecretStore {
  return {
    get: async (key) => readEntries(file)[key],
    store: (key, value) =>
      changeEntries(file, (entries) => {
        entries[key] = value;
        return true;
      }),
    async delete(key) {
      if (!(key in readEntries(file))) return; // nothing to remove: no folder made, no lock taken
      await changeEntries(file, (entries) => delete entries[key]);
    },
  };
}

/** Reads the entries, lets `change` change them, and writes them back when it says so, all under the file's lock. */
async function changeEntries(file: string, change: (entries: Record<string, string>) => boolean): Promise<void> {
  makeFolder(path.dirname(file));
  const release = await lock(file);
  try {
    const entries = readEntries(file);
    if (change(entries)) writeEntries(file, entries);
  } finally {
    await release().catch(() => undefined); // a lock taken over as stale is the other process's to remove
  }
}

/** The lock on `file` (a folder beside it, `credentials.json.lock`), or a CredentialFileError when another process keeps it. */
async function lock(file: string): Promise<() => Promise<void>> {
  try {
    // The write under it takes milliseconds: a lock that could not be refreshed changes nothing worth failing it for.
    return await lockfile.lock(file, { realpath: false, stale: LOCK_STALE_MS, retries: LOCK_RETRIES, onCompromised: () => undefined });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
    const held = `${file}.lock`;
    throw new CredentialFileError(`The credentials file ${file} is being changed by another mcp-tool-host run, which did not finish in time, so nothing was saved. Try again; if no other run is going, remove its lock (${formatCommandLine('rm', ['-r', held])}).`);
  }
}

/** The file's entries; none when neither it nor its folder exists yet. */
function readEntries(file: string): Record<string, string> {
  if (!checkPlace(path.dirname(file), 'folder')) return {};
  if (!checkPlace(file, 'file')) return {};
  const text = fs.readFileSync(file, 'utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CredentialFileError(`The credentials file ${file} is not valid JSON, so it was left as it is. Remove it to sign in again (${formatCommandLine('rm', [file])}).`);
  }
  const entries = (value as { entries?: unknown } | null)?.entries;
  if ((value as { version?: unknown } | null)?.version !== FORMAT_VERSION || typeof entries !== 'object' || entries === null || Object.values(entries).some((v) => typeof v !== 'string')) {
    throw new CredentialFileError(`The credentials file ${file} is not in the format this version writes (version ${FORMAT_VERSION}), so it was left as it is. Remove it to sign in again (${formatCommandLine('rm', [file])}).`);
  }
  return { ...(entries as Record<string, string>) };
}

/** The credentials folder, made 0700 when it is not there yet, and checked when it is. */
function makeFolder(folder: string): void {
  makeParents(path.dirname(folder));
  try {
    fs.mkdirSync(folder, { mode: FOLDER_MODE });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  checkPlace(folder, 'folder');
}

function writeEntries(file: string, entries: Record<string, string>): void {
  const folder = path.dirname(file);
  const temp = path.join(folder, `.credentials.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  // 'wx': a new file (never one planted there), born 0600 (the umask can only take bits away).
  const fd = fs.openSync(temp, 'wx', FILE_MODE);
  try {
    fs.writeFileSync(fd, `${JSON.stringify({ version: FORMAT_VERSION, entries }, null, 2)}\n`);
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  try {
    fs.renameSync(temp, file);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
}

/**
 * Whether `where` exists, refusing it when it is not a plain file (folder) of this user that no
 * one else can read. Windows keeps no POSIX modes: there the keychain is the store, and the file
 * sits in the user's own profile folder.
 */
function checkPlace(where: string, kind: 'file' | 'folder'): boolean {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(where);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
  const remove = formatCommandLine('rm', kind === 'folder' ? ['-r', where] : [where]);
  if (stat.isSymbolicLink()) throw new CredentialFileError(`The credentials ${kind} ${where} is a symbolic link, so it was not used: it must be a ${kind} of its own. Remove it (${remove}) and sign in again.`);
  if (kind === 'file' ? !stat.isFile() : !stat.isDirectory()) throw new CredentialFileError(`The credentials ${kind} ${where} is not a ${kind}, so it was not used. Remove it (${remove}) and sign in again.`);
  if (process.platform === 'win32') return true;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw new CredentialFileError(`The credentials ${kind} ${where} belongs to another user (uid ${stat.uid}), so it was not used. Remove it (${remove}) and sign in again.`);
  const mode = stat.mode & 0o777;
  if (mode & OTHERS) {
    const wanted = kind === 'file' ? FILE_MODE : FOLDER_MODE;
    throw new CredentialFileError(`The credentials ${kind} ${where} can be read or changed by other users (mode ${octal(mode)}), so it was not used. Make it yours alone: ${formatCommandLine('chmod', [octal(wanted).slice(1), where])} (if you did not loosen it yourself, someone may have read the sign-ins in it: then also sign out and in again).`);
  }
  return true;
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}
