import { MAX_LIST_PAGES } from '../connection/listingLimits';
import { weightOf } from '../jsonWeight';
import { sanitizeLine } from '../render/sanitize';
import type { ServerLog } from '../serverLog';
import type { OfferList } from './offerTypes';

/** Entries one listing of a server's resources (or templates, prompts) may hold: as many as its tools may. */
export const DEFAULT_MAX_OFFERS = 20_000;
/** The weight of one listing across its pages: one message's worth, as for tools. */
export const DEFAULT_MAX_OFFER_BYTES = 64 * 1024 * 1024;

export interface OfferListing<T> {
  /** `resources/list`: the request method, named in warnings. */
  readonly method: string;
  /** The key of the page's list (`resources`, `resourceTemplates`, `prompts`). */
  readonly key: string;
  /** Asks for one page (no cursor: the first) and returns the answer unchecked. */
  readonly fetchPage: (cursor: string | undefined) => Promise<unknown>;
  /** The entry as we keep it, or why it is left out. */
  readonly check: (raw: Record<string, unknown>) => T | string;
  readonly log: ServerLog;
  readonly maxItems?: number;
  readonly maxBytes?: number;
}

/**
 * Every page of a listing, bounded in pages, entries and bytes like the tool listing: past a
 * limit the walk stops and keeps what it had, `cut` saying why in words (a server's resources
 * are browsed, not trusted for calls: a partial list is useful, and says it is partial). Each
 * entry is checked on its own, so one malformed entry is left out with a log line.
 */
export async function listOffers<T>(listing: OfferListing<T>): Promise<OfferList<T>> {
  const { method, key, log } = listing;
  const maxItems = listing.maxItems ?? DEFAULT_MAX_OFFERS;
  const maxBytes = listing.maxBytes ?? DEFAULT_MAX_OFFER_BYTES;
  const items: T[] = [];
  const seen = new Set<string>();
  let bytes = 0;
  let pages = 0;
  let cursor: string | undefined;
  do {
    if (pages >= MAX_LIST_PAGES) return { items, cut: `${method}: stopped after ${MAX_LIST_PAGES} pages; the server's pagination did not end` };
    const answer = await listing.fetchPage(cursor);
    pages++;
    const list = isObject(answer) ? answer[key] : undefined;
    if (!Array.isArray(list)) {
      if (pages === 1) throw new Error(`${method}: the answer has no "${key}" list`);
      return { items, cut: `${method}: page ${pages} has no "${key}" list` };
    }
    for (const [i, raw] of list.entries()) {
      const weight = weightOf(raw);
      bytes += weight ?? 0;
      if (bytes > maxBytes) return { items, cut: `${method}: the list passed ${mib(maxBytes)} after ${pages} pages and was cut there` };
      if (items.length >= maxItems) return { items, cut: `${method}: more than ${maxItems} entries; the rest were left out` };
      const checked = weight === undefined ? 'it is nested too deeply to read' : isObject(raw) ? listing.check(raw) : 'it is not an object';
      if (typeof checked === 'string') log.warn(`${method}: entry ${i + 1} of page ${pages} was left out: ${checked}.`);
      else items.push(checked);
    }
    const next = isObject(answer) && typeof answer.nextCursor === 'string' ? answer.nextCursor : undefined;
    // A cursor seen before would walk the same pages again: the listing ends there.
    if (next !== undefined && seen.has(next)) return { items, cut: `${method}: the server sent a cursor it had sent before; the listing ends there` };
    if (next !== undefined) seen.add(next);
    cursor = next;
  } while (cursor !== undefined);
  return { items };
}

/** Longest kept of a server's string (a name, a description): a hostile one may be megabytes. */
const MAX_TEXT = 4096;

/** A string field of an entry: undefined when absent; `false` when present and not text. */
export function textField(raw: Record<string, unknown>, key: string): string | undefined | false {
  const value = raw[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return false;
  return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
}

/** One line of a server's text, safe to show in a row or a log line. */
export const lineOf = (text: string) => sanitizeLine(text);

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const mib = (bytes: number) => `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
