import type { Disposable } from '../events';
import { insideFolders } from '../config/launch';

/**
 * What dev mode needs of the editor: a file watcher and a debugger. The core decides when a
 * server restarts and where its inspector listens; the host only watches and attaches.
 */
export interface DevHost {
  /** The workspace folders: patterns are relative to the first, and a changed file counts only inside one of them. */
  folders(): readonly { readonly path: string }[];
  /** Watches files matching the patterns (relative to the first workspace folder); `changed` hears each created, changed or deleted file's path. */
  watch(patterns: readonly string[], changed: (file: string) => void): Disposable;
  /** Attaches a debugger to the Node inspector of `server` on 127.0.0.1:`port`. */
  attach(server: string, port: number): void;
}

/** Where dev mode cannot run (an untrusted workspace, the CLI): why, for the server's log. */
export interface DevUnavailable {
  readonly unavailable: string;
}

/** A burst of saves (a build writing many files) is one restart: the last change waits this long for the next. */
export const DEV_RESTART_DEBOUNCE_MS = 300;

/**
 * Watches a server's files and calls `restart` with the first file of each burst of changes, once
 * the burst is over. A file outside the workspace folders (a link the pattern led through) does
 * not count: a repository's server learns nothing of files elsewhere.
 */
export class DevWatch implements Disposable {
  private _timer: NodeJS.Timeout | undefined;
  private _first: string | undefined;
  private readonly _watcher: Disposable;

  constructor(host: DevHost, patterns: readonly string[], private readonly _restart: (file: string) => void, debounceMs = DEV_RESTART_DEBOUNCE_MS) {
    this._watcher = host.watch(patterns, (file) => {
      if (!insideFolders(file, host.folders())) return;
      this._first ??= file;
      clearTimeout(this._timer);
      this._timer = setTimeout(() => {
        const changed = this._first!;
        this._first = this._timer = undefined;
        this._restart(changed);
      }, debounceMs);
    });
  }

  dispose(): void {
    clearTimeout(this._timer);
    this._watcher.dispose();
  }
}
