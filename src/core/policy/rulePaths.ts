import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What path conditions need of the machine: the path flavour, whether names differ by case, the
 * home folder, and the file system (lstat and readlink). `localPaths()` is this machine's; tests
 * use it with real temporary folders.
 */
export interface PathSystem {
  readonly path: typeof nodePath.posix;
  readonly caseInsensitive: boolean;
  readonly home: string;
  /** 'link' for a symbolic link, 'present' for anything else that exists, 'missing' when nothing does. */
  kind(p: string): 'link' | 'present' | 'missing';
  /** A link's target as written in it (relative to the link's folder unless absolute). */
  readlink(p: string): string;
}

/** Where relative things are read from: the workspace folder (`${workspaceFolder}` in rules) and the server's own folder. */
export interface PathPlace {
  readonly workspaceFolder?: string;
  /** The folder the server resolves relative paths against (its launch `cwd`); without it a relative path is unreadable. */
  readonly base?: string;
  /**
   * Folders the server was given on its command line: a server may read a relative path from one of
   * them rather than from its own folder (server-filesystem reads it from the first it was given).
   */
  readonly givenFolders?: readonly string[];
}

/** `bases`: a relative path read from more than one folder (the server's own and those it was given). */
export type PathReading = { readonly kind: 'paths'; readonly paths: readonly string[]; readonly bases?: readonly string[] } | { readonly kind: 'unreadable'; readonly why: string };

/** Longer argument values are not read as paths (PATH_MAX on Linux is 4,096 bytes). */
export const MAX_PATH_CHARS = 4096;
/** Links followed in one reading before it is given up (Linux's ELOOP limit). */
const MAX_LINKS = 40;

export function localPaths(platform: NodeJS.Platform = process.platform): PathSystem {
  return {
    path: platform === 'win32' ? nodePath.win32 : nodePath.posix,
    // The default file systems of Windows and macOS ignore case; a case-sensitive volume there is compared as if it did not, which only over-matches folders.
    caseInsensitive: platform === 'win32' || platform === 'darwin',
    home: os.homedir(),
    kind(p) {
      try {
        return fs.lstatSync(p).isSymbolicLink() ? 'link' : 'present';
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
        throw err;
      }
    },
    readlink: (p) => fs.readlinkSync(p),
  };
}

/**
 * An argument value read as the real paths it may reach, or why it cannot be read. Two readings
 * are kept when they differ: the kernel's (each `..` after the symlink it follows) and a
 * lexical one (`..` removed first, as a server that normalises before opening does). A
 * condition holds for an allow only when it holds for both.
 */
