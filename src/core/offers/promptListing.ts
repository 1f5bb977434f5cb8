import { MAX_LIST_PAGES } from '../connection/listingLimits';
import { sanitizeLine, shownName } from '../render/sanitize';
import type { ServerLog } from '../serverLog';
import type { OfferList, PromptArgumentEntry, PromptEntry } from './offerTypes';

/** Prompts one server may list: far past any real server's, and each is a row, a chat command and a picker item. */
export const MAX_PROMPTS = 10_000;
/** The weight of what is kept of one listing (names, titles, descriptions): a server's pages are each under the message cap, not their sum. */
export const MAX_PROMPT_LIST_CHARS = 16 * 1024 * 1024;
/** Arguments one prompt may have: a form of more is no form. */
export const MAX_PROMPT_ARGUMENTS = 100;
/** A name, title or argument name is cut past this (a description past MAX_DESCRIPTION_CHARS). */
const MAX_NAME_CHARS = 500;
const MAX_DESCRIPTION_CHARS = 4000;

/** Asks the server for one page of `prompts/list` (no cursor: the first) and returns the answer unchecked. */
export type PromptPageFetcher = (cursor: string | undefined) => Promise<unknown>;

/**
 * Every page of `prompts/list`, bounded as tool listings are (pages, entries, weight): past a
 * limit the walk stops and `cut` says why, so a partial list is never passed off as the server's
 * whole. Each prompt is checked on its own: a malformed one is left out with a log line, not the list.
 */
export async function listAllPrompts(fetchPage: PromptPageFetcher, server: string, log: ServerLog): Promise<OfferList<PromptEntry>> {
  const items: PromptEntry[] = [];
  const seen = new Set<string>();
  let chars = 0;
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    if (page > MAX_LIST_PAGES) return { items, cut: `prompts/list: more than ${MAX_LIST_PAGES} pages; the server's pagination did not end, so only the first ${MAX_LIST_PAGES} are shown` };
    const answer = await fetchPage(cursor);
    if (!isObject(answer) || !Array.isArray(answer.prompts)) throw new Error(`prompts/list: page ${page} has no "prompts" list`);
    for (const [i, raw] of answer.prompts.entries()) {
      const checked = checkPrompt(raw, server);
      if (typeof checked === 'string') {
        log.warn(`Prompt ${isObject(raw) && typeof raw.name === 'string' ? `"${shortName(raw.name)}"` : `${i + 1} of page ${page}`} was left out: ${checked}.`);
        continue;
      }
      if (seen.has(checked.name)) {
        log.warn(`Prompt "${shortName(checked.name)}" was listed twice: the second was left out.`);
        continue;
      }
      if (items.length >= MAX_PROMPTS) return { items, cut: `prompts/list: more than ${MAX_PROMPTS} prompts; only the first ${MAX_PROMPTS} are shown` };
      chars += weightOf(checked);
      if (chars > MAX_PROMPT_LIST_CHARS) return { items, cut: `prompts/list: the prompts passed ${MAX_PROMPT_LIST_CHARS / (1024 * 1024)} MiB of text after ${page} pages; only those before are shown` };
      seen.add(checked.name);
      items.push(checked);
    }
    const next = typeof answer.nextCursor === 'string' ? answer.nextCursor : undefined;
    // The same cursor back again: the walk would never end; what came is what there is.
    if (next === undefined || next === cursor) return { items };
    cursor = next;
  }
}

/** The prompt as surfaces see it (strings checked, cut to sane lengths, made one line), or why it is left out. */
function checkPrompt(raw: unknown, server: string): PromptEntry | string {
  if (!isObject(raw)) return 'it is not an object';
  if (typeof raw.name !== 'string' || raw.name === '') return 'it has no name';
  if (raw.name.length > MAX_NAME_CHARS) return `its name is longer than ${MAX_NAME_CHARS} characters`;
  for (const key of ['title', 'description'] as const) {
    if (raw[key] !== undefined && typeof raw[key] !== 'string') return `its ${key} is not text`;
  }
  const args: PromptArgumentEntry[] = [];
  if (raw.arguments !== undefined) {
    if (!Array.isArray(raw.arguments)) return 'its arguments are not a list';
    if (raw.arguments.length > MAX_PROMPT_ARGUMENTS) return `it has more than ${MAX_PROMPT_ARGUMENTS} arguments`;
    const names = new Set<string>();
    for (const a of raw.arguments) {
      if (!isObject(a) || typeof a.name !== 'string' || a.name === '') return 'an argument has no name';
      if (a.name.length > MAX_NAME_CHARS) return `an argument's name is longer than ${MAX_NAME_CHARS} characters`;
      if (names.has(a.name)) return `its argument "${shownName(a.name)}" is named twice`;
      if ((a.title !== undefined && typeof a.title !== 'string') || (a.description !== undefined && typeof a.description !== 'string')) return `its argument "${shownName(a.name)}" has a title or description that is not text`;
      names.add(a.name);
      args.push({ name: a.name, ...line('title', a.title, MAX_NAME_CHARS), ...line('description', a.description, MAX_DESCRIPTION_CHARS), required: a.required === true });
    }
  }
  return { server, name: raw.name, ...line('title', raw.title, MAX_NAME_CHARS), ...line('description', raw.description, MAX_DESCRIPTION_CHARS), arguments: args };
}

/** A server's prose as one safe line, cut with "…" past `max` characters; nothing when absent or empty. */
function line<K extends string>(key: K, value: unknown, max: number): Partial<Record<K, string>> {
  if (typeof value !== 'string') return {};
  const text = sanitizeLine(value.length > max ? `${value.slice(0, max)}…` : value).trim();
  return text ? ({ [key]: text } as Partial<Record<K, string>>) : {};
}

function weightOf(p: PromptEntry): number {
  let chars = p.name.length + (p.title?.length ?? 0) + (p.description?.length ?? 0);
  for (const a of p.arguments) chars += a.name.length + (a.title?.length ?? 0) + (a.description?.length ?? 0);
  return chars;
}

const shortName = (name: string) => shownName(name.length > 200 ? `${name.slice(0, 200)}…` : name);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
