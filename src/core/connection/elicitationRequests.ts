import type { ElicitationAnswer, FormRequest } from '../elicitation/formElicitation';
import type { PromptContext } from '../elicitation/promptContext';
import type { ElicitationCompletions, UrlRequest } from '../elicitation/urlElicitation';
import { loadElicitation, loadLinks } from '../elicitation/load';
import type { Admitted } from './promptGate';
import { sanitizeLine, shownName } from '../render/sanitize';
import { MAX_MASK_DEPTH, maskDeep, safeText } from '../render/secrets';
import type { ServerLog } from '../serverLog';
import type { CallSignal } from '../callSignal';

/**
 * A request as read from the server, before the gate names its calls and the connection its server;
 * `withdrawn` aborts when the server cancels its own request (notifications/cancelled).
 */
type Asked = (Omit<FormRequest, keyof PromptContext> | Omit<UrlRequest, keyof PromptContext>) & { readonly withdrawn?: AbortSignal };
/** Asks the user a request the gate let through (promptGate.ts). */
export type AskUser = (asked: Asked) => Promise<ElicitationAnswer>;
/** Asks the user on behalf of the calls a prompt was let through for (the connection names the server). */
export type AskForCalls = (asked: Asked, admitted: Admitted) => Promise<ElicitationAnswer>;

/**
 * A request as the host is asked it: its message made safe to show, and the server's secrets masked
 * in every string of a form (its fields, and the schema a gateway passes on: titles, enum values and
 * names, defaults, property names, keys of its own), whole or split by a hidden character. A link
 * keeps its URL (it is checked and shown with its domain; the gateway passes no link on). Throws,
 * saying why, for a form too deep to be checked for the secrets (the server gets that as the error
 * of its request).
 */
export function safeElicitation<A extends Omit<FormRequest, keyof PromptContext> | Omit<UrlRequest, keyof PromptContext>>(asked: A, secrets: readonly string[]): A {
  const message = safeText(asked.message, secrets);
  if (asked.mode === 'url') return { ...asked, message };
  const form = asked as Omit<FormRequest, keyof PromptContext>;
  const fields = maskDeep(form.fields, secrets);
  const schema = form.schema === undefined ? undefined : maskDeep(form.schema, secrets);
  if (fields === undefined || (form.schema !== undefined && schema === undefined)) {
    throw new Error(`The host refused the form: it nests deeper than ${MAX_MASK_DEPTH} levels, too deep to be checked for the server's secrets.`);
  }
  return { ...asked, message, fields, schema };
}

/** The JSON-RPC error a server answers a call with when the user must open a link first (URLElicitationRequired). */
export const URL_ELICITATION_REQUIRED = -32042;
/** At most this many links one such error may ask for; more are refused. */
const MAX_LINKS = 3;

/**
 * The pages the user agreed to open while one refused call or one input round is answered, each
 * with how its wait ends; and the pages finished in earlier rounds, so that a server asking for
 * one again fails the request instead of sending the user round in circles.
 */
export class OpenedPages {
  private readonly _waits: Promise<void>[] = [];
  private readonly _finished = new Set<string>();

  /** True when the user already finished the page at `url` in an earlier round. */
  finishedBefore(url: string): boolean {
    return this._finished.has(url);
  }

  /** How many pages of this round are waited on. */
  get count(): number {
    return this._waits.length;
  }

  add(url: string, end: Promise<void>): void {
    const wait = end.then(() => void this._finished.add(url));
    // A round given up before its pages were waited on (another link declined): nobody reads the outcome.
    wait.catch(() => undefined);
    this._waits.push(wait);
  }

  /**
   * Settles when every page of this round is done (the server said so, or the user did); rejects at
   * once when the user gives up on one, when neither says so in time, on `signal`, or after
   * `withinMs` (then with `timedOut()`). Starts the next round.
   */
  async allDone(what: string, signal: CallSignal | undefined, withinMs = Infinity, timedOut?: () => Error): Promise<void> {
    const waits = this._waits.splice(0);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stop: (() => void) | undefined;
    const limits = new Promise<never>((_resolve, reject) => {
      const cancelled = () => reject(new Error(`${what} was cancelled while waiting for a page to be done.`));
      if (signal?.aborted) return cancelled();
      signal?.addEventListener('abort', cancelled, { once: true });
      stop = () => signal?.removeEventListener('abort', cancelled);
      if (Number.isFinite(withinMs)) timer = setTimeout(() => reject(timedOut?.() ?? new Error(`${what} ran out of time while waiting for a page to be done.`)), Math.max(0, withinMs));
    });
    try {
      await Promise.race([Promise.all(waits), limits]);
    } finally {
      clearTimeout(timer);
      stop?.();
    }
  }
}

