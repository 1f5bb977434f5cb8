import type { ServerConnection } from '../connection/serverConnection';
import type { ServerPool } from '../connection/serverPool';
import { ServerState } from '../connection/serverState';
import type { Disposable } from '../events';
import { sanitizeLine, shownName } from '../render/sanitize';

/** At most one update a second reaches a subscriber: a resource that never stops changing is read once a second, not in a loop. */
export const UPDATE_GAP_MS = 1000;

interface Subscriber {
  readonly onUpdated: () => void;
  timer?: NodeJS.Timeout;
  lastTold: number;
  disposed: boolean;
}

interface WatchedServer {
  readonly connection: ServerConnection;
  readonly uris: Map<string, Set<Subscriber>>;
  readonly listeners: Disposable[];
  /** The server was found not to offer subscriptions, and the log said so. */
  warned: boolean;
}

/**
 * Subscriptions to resources (`resources/subscribe` in 2025, `subscriptions/listen` in
 * 2026-07-28: ServerConnection.watchResources says which URIs to watch, the era client how), one
 * per URI however many surfaces watch it, sent again after a restart, and unsubscribed when the
 * last watcher goes. Updates are coalesced per subscriber (UPDATE_GAP_MS).
 */
export class ResourceWatch implements Disposable {
  private readonly _servers = new Map<string, WatchedServer>();

  constructor(private readonly _pool: ServerPool) {}

  subscribe(server: string, uri: string, onUpdated: () => void): Disposable {
    const w = this._watched(server);
    const subscriber: Subscriber = { onUpdated, lastTold: 0, disposed: false };
    let set = w.uris.get(uri);
    const isNew = !set;
    if (!set) w.uris.set(uri, (set = new Set()));
    set.add(subscriber);
    if (isNew) this._sync(w);
    return {
      dispose: () => {
        if (subscriber.disposed) return;
        subscriber.disposed = true;
        clearTimeout(subscriber.timer);
        set.delete(subscriber);
        if (set.size > 0 || w.uris.get(uri) !== set) return;
        w.uris.delete(uri);
        this._sync(w);
      },
    };
  }

  dispose(): void {
    for (const w of this._servers.values()) {
      for (const set of w.uris.values()) for (const s of set) clearTimeout(s.timer);
      w.uris.clear();
      this._sync(w);
      for (const l of w.listeners) l.dispose();
    }
    this._servers.clear();
  }

  private _watched(server: string): WatchedServer {
    const connection = this._pool.get(server);
    if (!connection) throw new Error(`No server named "${shownName(server)}" is configured.`);
    const known = this._servers.get(server);
    if (known?.connection === connection) return known;
    if (known) for (const l of known.listeners) l.dispose();
    const w: WatchedServer = { connection, uris: known?.uris ?? new Map(), listeners: [], warned: false };
    w.listeners.push(
      connection.onOfferNotice((notice) => {
        if (notice.kind !== 'resource-updated') return;
        for (const s of w.uris.get(notice.uri) ?? []) tell(s);
      }),
      // A new launch holds no subscriptions: they are sent again.
      connection.onDidChangeState((state) => state.kind === 'running' && this._sync(w)),
    );
    this._servers.set(server, w);
    return w;
  }

  /** Tells the running server which URIs are watched now (nothing when it is not running: its next launch is told). */
  private _sync(w: WatchedServer): void {
    const c = w.connection;
    if (!ServerState.isRunning(c.state)) return;
    const resources = c.serverCapabilities.resources as { subscribe?: unknown } | undefined;
    if (resources?.subscribe !== true) {
      if (w.uris.size > 0 && !w.warned) c.log.info('The server does not offer resource subscriptions (capability resources.subscribe): an open resource is not refreshed when it changes.');
      w.warned ||= w.uris.size > 0;
      return;
    }
    c.watchResources([...w.uris.keys()]).catch((err: unknown) => c.log.warn(`Watching resources failed: ${sanitizeLine(err instanceof Error ? err.message : String(err))}`));
  }
}

/** An update, told at once or at the end of the gap after the last one told (coalesced). */
function tell(s: Subscriber): void {
  if (s.disposed) return;
  if (s.timer) return; // told at the end of the gap, once for all that came in it
  const wait = s.lastTold + UPDATE_GAP_MS - Date.now();
  const run = () => {
    s.timer = undefined;
    if (s.disposed) return;
    s.lastTold = Date.now();
    try {
      s.onUpdated();
    } catch {
      // a surface's own failure is its own: the next update is told all the same
    }
  };
  if (wait <= 0) run();
  else s.timer = setTimeout(run, wait);
}
