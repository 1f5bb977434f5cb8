import * as fs from 'node:fs';
import * as path from 'node:path';
import { LOCKFILE_NAME } from './lockfileName';
import { LockfileError, MAX_LOCKFILE_BYTES, parseLockfile, type Lockfile } from './toolLock';

/**
 * Where a team keeps the lockfile of a server configuration: in the folder that holds `.vscode/`
 * for a `.vscode/mcp.json` (the workspace folder, where the editor reads it), else beside the file.
 */
export function defaultLockfile(configFile: string): string {
  const dir = path.dirname(path.resolve(configFile));
  return path.join(path.basename(dir) === '.vscode' ? path.dirname(dir) : dir, LOCKFILE_NAME);
}

/**
 * Reads a lockfile: undefined when there is none; a LockfileError naming the file when it cannot
 * be used (not a regular file, over MAX_LOCKFILE_BYTES, not JSON, not a lockfile). The size is
 * checked before a byte is read: a repository's 100 MB file costs a stat, not 100 MB of memory.
 */
export function readLockfile(file: string): Lockfile | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new LockfileError(`The lockfile ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`);
  }
  if (!stat.isFile()) throw new LockfileError(`The lockfile ${file} is not a file.`);
  if (stat.size > MAX_LOCKFILE_BYTES) throw new LockfileError(`The lockfile ${file} is not read: it is over ${MAX_LOCKFILE_BYTES / (1024 * 1024)} MiB (${stat.size} bytes).`);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new LockfileError(`The lockfile ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`);
  }
  try {
    return parseLockfile(text);
  } catch (err) {
    throw new LockfileError(`The lockfile ${file} is not used: ${(err as Error).message}.`);
  }
}

/**
 * A workspace's lockfile for the editor: the lockfile, or the problem that keeps it from being used
 * (said to the user; nothing is loosened), and the servers it names that `configured` lacks.
 */
export function readWorkspaceLockfile(file: string, configured: readonly string[]): { readonly lock?: Lockfile; readonly problem?: string; readonly strangers: readonly string[] } {
  try {
    const lock = readLockfile(file);
    return { lock, strangers: lock ? [...lock.servers.keys()].filter((s) => !configured.includes(s)) : [] };
  } catch (err) {
    return { problem: (err as Error).message, strangers: [] };
  }
}

/** Writes a lockfile whole, through a temporary file renamed over it: a reader (CI, the editor) never sees half of one. */
export function writeLockfile(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text);
  fs.renameSync(temp, file);
}