/**
 * An `elicitation/create` request, in either mode: a form is shown when its schema is one the
 * spec allows; a link when `checkUrl` offers it (a refused link is still shown, with its reason,
 * and declined whatever the user does). Anything else is declined, saying why in the server's log.
 * With `pages`, the request is sent again once a page is done: each page opened is added to it.
 */
export async function answerElicitation(params: unknown, ask: AskUser, log: ServerLog, completions: ElicitationCompletions, withdrawn?: AbortSignal, pages?: OpenedPages): Promise<ElicitationAnswer | { action: 'accept' }> {
  // Withdrawn before it was read (cancelled at once): nobody waits for an answer, and none is sent.
  if (withdrawn?.aborted) return { action: 'cancel' };
  const request = (typeof params === 'object' && params !== null ? params : {}) as { mode?: unknown; message?: unknown; requestedSchema?: unknown; url?: unknown; elicitationId?: unknown };
  const message = typeof request.message === 'string' ? request.message : '';
  if (request.mode === 'url') return answerLink(request.url, request.elicitationId, message, ask, log, completions, withdrawn, pages);
  if (request.mode !== undefined && request.mode !== 'form') {
    log.warn(`The server asked for input in "${sanitizeLine(String(request.mode)).slice(0, 40)}" mode, which the host does not know: declined.`);
    return { action: 'decline' };
  }
  const fields = loadElicitation().formFields(request.requestedSchema);
  if (typeof fields === 'string') {
    log.warn(`The server asked for input with a form the host cannot show (${fields}): declined.`);
    return { action: 'decline' };
  }
  return ask({ message, fields, schema: request.requestedSchema, withdrawn });
}

/**
 * A link to open: shown with its domain, opened only on consent; its completion is waited on. With
 * `pages` (the request is sent again once the page is done), the user may say they finished too.
 */
async function answerLink(url: unknown, id: unknown, message: string, ask: AskUser, log: ServerLog, completions: ElicitationCompletions, withdrawn: AbortSignal | undefined, pages: OpenedPages | undefined): Promise<ElicitationAnswer | { action: 'accept' }> {
  const link = loadLinks().checkUrl(url);
  const elicitationId = typeof id === 'string' && id !== '' ? id.slice(0, 200) : undefined;
  if (link.kind === 'refused') log.warn(`The server asked to open a link the host refuses (${link.why}): ${link.shown}; declined.`);
  // Asked again for a page the user already finished: the server does not take it as done; asking once more would go round in circles.
  if (link.kind === 'offered' && pages?.finishedBefore(link.url)) throw new Error(`The server asked again for the page on ${link.site} after you finished there, so the request was stopped (it would only ask again).`);
  const completion = link.kind === 'offered' && elicitationId !== undefined ? completions.wait(elicitationId) : undefined;
  let said: ((done: boolean) => void) | undefined;
  const userSays = pages && link.kind === 'offered' ? new Promise<boolean>((resolve) => (said = resolve)) : undefined;
  const answer = await ask({ mode: 'url', message, link, elicitationId, completion, withdrawn, ...(said && { finished: said }) });
  if (link.kind === 'refused' || answer.action !== 'accept') {
    if (elicitationId !== undefined) completions.complete(elicitationId);
    return answer.action === 'cancel' ? answer : { action: 'decline' };
  }
  log.info(`The user agreed to open ${link.url} (the server asked${elicitationId ? `, elicitation ${sanitizeLine(elicitationId)}` : ''}).`);
  if (pages && userSays) pages.add(link.url, pageDone(link.site, completion, userSays, log, completions, () => elicitationId !== undefined && completions.forget(elicitationId)));
  // URL mode: "accept" says the user agreed to open the link; it carries no content.
  return { action: 'accept' };
}

/**
 * One opened page's wait: done when the server says so or the user does, whichever first; fails
 * when the user gives up or neither says so in COMPLETION_WAIT_MS.
 */
