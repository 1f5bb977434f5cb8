import type { ElicitationAnswer, FormRequest } from '../elicitation/formElicitation';
import type { PromptContext } from '../elicitation/promptContext';
import type { ElicitationCompletions, UrlRequest } from '../elicitation/urlElicitation';
import { loadElicitation, loadLinks } from '../elicitation/load';
import type { Admitted } from './promptGate';
import { sanitizeLine, shownName } from '../render/sanitize';
import type { ServerLog } from '../serverLog';

/**
 * A request as read from the server, before the gate names its calls and the connection its server;
 * `withdrawn` aborts when the server cancels its own request (notifications/cancelled).
 */
type Asked = (Omit<FormRequest, keyof PromptContext> | Omit<UrlRequest, keyof PromptContext>) & { readonly withdrawn?: AbortSignal };
/** Asks the user a request the gate let through (promptGate.ts). */
export type AskUser = (asked: Asked) => Promise<ElicitationAnswer>;
/** Asks the user on behalf of the calls a prompt was let through for (the connection names the server). */
export type AskForCalls = (asked: Asked, admitted: Admitted) => Promise<ElicitationAnswer>;

/** The JSON-RPC error a server answers a call with when the user must open a link first (URLElicitationRequired). */
export const URL_ELICITATION_REQUIRED = -32042;
/** At most this many links one such error may ask for; more are refused. */
const MAX_LINKS = 3;

/**
 * An `elicitation/create` request, in either mode: a form is shown when its schema is one the
 * spec allows; a link when `checkUrl` offers it (a refused link is still shown, with its reason,
 * and declined whatever the user does). Anything else is declined, saying why in the server's log.
 */
export async function answerElicitation(params: unknown, ask: AskUser, log: ServerLog, completions: ElicitationCompletions, withdrawn?: AbortSignal): Promise<ElicitationAnswer | { action: 'accept' }> {
  // Withdrawn before it was read (cancelled at once): nobody waits for an answer, and none is sent.
  if (withdrawn?.aborted) return { action: 'cancel' };
  const request = (typeof params === 'object' && params !== null ? params : {}) as { mode?: unknown; message?: unknown; requestedSchema?: unknown; url?: unknown; elicitationId?: unknown };
  const message = typeof request.message === 'string' ? request.message : '';
  if (request.mode === 'url') return answerLink(request.url, request.elicitationId, message, ask, log, completions, withdrawn);
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

/** A link to open: shown with its domain, opened only on consent; its completion is waited on. */
async function answerLink(url: unknown, id: unknown, message: string, ask: AskUser, log: ServerLog, completions: ElicitationCompletions, withdrawn?: AbortSignal): Promise<ElicitationAnswer | { action: 'accept' }> {
  const link = loadLinks().checkUrl(url);
  const elicitationId = typeof id === 'string' && id !== '' ? id.slice(0, 200) : undefined;
  if (link.kind === 'refused') log.warn(`The server asked to open a link the host refuses (${link.why}): ${link.shown}; declined.`);
  const completion = link.kind === 'offered' && elicitationId !== undefined ? completions.wait(elicitationId) : undefined;
  const answer = await ask({ mode: 'url', message, link, elicitationId, completion, withdrawn });
  if (link.kind === 'refused' || answer.action !== 'accept') {
    if (elicitationId !== undefined) completions.complete(elicitationId);
    return answer.action === 'cancel' ? answer : { action: 'decline' };
  }
  log.info(`The user agreed to open ${link.url} (the server asked${elicitationId ? `, elicitation ${sanitizeLine(elicitationId)}` : ''}).`);
  // URL mode: "accept" says the user agreed to open the link; it carries no content.
  return { action: 'accept' };
}

/**
 * A call that a server refuses until the user opens a link (error -32042, URLElicitationRequired):
 * each link goes through the same consent as `elicitation/create` in URL mode; when the user
 * opened them all and the server said each is done, the call is sent once more. Declined, or
 * never completed, the call fails saying so.
 */
export function withLinkConsent<T>(send: () => Promise<T>, tool: string, ask: AskUser | undefined, log: ServerLog, completions: ElicitationCompletions, signal?: AbortSignal): Promise<T> {
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
async function afterLinks<T>(err: unknown, send: () => Promise<T>, tool: string, ask: AskUser | undefined, log: ServerLog, completions: ElicitationCompletions, signal?: AbortSignal): Promise<T> {
  const links = linksOf(err);
  if (!ask || !links || links.length === 0) throw err;
  if (links.length > MAX_LINKS) throw new Error(`"${shownName(tool)}" needs ${links.length} links opened first (at most ${MAX_LINKS} are offered): the call did not run.`, { cause: err });
  const waits: Promise<boolean>[] = [];
  for (const link of links) {
    const id = typeof link.elicitationId === 'string' ? link.elicitationId : undefined;
    const answer = await answerElicitation({ ...link, mode: 'url' }, wrapCompletion(ask, waits), log, completions);
    if (answer.action !== 'accept') throw new Error(`"${shownName(tool)}" needs you to open a link first; it was ${answer.action === 'cancel' ? 'cancelled' : 'declined or refused'}, so the call did not run.`, { cause: err });
    if (id === undefined) throw new Error(`"${shownName(tool)}" asked for a link without an id to wait on: the call did not run.`, { cause: err });
  }
  const done = await untilAborted(Promise.all(waits), signal);
  if (!done.every(Boolean)) throw new Error(`"${shownName(tool)}": the server never said the page it asked for is done, so the call was not sent again.`, { cause: err });
  log.info(`The pages "${shownName(tool)}" asked for are done: sending the call again.`);
  return send();
}

/** Collects each link's completion as the user is asked about it. */
function wrapCompletion(ask: AskUser, waits: Promise<boolean>[]): AskUser {
  return (asked) => {
    if (asked.mode === 'url' && asked.completion) waits.push(asked.completion);
    return ask(asked);
  };
}

/** The links of a -32042 error, or undefined for any other error. */
function linksOf(err: unknown): Record<string, unknown>[] | undefined {
  if (typeof err !== 'object' || err === null || (err as { code?: unknown }).code !== URL_ELICITATION_REQUIRED) return undefined;
  const data = (err as { data?: { elicitations?: unknown } }).data;
  const list = Array.isArray(data?.elicitations) ? data.elicitations : [];
  return list.filter((e): e is Record<string, unknown> => typeof e === 'object' && e !== null);
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(new Error('The call was cancelled while waiting for a page to be done.'));
    signal.addEventListener('abort', () => reject(new Error('The call was cancelled while waiting for a page to be done.')), { once: true });
    work.then(resolve, reject);
  });
}
