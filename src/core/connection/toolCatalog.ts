import type { Tool } from '@modelcontextprotocol/client';
import { Emitter, type Disposable } from '../events';
import type { ServerLog } from '../serverLog';
import { sanitizeLine } from '../render/sanitize';
import { mergeDuplicateTools } from '../tools/duplicateTools';
import { toolNamed } from '../tools/toolNamed';

/** How soon and how late a listing that went stale (its `ttlMs`) is fetched again. */
export const TTL_BOUNDS_MS = { min: 2_000, max: 60 * 60_000 } as const;

/** list_changed notifications often come in bursts: one `tools/list` after the last of them. */
const LIST_CHANGED_DEBOUNCE_MS = 250;

/** One listing: how long it took, and how many tools it found or why it failed. */
export interface ListingRecord {
  readonly durationMs: number;
  readonly tools?: number;
  readonly error?: string;
}

/** Where the last-known tool list of a server is kept, so the tree can show it at once. */
export interface ToolCache {
  load(): readonly Tool[] | undefined;
  save(tools: readonly Tool[]): void;
}

/** What lists the tools: the live session's client (sdkClient.ts). */
export interface ToolLister {
  readonly offersTools: boolean;
  listTools(): Promise<Tool[]>;
}

/**
 * One server's tools: the cached list shown at once, replaced by each listing of the live
 * server (every page, within the limits of toolListing.ts), listed again shortly after `list_changed`.
 */
export class ToolCatalog implements Disposable {
  private readonly _onDidChange = new Emitter<readonly Tool[]>();
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidList = new Emitter<ListingRecord>();
  /** Fires after each listing of the live server, whether it changed anything or failed (telemetry hears it). */
  readonly onDidList = this._onDidList.event;

  private _tools: readonly Tool[] = [];
  private _fromCache = false;
  private _listingError: string | undefined;
  private _relistTimer: NodeJS.Timeout | undefined;
  private _listing: Promise<void> | undefined;
  /** Who made the last listing (one client per session) and the names it listed, to tell a listing that changed nothing. */
  private _lastListing: { readonly lister: ToolLister; readonly names: readonly string[] } | undefined;

  constructor(private readonly _log: ServerLog, private readonly _cache?: ToolCache) {
    const cached = _cache?.load();
    if (cached) {
      this._tools = cached;
      this._fromCache = true;
    }
  }

  get tools(): readonly Tool[] {
    return this._tools;
  }

  /** True while the tools shown are the last-known list, not yet confirmed by the live server. */
  get fromCache(): boolean {
    return this._fromCache;
  }

  /** Why the last listing failed ("Listing tools failed: …"); undefined once one succeeded. */
  get listingError(): string | undefined {
    return this._listingError;
  }

  /** The tool with this name, as last listed (the first of that name): a lookup, not a search, with 10,000 tools listed. */
  find(name: string): Tool | undefined {
    return toolNamed(this._tools, name);
  }

  /**
   * Lists the tools of a server that offers them. `isCurrent` is asked after the answer: a late
   * answer from an older launch is dropped.
   */
  list(lister: ToolLister, isCurrent: () => boolean): Promise<void> {
    const listing = this._list(lister, isCurrent).finally(() => {
      if (this._listing === listing) this._listing = undefined;
    });
    this._listing = listing;
    return listing;
  }

  /** The listing under way, if one is: a call that finds no tool yet waits for it. */
  get listing(): Promise<void> | undefined {
    return this._listing;
  }

  private async _list(lister: ToolLister, isCurrent: () => boolean): Promise<void> {
    if (!lister.offersTools) return;
    const started = performance.now();
    try {
      const listed = mergeDuplicateTools(await lister.listTools());
      if (!isCurrent()) return;
      this._onDidList.fire({ durationMs: performance.now() - started, tools: listed.tools.length });
      const tools = listed.tools;
      for (const name of listed.duplicates) this._log.warn(`The server lists several tools named "${sanitizeLine(name)}": shown once, and every call to it is treated at the riskiest of them.`);
      this._tools = tools;
      this._fromCache = false;
      this._listingError = undefined;
      this._cache?.save(tools);
      // A session's listing again (list_changed, a stale listing, Refresh) is logged only when its tools
      // changed: server-everything says list_changed right after start, which would log every listing
      // twice. Names only: comparing 10,000 definitions would hold the event loop; a changed
      // definition is the pins' to tell (policy/toolPin.ts).
      const names = tools.map((t) => t.name);
      const again = this._lastListing?.lister === lister;
      if (!again || !sameNames(this._lastListing!.names, names)) this._log.info(`${tools.length} tool${tools.length === 1 ? '' : 's'} listed${again ? ' (the list changed)' : ''}.`);
      this._lastListing = { lister, names };
      this._onDidChange.fire(tools);
    } catch (err) {
      if (!isCurrent()) return;
      this._listingError = `Listing tools failed: ${err instanceof Error ? err.message : String(err)}`;
      this._log.error(this._listingError);
      this._onDidList.fire({ durationMs: performance.now() - started, error: this._listingError });
    }
  }

  /** Runs `relist` once the burst of list_changed notifications is over. */
  relistSoon(relist: () => Promise<void>): void {
    clearTimeout(this._relistTimer);
    this._relistTimer = setTimeout(() => void relist(), LIST_CHANGED_DEBOUNCE_MS);
  }

  /**
   * Lists again when the listing goes stale: a 2026-07-28 server says how long a listing stays
   * fresh (`ttlMs`), and tells a client that does not listen of no change. Kept within
   * TTL_BOUNDS_MS, so a server cannot have us list flat out, nor never again.
   */
  relistAfter(ttlMs: number, relist: () => Promise<void>): void {
    clearTimeout(this._relistTimer);
    this._relistTimer = setTimeout(() => void relist(), Math.min(TTL_BOUNDS_MS.max, Math.max(TTL_BOUNDS_MS.min, ttlMs)));
  }

  /** The session ended: a pending re-list would ask a client that is gone. */
  cancelRelist(): void {
    clearTimeout(this._relistTimer);
  }

  dispose(): void {
    this.cancelRelist();
    this._onDidChange.dispose();
    this._onDidList.dispose();
  }
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name === b[i]);
}
