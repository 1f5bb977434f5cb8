import { sanitizeLine } from '../render/sanitize';
import type { CallEnd } from '../elicitation/formElicitation';
import { loadConnection } from './load';
import { MAX_PROMPTS_PER_CALL } from './promptLimits';
import type { CallSignal } from '../callSignal';

export { MAX_PROMPTS_PER_CALL } from './promptLimits';

/** At most this many prompts one server may raise in PROMPT_WINDOW_MS, over all its calls. */
export const MAX_PROMPTS_PER_SERVER = 20;
/** The window MAX_PROMPTS_PER_SERVER counts in: a minute. */
export const PROMPT_WINDOW_MS = 60_000;

/** Where a 2025-11-25 request names the task it belongs to (`_meta`, spec "Tasks": related-task). */
const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/**
 * One call of the server that waits for its answer, or for its task to end (a call, or Fetch
 * Result following a task): the prompts it raised, the task it became, and a signal that aborts
 * when it ends (a prompt of it still waiting to be shown is dropped then).
 */
export interface CallInFlight {
  readonly tool: string;
  /** The task the server runs it as, once known (2025-11-25 `CreateTaskResult`, or a task resumed). */
  taskId: string | undefined;
  /** Sent as a task, and its task id is not known yet: a request that names a new task may be its. */
  becomingTask: boolean;
  prompts: number;
  capSaid: boolean;
  /** How it ended, once it has (`endingOf` gives the signal a prompt listens to). */
  ended: CallEnd | undefined;
  /** Made only when a prompt listens (most calls raise none: an AbortController per call was ~8% of a call's CPU). */
  ending: AbortController | undefined;
  /** How many of its prompts the user is answering now: its idle timer stands still meanwhile (rawAnswers.ts). */
  answering: number;
  /** Hears each change of `answering` (the one request of the call that is timed by it). */
  onAnswering: (() => void) | undefined;
  /** When its total time runs out (`Date.now()` ms), while a request of it is timed by the total; a prompt says so when near. */
  endsAt: number | undefined;
  /** The caller's signal: its abort ends the call as cancelled, closing its prompts at once (listened to only once one is open). */
  readonly cancelledBy: CallSignal | undefined;
  /** Stops listening to `cancelledBy`, once listened to. */
  unhearCancel: (() => void) | undefined;
}

/** Where a prompt comes from: a request of the server (whose `_meta` may name a task), or one call's own (-32042, input_required). */
export type PromptSource = { readonly kind: 'request'; readonly params: unknown } | { readonly kind: 'call'; readonly call: CallInFlight };

/** A prompt the gate lets through: the calls it may belong to (their tools, their tasks), and a signal that aborts once they all ended. */
export interface Admitted {
  readonly calls: readonly string[];
  /** The tasks those calls follow (their rows say what they wait for). */
  readonly tasks: readonly string[];
  /** Aborts once those calls all ended, its reason the last one's `CallEnd`. */
  readonly callsEnded: AbortSignal;
  /** The earliest time one of those calls runs out of total time (`Date.now()` ms), if one is timed by it. */
  readonly endsAt?: number;
  /** Marks those calls as waiting on the user until the returned function is called (their idle timers stand still). */
  readonly hold: () => () => void;
}

/**
 * Which prompts a server may show the user: only those that belong to a call of it,
 * and only so many. A request belongs to a call when
 * - it names a task (`_meta` related-task, 2025-11-25): that task is one the host follows now
 *   (a call that became it, or Fetch Result), whatever else runs;
 * - it names none: a call of this server is in flight (a stdio request says no more than that).
 * A call's own prompts (a -32042 error's links, a 2026-07-28 input_required round) belong to it.
 * A prompt that may belong to several calls counts for each. Each call has MAX_PROMPTS_PER_CALL, the
 * server MAX_PROMPTS_PER_SERVER a minute; the rest are declined. Each kind of decline is said once
 * in the server's log (`say`): per session for requests outside calls, per call, per crowded minute.
 */
export class PromptGate {
  private readonly _calls = new Set<CallInFlight>();
  /** When each prompt of the last PROMPT_WINDOW_MS was let through. */
  private readonly _shown: number[] = [];
  private _minuteSaid = false;
  /** The kinds of decline said in this session (outside calls, unknown task). */
  private readonly _said = new Set<string>();

  constructor(
    private readonly _say: (sentence: string) => void,
    private readonly _now: () => number = Date.now,
  ) {}

  /**
   * A call of the server starts (taskId: a task it follows from the start, as Fetch Result does;
   * cancelledBy: a signal whose abort ends it as cancelled); end it with `end`.
   */
  begin(tool: string, taskId?: string, cancelledBy?: CallSignal): CallInFlight {
    const call: CallInFlight = { tool, taskId, becomingTask: false, prompts: 0, capSaid: false, ended: undefined, ending: undefined, answering: 0, onAnswering: undefined, endsAt: undefined, cancelledBy, unhearCancel: undefined };
    this._calls.add(call);
    return call;
  }

  /** The call ended, and how: a prompt of it still open is closed, saying so. */
  end(call: CallInFlight, how: CallEnd = 'finished'): void {
    call.unhearCancel?.();
    call.unhearCancel = undefined;
    this._calls.delete(call);
    call.ended = how;
    call.ending?.abort(how);
  }

  /** A new session of the server: what it sends outside calls is said again, once. */
  newSession(): void {
    this._said.clear();
  }