export function readPath(value: string, sys: PathSystem, place: PathPlace): PathReading {
  if (value.length > MAX_PATH_CHARS) return unreadable(`is longer than ${MAX_PATH_CHARS} characters`);
  if (value.includes('\0')) return unreadable('contains a NUL character');
  let text = value;
  if (/^file:/i.test(text)) {
    try {
      text = fileURLToPath(text);
    } catch (err) {
      return unreadable(`is a file URL that does not name a local path (${(err as Error).message})`);
    }
    if (text.includes('\0')) return unreadable('contains a NUL character');
  } else if (/%(2e|2f|5c|00|25)/i.test(text)) {
    return unreadable('has a percent-encoded dot, slash, NUL or percent (%2e, %2f, %5c, %00, %25), which a server might decode');
  }
  const expanded = expandHome(text, sys);
  if (expanded === undefined) return unreadable('starts with "~name" (another user\'s home)');
  if (sys.path === nodePath.win32) {
    if (/^[a-z]:(?![\\/])/i.test(expanded)) return unreadable('is relative to a drive\'s current folder');
    const device = windowsDeviceWhy(expanded);
    if (device !== undefined) return unreadable(device);
  }
  let bases: string[] | undefined;
  if (!sys.path.isAbsolute(expanded)) {
    if (place.base === undefined) return unreadable('is a relative path and the server\'s folder is not known');
    bases = [...new Set([place.base, ...(place.givenFolders ?? [])])];
  }
  try {
    const paths = new Set<string>();
    for (const absolute of bases ? bases.map((b) => sys.path.join(b, expanded)) : [expanded]) {
      paths.add(realWalk(absolute, sys));
      paths.add(realWalk(sys.path.resolve(absolute), sys));
    }
    return { kind: 'paths', paths: [...paths], ...(bases && bases.length > 1 && { bases }) };
  } catch (err) {
    if (err instanceof ProcessRelativeError) return unreadable(`names ${shown(value)}, whose meaning depends on the process that opens it (${JSON.stringify(err.place)}): the server opens it in its own process, so no rule can judge it`);
    return unreadable(`could not be resolved (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

/**
 * A place that means something else in each process: `/proc/self`, `/proc/thread-self` and
 * `/proc/<pid>` (a pid names another process in a sandbox's pid namespace), `/dev/fd`,
 * `/dev/stdin`, `/dev/stdout`, `/dev/stderr` and `/dev/tty`. The host would read the one of its
 * own process, the server opens its own: a rule cannot judge such a path. Returns the place
 * (`/proc/self`), or `undefined`. `path` is an absolute POSIX path without `.` or `..` segments.
 */
export function processPlace(path: string, caseInsensitive: boolean): string | undefined {
  // Anchored, so a walk that checks each step reads only the start of a long path.
  const found = (caseInsensitive ? PROCESS_PLACE_ANY_CASE : PROCESS_PLACE).exec(path);
  return found ? `/${found[1].replace(/\/+/g, '/').toLowerCase()}` : undefined;
}

const PROCESS_PLACE = /^\/+(proc\/+(?:self|thread-self|\d+)|dev\/+(?:fd|stdin|stdout|stderr|tty))(?=\/|$)/;
const PROCESS_PLACE_ANY_CASE = new RegExp(PROCESS_PLACE.source, 'i');

/**
 * Why a folder or glob written in a rule can never be compared with, or `undefined`: its folder
 * (`base`: for a glob, the segments before the first wildcard) names a process's own place
 * (`processPlace`), or it is a Windows device path (`windowsDeviceWhy`). Read as text, case
 * ignored, whatever this machine is: the rule may be read on another.
 */
export function unjudgedRuleFolder(text: string, base: string = text): string | undefined {
  const windows = devicePathWhy(text) ?? consoleWhy(base);
  if (windows !== undefined) return windows;
  const place = base.startsWith('/') ? processPlace(nodePath.posix.normalize(base), true) : undefined;
  return place === undefined ? undefined : `names ${shown(text)}, whose meaning depends on the process that opens it (${JSON.stringify(place)})`;
}

/**
 * Why a Windows path cannot be judged, or `undefined`: a device or verbatim path (`\\.\`, `\\?\`,
 * `\??\`, also with forward slashes) skips the normalisation the rules rely on, and the console
 * names `CON`, `CONIN$`, `CONOUT$` (with any extension, in any folder) are the opening process's own.
 */
export function windowsDeviceWhy(text: string): string | undefined {
  return devicePathWhy(text) ?? consoleWhy(text);
}

function devicePathWhy(text: string): string | undefined {
  if (!/^([\\/]{2}[.?]|\\\?\?)([\\/]|$)/.test(text)) return undefined;
  return `is a Windows device or verbatim path (${JSON.stringify(text.slice(0, 4))}), which is opened without the normalisation rules rely on`;
}

function consoleWhy(text: string): string | undefined {
  const name = text.split(/[\\/]/).find((segment) => /^(con|conin\$|conout\$)$/i.test(segment.replace(/[ .].*$/, '')));
  return name === undefined ? undefined : `names the console (${JSON.stringify(name)}), which is the opening process's own: the server opens it in its own process, so no rule can judge it`;
}

/** A walk reached a place that depends on the process that opens it (`processPlace`). */
class ProcessRelativeError extends Error {
  constructor(readonly place: string) {
    super(`leads to ${place}, which depends on the process that opens it`);
    this.name = this.constructor.name;
  }
}

/**
 * A folder or glob base written in a rule, as a real absolute path: `~` is the home folder and
 * `${workspaceFolder}` the workspace's. `undefined` when it names the workspace and there is none.
 */
export function ruleFolder(text: string, sys: PathSystem, place: PathPlace): string | undefined {
  let expanded: string | undefined = text;
  if (expanded.startsWith('${workspaceFolder}')) {
    if (place.workspaceFolder === undefined) return undefined;
    expanded = place.workspaceFolder + expanded.slice('${workspaceFolder}'.length);
  }
  expanded = expandHome(expanded, sys);
  if (expanded === undefined || !sys.path.isAbsolute(expanded)) return undefined;
  return realWalk(sys.path.resolve(expanded), sys);
}

/** Is `target` the folder itself or inside it, at a segment boundary (`/project-evil` is not under `/project`)? */
export function isUnder(target: string, folder: string, sys: PathSystem): boolean {
  const t = keyOf(target, sys);
  const f = keyOf(folder, sys);
  if (t === f) return true;
  return t.startsWith(f.endsWith(sys.path.sep) ? f : f + sys.path.sep);
}

/** The segments of `target` below `folder`, compared as keys (call only when `isUnder`). */
export function segmentsBelow(target: string, folder: string, sys: PathSystem): string[] {
  return keyOf(target, sys).slice(keyOf(folder, sys).length).split(sys.path.sep).filter((s) => s !== '');
}

/** A path as compared: lower case where the system ignores case. */
export function keyOf(p: string, sys: PathSystem): string {
  return sys.caseInsensitive ? p.toLowerCase() : p;
}

/** Is a folder or glob written in a rule absolute in a form we read (`/`, a drive, `\\`, `~`, `${workspaceFolder}`)? */
export function isRulePathAbsolute(text: string): boolean {
  return /^(\/|~(\/|\\|$)|\$\{workspaceFolder\}(\/|\\|$)|[a-z]:[\\/]|\\\\)/i.test(text);
}

function expandHome(text: string, sys: PathSystem): string | undefined {
  if (text === '~') return sys.home;
  if (text.startsWith('~/') || (sys.path === nodePath.win32 && text.startsWith('~\\'))) return sys.path.join(sys.home, text.slice(2));
  if (text.startsWith('~')) return undefined;
  return text;
}

/**
 * The path with each symlink replaced by its target as the walk meets it, so a `..` after a link
 * climbs from the link's target (as the kernel does). The part that does not exist yet (a file
 * about to be written) is kept as written. Links are read one by one, not by `realpath`: a link
 * into `/proc/self` would be resolved in this process and hide where the server lands, so every
 * place the walk passes is checked (`processPlace`). Throws ELOOP past 40 links.
 */
function realWalk(absolute: string, sys: PathSystem): string {
  const split = (p: string) => p.split(sys.path === nodePath.win32 ? /[\\/]/ : '/');
  const root = sys.path.parse(absolute).root;
  let real = root;
  // Segments still to walk, the next one last: a link's target is pushed in front of the rest.
  const pending = split(absolute.slice(root.length)).reverse();
  let links = 0;
  while (pending.length > 0) {
    const segment = pending.pop()!;
    if (segment === '' || segment === '.') continue;
    const next = segment === '..' ? sys.path.dirname(real) : sys.path.join(real, segment);
    const place = sys.path === nodePath.win32 ? undefined : processPlace(next, sys.caseInsensitive);
    if (place !== undefined) throw new ProcessRelativeError(place);
    if (segment === '..' || sys.kind(next) !== 'link') {
      real = next;
      continue;
    }
    if (++links > MAX_LINKS) throw Object.assign(new Error('too many levels of symbolic links'), { code: 'ELOOP' });
    const target = sys.readlink(next);
    // An absolute target starts again from its root; a relative one from the link's folder.
    if (sys.path.isAbsolute(target)) real = sys.path.parse(target).root;
    pending.push(...split(target.slice(sys.path.isAbsolute(target) ? sys.path.parse(target).root.length : 0)).reverse());
  }
  return real;
}

function unreadable(why: string): PathReading {
  return { kind: 'unreadable', why };
}

/** A value quoted for a sentence, cut at 80 characters. */
function shown(value: string): string {
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/**
 * Paths of another machine (a remote server's): read lexically, since nothing there can be looked
 * up from here (`..` is removed, symlinks are unknown). `~` is still this machine's home.
 */
export function lexicalPaths(platform: NodeJS.Platform = process.platform): PathSystem {
  return { ...localPaths(platform), kind: () => 'missing', readlink: (p) => p };
}

/** The arguments that are absolute paths of existing folders (the first 16 such looked at): the folders a server was given. */
export function foldersAmong(args: readonly string[]): string[] {
  const folders: string[] = [];
  for (const arg of args.filter((a) => nodePath.isAbsolute(a)).slice(0, 16)) {
    try {
      if (fs.statSync(arg).isDirectory()) folders.push(arg);
    } catch {
      // Not there (yet): not a folder the server reads from.
    }
  }
  return folders;
}
