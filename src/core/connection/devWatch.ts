import * as fs from 'node:fs';
import type { DevSettings } from '../config/devConfig';
import type { Disposable } from '../events';
import type { ServerLog } from '../serverLog';

/**
 * What dev mode needs of the editor: a file watcher and a debugger. The core decides when a
 * server restarts and where its inspector listens; the host only watches and attaches.
 */
export interface DevHost {
  /** The workspace folders: patterns are relative to the first, and a changed file counts only inside one of them. */
  folders(): readonly { readonly path: string }[];
  /** Watches files matching the patterns (relative to the first workspace folder); `changed` hears each created, changed or deleted file's path. */
  watch(patterns: readonly string[], changed: (file: string) => void): Disposable;
  /** Attaches a debugger to the Node inspector of `server` on 127.0.0.1:`port`; `detach` ends that debug session. */
  attach(server: string, port: number): DebugAttachment;
}

/** A debug session the host started for one launch: ended before the server stops, so it does not reach for a process that is gone. */
export interface DebugAttachment {
  detach(): Promise<void>;
}

/** Where dev mode cannot run (an untrusted workspace, the CLI): why, for the server's log. */
export interface DevUnavailable {
  readonly unavailable: string;
}

/** A burst of saves (a build writing many files) is one restart: the last change waits this long for the next. */
export const DEV_RESTART_DEBOUNCE_MS = 300;

/** A build may touch many files: past this many, what was heard is forgotten (a repeat then restarts once more, at worst). */
const MAX_HEARD_FILES = 10_000;

/** What a file is now, to tell a new save from news of one already heard. */
function statLine(file: string): string {
  try {
    const s = fs.statSync(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch {
    return 'gone';
  }
}

/**
 * Watches a server's files and calls `restart` with what to say of the first file of each burst of changes, once
 * the burst is over. A file outside the workspace folders (a link the pattern led through) does
 * not count: a repository's server learns nothing of files elsewhere.
 */
export class DevWatch implements Disposable {
  private _timer: NodeJS.Timeout | undefined;
  private _first: string | undefined;
  private readonly _watcher: Disposable;
  /** Each changed file as last heard (its stat): the host's two ears telling of one save, the second maybe after the restart, restart it once. */
  private readonly _heard = new Map<string, string>();

  /** `inside`: whether a changed file (links followed) is inside a workspace folder. */
  constructor(host: DevHost, patterns: readonly string[], inside: (file: string) => boolean, private readonly _restart: (logLine: string, callFailure: string) => void, debounceMs = DEV_RESTART_DEBOUNCE_MS) {
    this._watcher = host.watch(patterns, (file) => {
      if (!inside(file) || this._heardBefore(file)) return;
      this._first ??= file;
      clearTimeout(this._timer);
      this._timer = setTimeout(() => {
        const changed = this._first!;
        this._first = this._timer = undefined;
        this._restart(`Dev mode: restarting, ${changed} changed.`, `The server restarted because ${changed} changed (dev mode); the call did not finish.`);
      }, debounceMs);
    });
  }

  /** Whether this news of `file` was heard already: the file is as it was when last heard (same inode, size and modification time, or gone both times). */
  private _heardBefore(file: string): boolean {
    const now = statLine(file);
    if (this._heard.get(file) === now) return true;
    if (this._heard.size >= MAX_HEARD_FILES) this._heard.clear();
    this._heard.set(file, now);
    return false;
  }

  dispose(): void {
    clearTimeout(this._timer);
    this._watcher.dispose();
  }
}

/** What dev mode will not do for a launch (no watcher or debugger here, a debugger type not supported), said in the log rather than ignored. */
export function devNotes(dev: DevSettings, host: DevHost | DevUnavailable | undefined, log: ServerLog): void {
  if (!host || !('watch' in host)) return log.warn(`Dev mode ("dev") is off: ${host?.unavailable ?? 'this host does not watch files or attach debuggers'}. The server starts as usual.`);
  if (dev.debug && dev.debug.type !== 'node') log.warn(`Dev mode: debugger type "${dev.debug.type}" is not supported (only "node"); the server starts without a debugger.`);
}