  /** Lets a prompt through (the calls it belongs to), or declines it (undefined), saying why once. */
  admit(source: PromptSource): Admitted | undefined {
    // A caller's abort is listened to only once a prompt is open: one that came before ends its call now, as it would have then.
    for (const call of source.kind === 'call' ? [source.call] : [...this._calls]) if (call.cancelledBy?.aborted && !call.ended) this.end(call, 'cancelled');
    const calls = source.kind === 'call' ? [source.call] : this._callsOf(source.params);
    if (!Array.isArray(calls)) return void this._sayOnce(calls);
    const full = calls.find((c) => c.prompts >= MAX_PROMPTS_PER_CALL);
    if (full) {
      if (!full.capSaid) this._say(`The server asked for input more than ${MAX_PROMPTS_PER_CALL} times during its call "${sanitizeLine(full.tool)}": declined, and so is every further request of that call (at most ${MAX_PROMPTS_PER_CALL} prompts a call).`);
      full.capSaid = true;
      return undefined;
    }
    const now = this._now();
    while (this._shown.length > 0 && this._shown[0] <= now - PROMPT_WINDOW_MS) this._shown.shift();
    if (this._shown.length >= MAX_PROMPTS_PER_SERVER) {
      if (!this._minuteSaid) this._say(`The server asked for input more than ${MAX_PROMPTS_PER_SERVER} times in a minute: declined, and so is every further request until the minute is over (at most ${MAX_PROMPTS_PER_SERVER} prompts a minute for a server).`);
      this._minuteSaid = true;
      return undefined;
    }
    this._minuteSaid = false;
    this._shown.push(now);
    for (const call of calls) {
      call.prompts++;
      this._hearCancel(call);
    }
    return {
      calls: [...new Set(calls.map((c) => c.tool))],
      tasks: [...new Set(calls.map((c) => c.taskId).filter((t) => t !== undefined))],
      callsEnded: allEnded(calls.map(endingOf)),
      ...loadConnection().answerHold(calls),
    };
  }

  /**
   * From its first prompt on, the caller's abort ends the call at once (a 2026-07-28 call waits on
   * its prompt before it can end). Not before: a call that raises none ends by its request's own
   * abort, and a listener a call is not free.
   */
  private _hearCancel(call: CallInFlight): void {
    const signal = call.cancelledBy;
    if (!signal || call.unhearCancel || call.ended) return;
    const cancelled = () => this.end(call, 'cancelled');
    signal.addEventListener('abort', cancelled, { once: true });
    call.unhearCancel = () => signal.removeEventListener('abort', cancelled);
  }

  /** The calls a server's request may belong to, or why it belongs to none. */
  private _callsOf(params: unknown): CallInFlight[] | { readonly kind: string; readonly sentence: string } {
    const named = relatedTask(params);
    const running = [...this._calls];
    const after = 'declined. Requests like it are declined without another line until the server starts again.';
    if (named === undefined) {
      return running.length > 0 ? running : { kind: 'outside', sentence: `The server asked for input while none of its calls was running (after its start, or during a tool listing): ${after}` };
    }
    if (typeof named !== 'string') return { kind: 'bad-task', sentence: `The server asked for input naming a task without a valid id (_meta "${RELATED_TASK}"): ${after}` };
    const owner = running.filter((c) => c.taskId === named);
    if (owner.length > 0) return owner;
    // Its CreateTaskResult may still be on its way to the call: the request may be that new task's.
    const becoming = running.filter((c) => c.becomingTask && c.taskId === undefined);
    if (becoming.length > 0) return becoming;
    return { kind: 'other-task', sentence: `The server asked for input for task "${sanitizeLine(named).slice(0, 100)}", which the host does not follow: ${after}` };
  }

  private _sayOnce(decline: { readonly kind: string; readonly sentence: string }): void {
    if (this._said.has(decline.kind)) return;
    this._said.add(decline.kind);
    this._say(decline.sentence);
  }
}

/** The task a request names (`_meta` related-task): its id; null when the entry is there without a string id; undefined when it names none. */
function relatedTask(params: unknown): string | null | undefined {
  const meta = typeof params === 'object' && params !== null ? (params as { _meta?: unknown })._meta : undefined;
  if (typeof meta !== 'object' || meta === null || !Object.hasOwn(meta, RELATED_TASK)) return undefined;
  const related = (meta as Record<string, unknown>)[RELATED_TASK];
  const taskId = typeof related === 'object' && related !== null ? (related as { taskId?: unknown }).taskId : undefined;
  return typeof taskId === 'string' ? taskId : null;
}

/** A signal that aborts when the call ends, its reason a `CallEnd` (a prompt still open is closed, saying why). */
export function endingOf(call: CallInFlight): AbortSignal {
  if (!call.ending) {
    call.ending = new AbortController();
    if (call.ended) call.ending.abort(call.ended);
  }
  return call.ending.signal;
}

/** A signal that aborts once every one of `signals` has (one per call: at most MAX_PROMPTS_PER_CALL listeners on each). */
function allEnded(signals: readonly AbortSignal[]): AbortSignal {
  if (signals.length === 1) return signals[0];
  const all = new AbortController();
  let running = signals.filter((s) => !s.aborted).length;
  if (running === 0) all.abort(signals.at(-1)?.reason);
  for (const signal of signals) if (!signal.aborted) signal.addEventListener('abort', () => --running === 0 && all.abort(signal.reason), { once: true });
  return all.signal;
}