function pageDone(site: string, completion: Promise<boolean> | undefined, userSays: Promise<boolean>, log: ServerLog, completions: ElicitationCompletions, forget: () => void): Promise<void> {
  // Without an id to wait on (the 2026-07-28 revision has none), only the user can say; still bounded.
  const deadline = completion ? undefined : completions.deadline();
  const byServer = completion ?? deadline!.passed;
  return Promise.race([byServer.then((done) => (done ? 'server' : 'nobody')), userSays.then((done) => (done ? 'user' : 'cancelled'))]).then((by) => {
    deadline?.stop();
    if (by === 'cancelled') throw new Error(`You cancelled while the page on ${site} was open, so the request was not sent again.`);
    if (by === 'nobody') throw new Error(`Neither the server nor you said the page on ${site} is done, so the request was not sent again.`);
    if (by === 'user') forget();
    log.info(`The page on ${site} is done (${by === 'server' ? 'the server said so' : 'you said so'}).`);
  });
}

/**
 * A call that a server refuses until the user opens a link (error -32042, URLElicitationRequired):
 * each link goes through the same consent as `elicitation/create` in URL mode; when the user
 * opened them all and each is done (the server said so, or the user did: a server may never send
 * the notice), the call is sent once more. Declined, given up or refused again, the call fails saying so.
 */
export function withLinkConsent<T>(send: () => Promise<T>, tool: string, ask: AskUser | undefined, log: ServerLog, completions: ElicitationCompletions, signal?: CallSignal): Promise<T> {
  // No async frame of its own for the common case, no error: every call runs this (BENCHMARKS.md case 1).
  let sent: Promise<T>;
  try {
    sent = send();
  } catch (err) {
    sent = Promise.reject(err);
  }
  return sent.catch((err: unknown) => afterLinks(err, send, tool, ask, log, completions, signal));
}

/** A call refused until the user opens links (-32042): each link asked for, then the call sent once more; any other error as it was. */
async function afterLinks<T>(err: unknown, send: () => Promise<T>, tool: string, ask: AskUser | undefined, log: ServerLog, completions: ElicitationCompletions, signal?: CallSignal): Promise<T> {
  const links = linksOf(err);
  if (!ask || !links || links.length === 0) throw err;
  const name = `"${shownName(tool)}"`;
  if (links.length > MAX_LINKS) throw new Error(`${name} needs ${links.length} links opened first (at most ${MAX_LINKS} are offered): the call did not run.`, { cause: err });
  const pages = new OpenedPages();
  for (const link of links) {
    const answer = await answerElicitation({ ...link, mode: 'url' }, ask, log, completions, undefined, pages);
    if (answer.action !== 'accept') throw new Error(`${name} needs you to open a link first; it was ${answer.action === 'cancel' ? 'cancelled' : 'declined or refused'}, so the call did not run.`, { cause: err });
  }
  try {
    await pages.allDone('The call', signal);
  } catch (why) {
    throw new Error(`${name}: ${why instanceof Error ? why.message : String(why)}`, { cause: why });
  }
  log.info(`The pages ${name} asked for are done: sending the call again.`);
  // Sent once more, never again: refused again, the call fails saying so (a server that never takes the page as done would loop).
  return send().catch((again: unknown) => {
    const more = linksOf(again);
    if (!more || more.length === 0) throw again;
    const before = new Set(links.map(pageKey));
    const same = more.every((l) => before.has(pageKey(l)));
    throw new Error(same
      ? `${name}: the server refused the call again, asking for the same page after it was done; the call was not sent a third time.`
      : `${name}: the server refused the call again, asking for another page; the call was not sent a third time (call it again to open that one).`, { cause: again });
  });
}

/** A link of a -32042 error by what names it: its elicitation id, else its URL. */
const pageKey = (link: Record<string, unknown>): string => String(link.elicitationId ?? link.url);
/** The links of a -32042 error, or undefined for any other error. */
function linksOf(err: unknown): Record<string, unknown>[] | undefined {
  if (typeof err !== 'object' || err === null || (err as { code?: unknown }).code !== URL_ELICITATION_REQUIRED) return undefined;
  const data = (err as { data?: { elicitations?: unknown } }).data;
  const list = Array.isArray(data?.elicitations) ? data.elicitations : [];
  return list.filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null);
}
