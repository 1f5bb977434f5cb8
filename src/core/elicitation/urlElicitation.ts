/**
 * Elicitation in URL mode: a server asks the user to open a page (a sign-in, a payment, a consent)
 * that it does not want to pass through the host. The URL is the server's, so it is hostile: only
 * `https:` (and `http:` to this machine) is ever offered, and nothing that hides where it leads.
 * The user sees the domain first and the whole URL; the page opens only when they agree.
 */

/** The longest URL offered: a longer one hides its end (browsers cope with 2 KB everywhere). */
export const MAX_URL_CHARS = 2048;
/** How long the host waits for a server to say an opened page is done before it stops listening. */
export const COMPLETION_WAIT_MS = 15 * 60_000;
/** At most this many pages a server may keep the host waiting on at once. */
const MAX_WAITS = 20;

/** A URL the host may offer to open: normalised, with the domain to show first. */
export interface OfferedUrl {
  readonly kind: 'offered';
  /** The URL as the browser will get it (normalised by the WHATWG parser). */
  readonly url: string;
  /** Host name (international names in punycode, `xn--…`) and a port that is not the default. */
  readonly domain: string;
  /** The domain is an international name, shown in punycode: it may imitate another site. */
  readonly punycode: boolean;
}

/** A URL the host will not open, why, and a safe one-line rendering of it for the notice. */
export interface RefusedUrl {
  readonly kind: 'refused';
  readonly why: string;
  readonly shown: string;
}

/** What a server asks in URL mode: who, during which calls, why, and where. */
export interface UrlRequest {
  readonly mode: 'url';
  readonly server: string;
  /** The tools of that server being called when it asked. */
  readonly calls?: readonly string[];
  /** Aborts when those calls have all ended: a request still waiting to be shown is then dropped (cancel). */
  readonly callsEnded?: AbortSignal;
  readonly message: string;
  readonly link: OfferedUrl | RefusedUrl;
  /** The server's id for this request; `notifications/elicitation/complete` names it when the page is done. */
  readonly elicitationId?: string;
  /** Settles true when the server says the page is done, false when the host stops waiting. */
  readonly completion?: Promise<boolean>;
}

/** Checks a URL a server wants opened: the URL to offer, or why it is refused. */
export function checkUrl(raw: unknown): OfferedUrl | RefusedUrl {
  if (typeof raw !== 'string' || raw === '') return refused('the request has no URL', '');
  const shown = shownUrl(raw);
  if (raw.length > MAX_URL_CHARS) return refused(`the URL is ${raw.length} characters long (at most ${MAX_URL_CHARS}): its end could hide where it leads`, shown);
  // The URL parser drops tabs and line breaks silently; a URL with hidden characters is a disguise.
  if (/[\s\p{Cc}\p{Cf}]/u.test(raw)) return refused('the URL contains spaces or hidden characters', shown);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refused('it is not a valid URL', shown);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refused(`only https: links are opened, not ${url.protocol}`, shown);
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) return refused('an http: link is opened only to this machine (localhost); elsewhere it must be https:', shown);
  // https://good.com@evil.com leads to evil.com: a name before "@" is only there to mislead.
  if (url.username !== '' || url.password !== '') return refused(`the URL has a user name before its host ("${shownUrl(url.username)}@…"), which hides the real site, ${url.host}`, shown);
  if (url.hostname === '') return refused('the URL has no host', shown);
  const punycode = url.hostname.split('.').some((label) => label.startsWith('xn--'));
  return { kind: 'offered', url: url.href, domain: url.host, punycode };
}

/** True for the names of this machine: localhost, 127.0.0.0/8 and ::1. */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * The pages the host opened for a server and waits on: `notifications/elicitation/complete`
 * with a page's id ends its wait. Bounded in number and time; closing the session ends every wait.
 */
export class ElicitationCompletions {
  private readonly _waits = new Map<string, { done: (completed: boolean) => void; timer: ReturnType<typeof setTimeout> }>();

  /** Settles true when `complete(id)` is called, false after `timeoutMs` or when the session closes. */
  wait(id: string, timeoutMs = COMPLETION_WAIT_MS): Promise<boolean> {
    this._end(id, false);
    if (this._waits.size >= MAX_WAITS) this._end(this._waits.keys().next().value as string, false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => this._end(id, false), timeoutMs);
      this._waits.set(id, { done: resolve, timer });
    });
  }

  /** The server says page `id` is done; false when the host was not waiting on it. */
  complete(id: string): boolean {
    return this._end(id, true);
  }

  /** The session ended: nothing more will complete. */
  closeAll(): void {
    for (const id of [...this._waits.keys()]) this._end(id, false);
  }

  private _end(id: string, completed: boolean): boolean {
    const wait = this._waits.get(id);
    if (!wait) return false;
    this._waits.delete(id);
    clearTimeout(wait.timer);
    wait.done(completed);
    return true;
  }
}

function refused(why: string, shown: string): RefusedUrl {
  return { kind: 'refused', why, shown };
}

/** A URL as one visible line: hidden characters as escapes, cut at 200 characters. */
function shownUrl(raw: string): string {
  const visible = raw.replace(/[\s\p{Cc}\p{Cf}]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
  return visible.length > 200 ? `${visible.slice(0, 199)}…` : visible;
}
