import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What path conditions need of the machine: the path flavour, whether names differ by case, the
 * home folder, and the file system (lstat and realpath). `localPaths()` is this machine's; tests
 * use it with real temporary folders.
 */
export interface PathSystem {
  readonly path: typeof nodePath.posix;
  readonly caseInsensitive: boolean;
  readonly home: string;
  /** 'link' for a symbolic link, 'present' for anything else that exists, 'missing' when nothing does. */
  kind(p: string): 'link' | 'present' | 'missing';
  realpath(p: string): string;
}

/** Where relative things are read from: the workspace folder (`${workspaceFolder}` in rules) and the server's own folder. */
export interface PathPlace {
  readonly workspaceFolder?: string;
  /** The folder the server resolves relative paths against (its launch `cwd`); without it a relative path is unreadable. */
  readonly base?: string;
}

export type PathReading = { readonly kind: 'paths'; readonly paths: readonly string[] } | { readonly kind: 'unreadable'; readonly why: string };

/** Longer argument values are not read as paths (PATH_MAX on Linux is 4,096 bytes). */
export const MAX_PATH_CHARS = 4096;

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
    realpath: (p) => fs.realpathSync(p),
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
  if (sys.path === nodePath.win32 && /^[a-z]:(?![\\/])/i.test(expanded)) return unreadable('is relative to a drive\'s current folder');
  let absolute = expanded;
  if (!sys.path.isAbsolute(expanded)) {
    if (place.base === undefined) return unreadable('is a relative path and the server\'s folder is not known');
    absolute = sys.path.join(place.base, expanded);
  }
  try {
    const kernel = realWalk(absolute, sys);
    const lexical = realWalk(sys.path.resolve(absolute), sys);
    return { kind: 'paths', paths: kernel === lexical ? [kernel] : [kernel, lexical] };
  } catch (err) {
    return unreadable(`could not be resolved (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
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
 * climbs from the link's target. The part that does not exist yet (a file about to be written)
 * is kept as written.
 */
function realWalk(absolute: string, sys: PathSystem): string {
  const root = sys.path.parse(absolute).root;
  let real = root;
  for (const segment of absolute.slice(root.length).split(sys.path === nodePath.win32 ? /[\\/]/ : '/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      real = sys.path.dirname(real);
      continue;
    }
    const next = sys.path.join(real, segment);
    real = sys.kind(next) === 'link' ? sys.realpath(next) : next;
  }
  return real;
}

function unreadable(why: string): PathReading {
  return { kind: 'unreadable', why };
}

/**
 * Paths of another machine (a remote server's): read lexically, since nothing there can be looked
 * up from here (`..` is removed, symlinks are unknown). `~` is still this machine's home.
 */
export function lexicalPaths(platform: NodeJS.Platform = process.platform): PathSystem {
  return { ...localPaths(platform), kind: () => 'missing', realpath: (p) => p };
}
