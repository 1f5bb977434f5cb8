import type { PromptContext } from './promptContext';

/**
 * Elicitation in URL mode: a server asks the user to open a page (a sign-in, a payment, a consent)
 * that it does not want to pass through the host. The URL is the server's, so it is hostile:
 * linkCheck.ts decides which links are offered and names the site each leads to. The user sees the
 * site first and the whole URL; the page opens only when they agree.
 */

/** How long the host waits for a server to say an opened page is done before it stops listening. */
export const COMPLETION_WAIT_MS = 15 * 60_000;
/** At most this many pages a server may keep the host waiting on at once. */
const MAX_WAITS = 20;

/** A URL the host may offer to open (linkCheck.ts): normalised, with the site to show first. */
export interface OfferedUrl {
  readonly kind: 'offered';
  /** The URL as the browser will get it (normalised by the WHATWG parser). */
  readonly url: string;
  /** The whole host name (international names in punycode, `xn--…`) and a port that is not the default. */
  readonly domain: string;
  /**
   * Who the page belongs to, shown before anything else (a prompt is cut at its end): the
   * registrable domain (`evil.xyz` of `login.microsoftonline.com.<padding>.evil.xyz`), an IP
   * address, or a name of this machine; with a port that is not the default.
   */
  readonly site: string;
  /** The host is an IP address of another machine: no name says who runs the page. */
  readonly ip: boolean;
  /** The host is an international name, shown in punycode: it may imitate another site. */
  readonly punycode: boolean;
  /** That name in Unicode, as a browser may show it: beside the punycode, never instead. */
  readonly unicode?: string;
}

/** A URL the host will not open, why, and a safe one-line rendering of it for the notice. */
export interface RefusedUrl {
  readonly kind: 'refused';
  readonly why: string;
  readonly shown: string;
}

/** What a server asks in URL mode: who, during which calls, why, and where. */
export interface UrlRequest extends PromptContext {
  readonly mode: 'url';
  readonly message: string;
  readonly link: OfferedUrl | RefusedUrl;
  /** The server's id for this request; `notifications/elicitation/complete` names it when the page is done. */
  readonly elicitationId?: string;
  /** Settles true when the server says the page is done, false when the host stops waiting. */
  readonly completion?: Promise<boolean>;
  /**
   * Set when the host sends the request again once the page is done (a call refused until a link
   * is opened, a 2026-07-28 input round), since such a server may never send the notice: after the
   * page opened, the surface lets the user say they finished (true) or give up (false). The
   * server's notice, `completion`, ends that wait as well.
   */
  readonly finished?: (done: boolean) => void;
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

  /** For a page without an id to wait on: `passed` settles false after `timeoutMs`; `stop` ends it early. */
  deadline(timeoutMs = COMPLETION_WAIT_MS): { readonly passed: Promise<boolean>; stop(): void } {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const passed = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    return { passed, stop: () => clearTimeout(timer) };
  }

  /** The host no longer waits on page `id` (the user said it is done): its wait ends as not completed. */
  forget(id: string): void {
    this._end(id, false);
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
