import type { Disposable } from '../events';
import type { OfferList, PromptEntry } from './offerTypes';

/** How long after a server's first change notice its listeners hear of it: a storm of notices is one change. */
export const CHANGE_DELAY_MS = 100;

interface Entry {
  /** The last listing (or the one under way); undefined when none is kept. */
  listing?: Promise<OfferList<PromptEntry>>;
  /** False once the server said its prompts changed after `listing` began. */
  fresh: boolean;
  /** The listing under way, if any. */
  inFlight?: Promise<OfferList<PromptEntry>>;
  /** The listing that starts when the one under way ends (every caller in between shares it). */
  next?: Promise<OfferList<PromptEntry>>;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Each server's prompt listing, kept until the server says it changed or its session ends.
 * Listings never overlap: callers while one runs share it, and callers after a change share the
 * one listing that follows it, so a `list_changed` storm costs at most one listing after another.
 * Listeners hear of a change once per CHANGE_DELAY_MS, however many notices came.
 */
export class PromptCache implements Disposable {
  private readonly _entries = new Map<string, Entry>();

  constructor(private readonly _list: (server: string) => Promise<OfferList<PromptEntry>>, private readonly _changed: (server: string) => void) {}

  get(server: string): Promise<OfferList<PromptEntry>> {
    const entry = this._entry(server);
    if (entry.listing && entry.fresh) return entry.listing;
    if (entry.next) return entry.next;
    if (!entry.inFlight) return this._start(server, entry);
    const next = entry.inFlight.catch(() => undefined).then(() => {
      entry.next = undefined;
      return this._start(server, entry);
    });
    entry.next = next;
    return next;
  }

  /** The server said its prompts changed. */
  changed(server: string): void {
    const entry = this._entry(server);
    entry.fresh = false;
    this._tell(server, entry);
  }

  /** The server's session ended or a new one began: nothing listed before holds. */
  restarted(server: string): void {
    const entry = this._entry(server);
    entry.listing = undefined;
    entry.fresh = false;
    this._tell(server, entry);
  }

  private _start(server: string, entry: Entry): Promise<OfferList<PromptEntry>> {
    const listing = this._list(server);
    entry.listing = entry.inFlight = listing;
    entry.fresh = true;
    const done = () => {
      if (entry.inFlight === listing) entry.inFlight = undefined;
    };
    // A failed listing is not kept: the next caller asks again.
    listing.then(done, () => {
      done();
      if (entry.listing === listing) entry.listing = undefined;
    });
    return listing;
  }

  private _tell(server: string, entry: Entry): void {
    entry.timer ??= setTimeout(() => {
      entry.timer = undefined;
      this._changed(server);
    }, CHANGE_DELAY_MS);
  }

  private _entry(server: string): Entry {
    let entry = this._entries.get(server);
    if (!entry) this._entries.set(server, (entry = { fresh: false }));
    return entry;
  }

  dispose(): void {
    for (const entry of this._entries.values()) clearTimeout(entry.timer);
    this._entries.clear();
  }
}
