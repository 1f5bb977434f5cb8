import * as fs from 'node:fs';
import * as path from 'node:path';
import picomatch from 'picomatch';
import type { Disposable } from '../events';

/** A glob character: a pattern's folder is the part before the first segment that has one. */
const MAGIC = /[*?[\]{}()!]/;

/** One pattern's folder and how to watch it. */
interface Ear {
  readonly folder: string;
  readonly recursive: boolean;
  watcher?: fs.FSWatcher;
  /** The folder's inode when watched: a folder deleted and made again (a clean build) is watched again. */
  ino?: number;
}

/**
 * Dev mode's own ear on the watched folders: Node's fs.watch, in the extension host. VS Code's
 * watcher (@parcel/watcher on Linux) often never watches a folder made together with its parent
 * (`mkdir -p build/tools`, as a build does), so no save below it is heard; Node's recursive watch
 * does. DevWatch makes the two watchers' news of one save one restart.
 *
 * Each pattern's folder up to its first wildcard is watched, recursively when the rest spans folders
 * (`build/**\/*.js`: build/, recursively), and its parent folder plainly, to hear the folder come and go.
 * A pattern whose wildcard starts at the workspace folder and spans folders (`**\/*.js`) is left to
 * VS Code's watcher: a recursive watch of the whole workspace, node_modules and all, costs too much.
 */
export class DevFolderWatch implements Disposable {
  private readonly _ears: Ear[] = [];
  /** The plain watches of the ears' parent folders (or their nearest ancestor that exists), by path. */
  private readonly _parents = new Map<string, fs.FSWatcher>();
  private readonly _matches: (relative: string) => boolean;
  private _disposed = false;

  constructor(private readonly _root: string, patterns: readonly string[], private readonly _changed: (file: string) => void) {
    this._matches = picomatch([...patterns], { dot: true });
    const seen = new Set<string>();
    for (const pattern of patterns) {
      const ear = earFor(_root, pattern);
      if (!ear || seen.has(`${ear.folder}\0${ear.recursive}`)) continue;
      seen.add(`${ear.folder}\0${ear.recursive}`);
      this._ears.push(ear);
    }
    this.rearm(true);
  }

  /**
   * Watches each folder that exists now and is not watched (made since, or made again); one that
   * appeared after the first arming counts as changed, since the files a build wrote into it at once
   * may have come before its watch.
   */
  rearm(first = false): void {
    if (this._disposed) return;
    const parents = new Set<string>();
    for (const ear of this._ears) {
      const ino = inodeOf(ear.folder);
      if (ino !== ear.ino) {
        ear.watcher?.close();
        ear.watcher = ear.ino = undefined;
        if (ino !== undefined && this._arm(ear, ino) && !first) this._changed(ear.folder);
      }
      const parent = existingAncestor(ear.folder, this._root);
      if (parent) parents.add(parent);
    }
    for (const [folder, watcher] of this._parents) {
      if (parents.has(folder)) continue;
      watcher.close();
      this._parents.delete(folder);
    }
    for (const folder of parents) if (!this._parents.has(folder)) this._watchParent(folder);
  }

  dispose(): void {
    this._disposed = true;
    for (const ear of this._ears) ear.watcher?.close();
    for (const watcher of this._parents.values()) watcher.close();
  }

  private _arm(ear: Ear, ino: number): boolean {
    // A folder that is (or passes through) a link out of the workspace is not watched: a recursive
    // watch of what it points at could be the user's whole disk.
    if (!insideReal(ear.folder, this._root)) return false;
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(ear.folder, { recursive: ear.recursive, persistent: false });
    } catch {
      return false; // not watchable here (no watches left): VS Code's watcher still hears
    }
    ear.watcher = watcher;
    ear.ino = ino;
    watcher.on('error', () => {
      watcher.close();
      if (ear.watcher === watcher) ear.watcher = ear.ino = undefined;
    });
    watcher.on('change', (_kind, name) => {
      if (typeof name !== 'string' || !name) return;
      const file = path.join(ear.folder, name);
      if (this._matches(path.relative(this._root, file).split(path.sep).join('/'))) this._changed(file);
    });
    return true;
  }

  private _watchParent(folder: string): void {
    try {
      const watcher = fs.watch(folder, { persistent: false }, () => this.rearm());
      watcher.on('error', () => {
        watcher.close();
        this._parents.delete(folder);
      });
      this._parents.set(folder, watcher);
    } catch {
      // not watchable: the folder is watched from the next save VS Code's watcher hears
    }
  }
}

/** A folder's inode, or undefined when it is not a folder (yet). */
function inodeOf(folder: string): number | undefined {
  try {
    const s = fs.statSync(folder);
    return s.isDirectory() ? s.ino : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `folder`, links followed, is `root` or inside it. */
function insideReal(folder: string, root: string): boolean {
  try {
    const relative = path.relative(fs.realpathSync(root), fs.realpathSync(folder));
    return !relative.startsWith('..') && !path.isAbsolute(relative);
  } catch {
    return false;
  }
}

/** The nearest folder above `folder` that exists, within `root` (`root` itself at most); none for `root`. */
function existingAncestor(folder: string, root: string): string | undefined {
  for (let dir = path.dirname(folder); ; dir = path.dirname(dir)) {
    if (path.relative(root, dir).startsWith('..')) return undefined;
    if (inodeOf(dir) !== undefined) return dir;
    if (dir === root || dir === path.dirname(dir)) return undefined;
  }
}

/** The folder a pattern's files are under and whether files below its subfolders match; none for a whole-workspace recursive pattern. */
function earFor(root: string, pattern: string): Ear | undefined {
  const segments = pattern.split(/[/\\]/).filter((s) => s !== '' && s !== '.');
  const firstMagic = segments.findIndex((s) => MAGIC.test(s));
  // A plain path names one file: its folder, alone.
  if (firstMagic < 0) return { folder: path.join(root, ...segments.slice(0, -1)), recursive: false };
  const rest = segments.slice(firstMagic);
  const recursive = rest.length > 1 || rest.some((s) => s.includes('**'));
  if (firstMagic === 0 && recursive) return undefined;
  return { folder: path.join(root, ...segments.slice(0, firstMagic)), recursive };
}
