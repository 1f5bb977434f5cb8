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
    refuseLinkOutside(file);
    const lock = readLockfile(file);
    return { lock, strangers: lock ? [...lock.servers.keys()].filter((s) => !configured.includes(s)) : [] };
  } catch (err) {
    return { problem: (err as Error).message, strangers: [] };
  }
}

/**
 * A repository's lockfile that is a link to a file outside its folder (a key, a device, a file of
 * /proc) is not read: the editor reads it unasked, even in a folder not trusted yet.
 */
function refuseLinkOutside(file: string): void {
  let target: string;
  try {
    if (!fs.lstatSync(file).isSymbolicLink()) return;
    target = fs.realpathSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !isLink(file)) return;
    throw new LockfileError(`The lockfile ${file} is a link that leads nowhere readable (${code ?? (err as Error).message}); it is not used.`);
  }
  const folder = fs.realpathSync(path.dirname(file));
  const relative = path.relative(folder, target);
  if (relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) throw new LockfileError(`The lockfile ${file} is a link to ${target}, outside its folder, so it is not read.`);
}

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Writes a lockfile whole, through a temporary file renamed over it: a reader (CI, the editor) never sees half of one. */
export function writeLockfile(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, text);
  fs.renameSync(temp, file);
}
