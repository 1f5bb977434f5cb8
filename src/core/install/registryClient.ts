import { readEntry, type DroppedEntry } from './registryEntry';
import { isObject } from './registryServerJson';
import type { RegistryClient, RegistryEntry, RegistryPage } from './registryTypes';

/** How long one page may take, answer and body (a registry that trickles is as good as none). */
export const DEFAULT_TIMEOUT_MS = 15_000;
/** The largest answer read; a page of 100 honest entries is well under 1 MiB. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/** The API's own bound on `limit`, and the most entries of one page that are read. */
export const MAX_PAGE_ENTRIES = 100;
const DEFAULT_LIMIT = 30;
/** A cursor is opaque, but not a place to send megabytes back through. */
const MAX_CURSOR_CHARS = 2048;
const MAX_REDIRECTS = 3;

/** A registry that could not be asked or did not answer as the v0.1 API does: one sentence for the user. */
export class RegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RegistryError';
  }
}

/**
 * The problem with a registry base URL, or undefined: https, or http to this machine only (a page
 * fetched in the clear can be rewritten on the way), and no credentials in it.
 */
export function checkRegistryUrl(baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return `"${baseUrl}" is not a URL.`;
  }
  if (url.username || url.password) return 'A registry URL must not carry a user name or password.';
  if (url.search || url.hash) return 'A registry URL is a base address, without "?" or "#".';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i.test(url.hostname)) return undefined;
  return `The registry URL must be https (http only to this machine), not "${baseUrl}".`;
}

/**
 * A client of a registry's read API v0.1 (the official registry, or an organisation's own at the
 * same paths): `GET {base}/v0.1/servers?search=&cursor=&limit=&version=latest`. Each page is read
 * within `timeoutMs` and MAX_RESPONSE_BYTES, and each entry is checked (readEntry) before a
 * surface sees it. Throws RegistryError for a base URL that is not https.
 */
export function newRegistryClient(options: { baseUrl: string; timeoutMs?: number; maxBytes?: number }): RegistryClient {
  const problem = checkRegistryUrl(options.baseUrl);
  if (problem) throw new RegistryError(problem);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? MAX_RESPONSE_BYTES;
  return {
    baseUrl,
    async search(query, { cursor, limit, signal, version } = {}) {
      const url = new URL(`${baseUrl}/v0.1/servers`);
      if (query.trim()) url.searchParams.set('search', query.trim().slice(0, 200));
      if (cursor) url.searchParams.set('cursor', cursor);
      url.searchParams.set('limit', String(Math.max(1, Math.min(MAX_PAGE_ENTRIES, Math.floor(limit ?? DEFAULT_LIMIT)))));
      url.searchParams.set('version', version?.trim() || 'latest');
      const body = await fetchJson(url, baseUrl, timeoutMs, maxBytes, signal);
      return readPage(body, baseUrl, cursor);
    },
  };
}

/** One page of the answer as entries and what was dropped, each with why. */
export function readPage(body: unknown, baseUrl: string, cursor?: string): RegistryPage {
  if (!isObject(body) || !Array.isArray(body.servers)) throw new RegistryError(`The registry at ${baseUrl} did not answer as the v0.1 API does (no "servers" list).`);
  const entries: RegistryEntry[] = [];
  const dropped: DroppedEntry[] = [];
  for (const item of body.servers.slice(0, MAX_PAGE_ENTRIES)) {
    const read = readEntry(item, baseUrl);
    if ('entry' in read) entries.push(read.entry);
    else dropped.push(read.dropped);
  }
  if (body.servers.length > MAX_PAGE_ENTRIES) dropped.push({ name: `(${body.servers.length - MAX_PAGE_ENTRIES} more)`, reason: `the page held ${body.servers.length} entries; only the first ${MAX_PAGE_ENTRIES} are read` });
  const metadata = isObject(body.metadata) ? body.metadata : {};
  const next = metadata.nextCursor ?? metadata.next_cursor;
  // A cursor that is not text, too long, or the one just sent would page forever or nowhere.
  const nextCursor = typeof next === 'string' && next !== '' && next.length <= MAX_CURSOR_CHARS && next !== cursor ? next : undefined;
  return { entries, ...(nextCursor ? { nextCursor } : {}), dropped };
}

/** GETs `url` and parses its JSON, within the time and size bounds; the caller's abort passes through as it is. */
async function fetchJson(url: URL, baseUrl: string, timeoutMs: number, maxBytes: number, signal: AbortSignal | undefined): Promise<unknown> {
  const bytes = await fetchBounded(url, {
    who: `The registry at ${baseUrl}`,
    tooBig: `The registry's answer is over ${Math.round(maxBytes / (1024 * 1024))} MiB: not read.`,
    accept: 'application/json',
    timeoutMs,
    maxBytes,
    signal,
  });
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    throw new RegistryError(`The registry at ${baseUrl} did not answer with JSON.`);
  }
}

/** How one bounded GET is made and spoken of. */
export interface BoundedFetch {
  /** Who answers, as the start of a sentence: `The registry at https://...`. */
  readonly who: string;
  /** The sentence for an answer over `maxBytes`. */
  readonly tooBig: string;
  readonly accept: string;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly signal?: AbortSignal;
}

/**
 * GETs `url` (https, or http to this machine) and reads its whole body within `timeoutMs` (the
 * answer and the body) and `maxBytes` (stopped while it streams). Redirects are followed by hand,
 * each checked before it is asked. Failures are RegistryErrors of one sentence; the caller's abort
 * passes through as it is.
 */
export async function fetchBounded(url: URL, options: BoundedFetch): Promise<Buffer> {
  const { who, signal, timeoutMs, maxBytes } = options;
  const timeout = AbortSignal.timeout(timeoutMs);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const tooSlow = () => new RegistryError(`${who} did not answer within ${Math.round(timeoutMs / 1000)} s.`);
  let response: Response | undefined;
  let at = url;
  // A registry or a download may move, but not to plain http.
  for (let hop = 0; ; hop++) {
    try {
      response = await fetch(at, { signal: both, redirect: 'manual', headers: { accept: options.accept } });
    } catch (err) {
      if (signal?.aborted) throw err;
      if (timeout.aborted) throw tooSlow();
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new RegistryError(`${who} could not be reached (${cause?.code ?? cause?.message ?? (err as Error).message}).`);
    }
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    if (location === null) break;
    await response.body?.cancel();
    const next = new URL(location, at);
    if (next.username || next.password || checkRegistryUrl(`${next.origin}${next.pathname}`) !== undefined) throw new RegistryError(`${who} sent the request on to ${next.origin}, which is not https: not asked.`);
    if (hop >= MAX_REDIRECTS) throw new RegistryError(`${who} sent the request on more than ${MAX_REDIRECTS} times.`);
    at = next;
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new RegistryError(`${who} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`);
  }
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel();
    throw new RegistryError(options.tooBig);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    const reader = response.body?.getReader();
    for (;;) {
      const read = await reader?.read();
      if (!read || read.done) break;
      size += read.value.byteLength;
      if (size > maxBytes) {
        await reader!.cancel();
        throw new RegistryError(options.tooBig);
      }
      chunks.push(read.value);
    }
  } catch (err) {
    if (err instanceof RegistryError || signal?.aborted) throw err;
    if (timeout.aborted) throw tooSlow();
    throw new RegistryError(`${who} broke off its answer (${(err as Error).message}).`);
  }
  return Buffer.concat(chunks);
}
