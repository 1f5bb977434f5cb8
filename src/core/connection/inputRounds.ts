import type { CallInFlight } from './promptGate';
import type { CallPrompts } from './callPrompts';
import { OpenedPages } from './elicitationRequests';
import { MAX_INPUT_ROUNDS } from './promptLimits';
import type { RelayedInput } from './eraClient';
import type { CallSignal } from '../callSignal';

/** The pause before retrying a round that carries no question (only `requestState`): nothing else slows that loop. */
const STATE_ONLY_PACING_MS = 250;

/** What an embedded request of an `input_required` answer asks, as CallPrompts reads it. */
const INPUT_KINDS: Readonly<Record<string, string>> = { 'elicitation/create': 'elicitation', 'roots/list': 'roots', 'sampling/createMessage': 'sampling' };

/** Sends the request once more with what the last round carries back (`inputResponses`, `requestState`); undefined: the first send. */
export type Leg = (retry: Record<string, unknown> | undefined, remainingMs: number) => Promise<Record<string, unknown>>;

/**
 * A 2026-07-28 request to its complete answer (MRTR): while the server answers `input_required`,
 * each embedded request is answered (a form through the call's own gate, the roots, no sampling)
 * and the request sent again with the answers and the server's `requestState`, byte for byte, at
 * most MAX_INPUT_ROUNDS times and within the call's total limit. A page the user agreed to open
 * is waited on first: the server learns from the retried request whether it is done, so that goes
 * out once the user (or the server's notice) says so. A complete answer comes back
 * without its `resultType`; an answer without one is read as complete, as an earlier era's is.
 * With `relay`, the first send carries what the caller's client answered, and a round that asks
 * is the answer, as the server sent it (the caller's client answers it).
 */
export function completeAnswer(leg: Leg, method: string, prompts: CallPrompts, call: CallInFlight | undefined, totalMs: number, signal: CallSignal | undefined, relay?: RelayedInput): Promise<Record<string, unknown>> {
  const startedAt = Date.now();
  const retry = relay?.retry && { ...relay.retry };
  // Most answers are complete at once: rounds get an async frame, the first leg none (BENCHMARKS.md case 2).
  return leg(retry, totalMs).then((first) => (first.resultType === 'input_required' ? inputRounds(first, leg, method, prompts, call, totalMs, signal, startedAt, relay !== undefined) : completed(first, method)));
}

/** The `input_required` rounds after the first answer, up to a complete one (or, relayed, up to one that asks). */
async function inputRounds(first: Record<string, unknown>, leg: Leg, method: string, prompts: CallPrompts, call: CallInFlight | undefined, totalMs: number, signal: CallSignal | undefined, startedAt: number, relayed: boolean): Promise<Record<string, unknown>> {
  // Between legs no request is in flight to time the call: from the first round a timer closes a prompt
  // still open at the total limit, so the call ends on time (armed only then: most calls have no round).
  let limit: (() => void) | undefined;
  let answer = first;
  const pages = new OpenedPages();
  const timedOut = () => Object.assign(new Error(`${method} exceeded its maximum total timeout of ${totalMs} ms`), { code: 'REQUEST_TIMEOUT', data: { maxTotalTimeout: totalMs } });
  try {
    for (let round = 1; answer.resultType === 'input_required'; round++) {
      if (round > MAX_INPUT_ROUNDS) throw new Error(`${method}: the server still asked for input after ${MAX_INPUT_ROUNDS} rounds; the call was stopped.`);
      const requests = isObject(answer.inputRequests) ? Object.entries(answer.inputRequests) : [];
      const state = answer.requestState;
      if (requests.length === 0 && typeof state !== 'string') throw new Error(`${method}: the server asked for input (input_required) with neither inputRequests nor requestState.`);
      if (relayed && requests.length > 0) return answer;
      if (call && !limit) limit = prompts.endAtLimit(call, Math.max(0, totalMs - (Date.now() - startedAt)));
      if (requests.length === 0) await pause(STATE_ONLY_PACING_MS, signal);
      const responses = await Promise.all(requests.map(async ([key, entry]) => [key, await prompts.answerInput(inputOf(key, entry), call, undefined, pages)] as const));
      if (pages.count > 0) await pages.allDone(method, signal, totalMs - (Date.now() - startedAt), timedOut);
      const remaining = totalMs - (Date.now() - startedAt);
      if (remaining <= 0) throw timedOut();
      answer = await leg({ ...(responses.length > 0 && { inputResponses: Object.fromEntries(responses) }), ...(typeof state === 'string' && { requestState: state }) }, remaining);
    }
  } finally {
    limit?.();
  }
  return completed(answer, method);
}

/** The last answer without its `resultType`; one that is neither complete nor input_required fails the request. */
function completed(answer: Record<string, unknown>, method: string): Record<string, unknown> {
  if (answer.resultType !== undefined && answer.resultType !== 'complete') throw new Error(`Unsupported result type '${String(answer.resultType).slice(0, 40)}' for ${method}`);
  if (!('resultType' in answer)) return answer;
  // A copy without it (not `delete`: an object that lost a key is slower to read from then on).
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the key is named only to leave it out
  const { resultType, ...complete } = answer;
  return complete;
}

function inputOf(key: string, entry: unknown): { kind: string; params?: unknown } {
  const method = isObject(entry) ? entry.method : undefined;
  const kind = typeof method === 'string' && Object.hasOwn(INPUT_KINDS, method) ? INPUT_KINDS[method] : undefined;
  if (!kind) throw new Error(`The server embedded a request the host cannot answer (input ${JSON.stringify(key).slice(0, 60)}: expected elicitation/create, sampling/createMessage or roots/list).`);
  return { kind, params: (entry as { params?: unknown }).params };
}

function pause(ms: number, signal: CallSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const stop = () => (clearTimeout(timer), reject(signal?.reason));
    const timer = setTimeout(() => (signal?.removeEventListener('abort', stop), resolve()), ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
