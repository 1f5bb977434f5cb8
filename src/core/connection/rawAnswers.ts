import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { ProbeWatch } from './eraProbe';
import type { CallSignal } from '../callSignal';

/**
 * The answers we check item by item ourselves (toolListing.ts, renderResult.ts): one bad tool or
 * one unknown content block costs that item, not the whole answer.
 */
const OWN_CHECKS: Readonly<Record<string, string>> = {
  'tools/list': 'tools',
  'tools/call': 'content',
};

const NOT_CACHED = { ttlMs: 0, cacheScope: 'private' };

/** On a request of the 2026-07-28 era: the envelope's protocol version in `_meta`. */
const ERA_KEY = 'io.modelcontextprotocol/protocolVersion';

/** What we asked: which items the answer lists, and whether in the 2026-07-28 era. */
interface Asked {
  readonly items: string;
  readonly modern: boolean;
}

/** Where the server's own answer rides on the stand-in the SDK checks. */
const RAW = Symbol('mcp-tool-host.rawAnswer');

/** A server's answer to a request sent past the SDK (`RawRequests`): its result or its JSON-RPC error. */
export type RawResponse = { readonly kind: 'result'; readonly result: unknown } | { readonly kind: 'error'; readonly error: { code: number; message: string; data?: unknown } };

export interface RawRequestOptions {
  readonly timeoutMs: number;
  readonly signal?: CallSignal;
  /** HTTP headers for this request only (Streamable HTTP; stdio ignores them). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Progress on the request's own progress token (`onProgress`'s, or one of `watchProgress`) re-arms its timeout. */
  readonly resetTimeoutOnProgress?: boolean;
  /**
   * Hears progress on the request's own id, which its params carry as their progress token (made
   * with it: `RequestParams`). No route to make and remove a request (a set, a map entry, closures
   * and a promise each: every call asks for progress; BENCHMARKS.md, tenth pass).
   */
  readonly onProgress?: (progress: RawProgress) => void;
  /** The longest the request may take in all, progress or not. */
  readonly maxTotalTimeoutMs?: number;
  /** While the user answers a prompt of the request's call, its idle timeout stands still (the total limit runs on). */
  readonly answering?: AnswerWatch;
}

/** How many prompts of a call the user is answering now, and who hears when that changes (promptGate.ts `CallInFlight`). */
export interface AnswerWatch {
  answering: number;
  onAnswering: (() => void) | undefined;
}

/**
 * For a prompt of `calls`: `hold` counts them as answering until the returned function is called
 * (their idle timers stand still), and `endsAt` is when the first of them runs out of
 * total time, if one is timed by it.
 */
export function answerHold(calls: readonly (AnswerWatch & { readonly endsAt: number | undefined })[]): { readonly endsAt?: number; readonly hold: () => () => void } {
  const ends = calls.map((c) => c.endsAt).filter((t) => t !== undefined);
  const count = (by: number) => calls.forEach((c) => ((c.answering += by), c.onAnswering?.()));
  const hold = () => {
    count(1);
    let held = true;
    return () => void (held && ((held = false), count(-1)));
  };
  return ends.length > 0 ? { endsAt: Math.min(...ends), hold } : { hold };
}

/** A call's progress, as `notifications/progress` says it. */
export type RawProgress = { progress: number; total?: number; message?: string };

/** A raw request's params, or what makes them from its id. */
export type RequestParams = Record<string, unknown> | undefined | ((id: string) => Record<string, unknown>);

/** Sends a request past the SDK and its codec, over the same transport, with ids of its own. */
export interface RawRequests {
  /** `params` as a function: made with the request's id, to carry it as the progress token (`onProgress`). */
  request(method: string, params: RequestParams, options: RawRequestOptions): Promise<RawResponse>;
  /**
   * A progress token of our own, for a request the SDK does not follow (a call of the Tasks
   * package): `notifications/progress` on it go to `listener`, never to the SDK (which would not
   * know the token). `stop` forgets it.
   */
  watchProgress(listener: (progress: RawProgress) => void): { readonly token: string; stop(): void };
}

/** Ids of requests sent past the SDK: strings, which the SDK never uses (its ids are numbers). */
const RAW_ID_PREFIX = 'mcp-tool-host-raw-';
/** Progress tokens of ours: strings too (the SDK's are its numeric request ids). */
const PROGRESS_PREFIX = 'mcp-tool-host-progress-';

/**
 * Lets the server's answers to `tools/list` and `tools/call` reach us unchecked in both protocol
 * eras. The 2025 codec takes the result schema we give it; the 2026-07-28 codec parses every
 * result strictly before any schema of ours runs. So on the way in, a complete answer to one of
 * these requests is replaced by a stand-in with no items (which the SDK's parse accepts) that
 * carries the real answer under a symbol; the SDK copies the result's own properties, symbols
 * included, and `rawAnswer` takes it back off. `input_required` and errors are left to the SDK.
 * A 2026-07-28 answer without `resultType` (which its servers must send) is read as complete, as
 * an earlier era's is: refusing the whole answer for it would cost the user the result.
 * Any answer whose result is not an object fails its request at once (the SDK would not
 * recognise it, and the request would wait for its timeout).
 *
 * It also opens a path past the SDK (the returned `RawRequests`) for requests its 2026-07-28
 * codec cannot carry (the tasks extension: `tasks/*`, and a `tools/call` answered with a task):
 * their answers are taken off before the SDK sees them. An answer to a raw id nobody waits for
 * (a second answer, a made-up id) is dropped.
 *
 * The 2026-07-28 probe's messages pass `probe` too (eraProbe.ts), which times it and drops late answers.
 *
 * Installed on the transport object itself, not a wrapper: the SDK tells transports apart by
 * their properties (stdio or HTTP), and a wrapper would change that.
 */
export function keepRawAnswers(transport: Transport, probe: ProbeWatch): RawRequests {
  const asked = new Map<string | number, Asked>();
  const progress = new ProgressRoutes();
  const send = transport.send.bind(transport);
  const raw = new RawPending(progress, send);
  transport.send = (message, options) => {
    probe.sent(message);
    if ('method' in message && 'id' in message && Object.hasOwn(OWN_CHECKS, message.method)) {
      const meta = (message.params as { _meta?: unknown } | undefined)?._meta;
      asked.set(message.id, { items: OWN_CHECKS[message.method], modern: isObject(meta) && ERA_KEY in meta });
    }
    return send(message, options);
  };
  const close = transport.close.bind(transport);
  transport.close = () => {
    probe.dispose();
    asked.clear();
    raw.endAll();
    return close();
  };
  let handler = transport.onmessage;
  let inner = handler;
  // The probe's stand-in refusal goes straight to whoever handles the server's messages now (the SDK's probe).
  probe.deliverTo((message) => inner?.(message));
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => handler,
    set: (next: Transport['onmessage']) => {
      inner = next;
      // True when taken here, at once: the transport's pump need not wait a macrotask for a handler of it.
      handler = next && ((message, extra) => raw.take(message) || progress.take(message, raw) || probe.take(message) || void next(standIn(message, asked), extra));
    },
  });
  // A session that ends on the server's side (a crash, a closed stream) ends the raw requests too.
  const endingRaw = (next: Transport['onclose']) => () => {
    probe.dispose();
    raw.endAll();
    next?.();
  };
  let onclose = endingRaw(transport.onclose);
  Object.defineProperty(transport, 'onclose', {
    configurable: true,
    enumerable: true,
    get: () => onclose,
    set: (next: Transport['onclose']) => void (onclose = endingRaw(next)),
  });
  return { request: (method, params, options) => raw.send(method, params, options), watchProgress: (listener) => progress.watch(listener) };
}

/** Where progress on our own tokens goes. */
class ProgressRoutes {
  private _next = 1;
  private readonly _listeners = new Map<string, Set<(p: RawProgress) => void>>();

  watch(listener: (p: RawProgress) => void): { readonly token: string; stop(): void } {
    const token = `${PROGRESS_PREFIX}${this._next++}`;
    this._listeners.set(token, new Set([listener]));
    return { token, stop: () => void this._listeners.delete(token) };
  }

  /** Also hears progress on `token` while it is watched (a raw request re-arms its timeout). */
  also(token: string, listener: (p: RawProgress) => void): () => void {
    const set = this._listeners.get(token);
    set?.add(listener);
    return () => void set?.delete(listener);
  }

  /**
   * True when the message is progress on a token of ours (delivered, or dropped once forgotten):
   * one of `watch`, or a raw request's own id (`raw` delivers it).
   */
  take(message: JSONRPCMessage, raw: RawPending): boolean {
    if (!('method' in message) || message.method !== 'notifications/progress' || 'id' in message) return false;
    const params = (message as { params?: Record<string, unknown> }).params;
    const token = params?.progressToken;
    if (typeof token !== 'string') return false;
    const own = token.startsWith(RAW_ID_PREFIX);
    if (!own && !token.startsWith(PROGRESS_PREFIX)) return false;
    if (typeof params?.progress !== 'number') return true;
    const p: RawProgress = { progress: params.progress, ...(typeof params.total === 'number' && { total: params.total }), ...(typeof params.message === 'string' && { message: params.message }) };
    if (own) raw.progress(token, p);
    else for (const listener of [...(this._listeners.get(token) ?? [])]) listener(p);
    return true;
  }
}

/**
 * The raw requests in flight, by id, and one clock for all their timeouts: a Node timer per
 * request (its Timeout object, its list, clearing it) was ~10% of a call's CPU (BENCHMARKS.md
 * case 2). The clock is armed for the earliest time a request may expire; when it fires, each
 * request whose time is up expires, and it is armed again for the next. It stops when none waits.
 */
class RawPending {
  constructor(
    private readonly _progress: ProgressRoutes,
    private readonly _sendMessage: Transport['send'],
  ) {}

  private _next = 1;
  private _ended = false;
  private readonly _waiting = new Map<string, RawCall>();
  private _clock: NodeJS.Timeout | undefined;
  /** When the clock fires (`performance.now()` ms); Infinity while it is stopped. */
  private _clockAt = Infinity;

  send(method: string, paramsOf: RequestParams, options: RawRequestOptions): Promise<RawResponse> {
    if (this._ended) return Promise.reject(new Error('The server session ended'));
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    const id = `${RAW_ID_PREFIX}${this._next++}`;
    const params = typeof paramsOf === 'function' ? paramsOf(id) : paramsOf;
    return new Promise<RawResponse>((resolve, reject) => {
      const call = new RawCall(id, method, options, this, resolve, reject);
      this._waiting.set(id, call);
      // Progress on a token of `watchProgress` shows the request is alive too: its idle timeout starts again.
      const token = (params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
      if (options.resetTimeoutOnProgress && typeof token === 'string' && token !== id) call.unhear = this._progress.also(token, () => call.rearm());
      const message = params ? { jsonrpc: '2.0' as const, id, method, params } : { jsonrpc: '2.0' as const, id, method };
      // Options only where there are some: this runs for every call (BENCHMARKS.md case 2).
      const sendOptions = options.headers || options.signal ? new SendOptions(options.headers, options.signal) : undefined;
      this._sendMessage(message, sendOptions).catch((err: unknown) => call.reject(err));
    });
  }

  /** Progress on a raw request's own id: it re-arms the request's timeout and goes to its listener (none once it ended). */
  progress(id: string, progress: RawProgress): void {
    this._waiting.get(id)?.progress(progress);
  }

  /** Sends a notification of ours (a request's cancellation); a failure to send it is not the caller's. */
  notify(method: string, params: Record<string, unknown>): void {
    void this._sendMessage({ jsonrpc: '2.0', method, params }).catch(() => undefined);
  }

  /** True when the message is an answer to a raw id (ours to keep, or to drop): the SDK never sees it. */
  take(message: JSONRPCMessage): boolean {
    if ('method' in message || !('id' in message) || typeof message.id !== 'string' || !message.id.startsWith(RAW_ID_PREFIX)) return false;
    this._waiting.get(message.id)?.resolve(responseOf(message));
    return true;
  }

  /** True the first time for `id`: the request is no longer waited for (with none left, the clock stops). */
  forget(id: string): boolean {
    if (!this._waiting.delete(id)) return false;
    if (this._waiting.size === 0) this._stopClock();
    return true;
  }

  /** A request may expire at `due`: the clock fires by then. */
  expiresAt(due: number): void {
    if (due >= this._clockAt) return;
    this._stopClock();
    this._clockAt = due;
    this._clock = setTimeout(tickClock, Math.min(Math.max(0, Math.ceil(due - performance.now())), MAX_TIMER_MS), this);
  }

  /** The clock fired: each request whose time is up expires; the clock is armed for the next. */
  tick(): void {
    this._clock = undefined;
    this._clockAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const call of [...this._waiting.values()]) {
      if (call.due <= now) call.expire();
      else next = Math.min(next, call.due);
    }
    // A timer may fire a fraction of a millisecond before `performance.now()` says it is due: the rest is waited for.
    if (next !== Infinity && this._waiting.size > 0) this.expiresAt(next);
  }

  endAll(): void {
    this._ended = true;
    for (const waiter of [...this._waiting.values()]) waiter.reject(new Error('The server session ended'));
    this._stopClock();
  }

  private _stopClock(): void {
    if (this._clock !== undefined) clearTimeout(this._clock);
    this._clock = undefined;
    this._clockAt = Infinity;
  }
}

const tickClock = (pending: RawPending) => pending.tick();

/**
 * One raw request in flight: one object with its abort listener, not a closure for each (every
 * tools/call runs this: BENCHMARKS.md case 2), timed by its RawPending's clock. It ends once,
 * whichever comes first: the answer, an error, the timeout, the total limit, or the caller's abort.
 */
class RawCall {
  /** When it expires (`performance.now()` ms): the idle timeout, or the total limit when that comes first. */
  due = Infinity;
  private _forTotal = false;
  private readonly _deadline: number;
  private readonly _onAbort: (() => void) | undefined;
  unhear: (() => void) | undefined;
  private readonly _unwatch: (() => void) | undefined;

  constructor(
    private readonly _id: string,
    private readonly _method: string,
    private readonly _options: RawRequestOptions,
    private readonly _pending: RawPending,
    private readonly _resolve: (r: RawResponse) => void,
    private readonly _reject: (e: unknown) => void,
  ) {
    this._deadline = _options.maxTotalTimeoutMs === undefined ? Infinity : performance.now() + _options.maxTotalTimeoutMs;
    this._arm();
    const answering = _options.answering;
    if (answering) {
      answering.onAnswering = () => this.rearm();
      this._unwatch = () => void (answering.onAnswering = undefined);
    }
    const signal = _options.signal;
    if (signal) {
      this._onAbort = () => this._end() && (this._cancel(String(signal.reason ?? 'cancelled')), _reject(signal.reason));
      signal.addEventListener('abort', this._onAbort, { once: true });
    }
  }

  resolve(response: RawResponse): void {
    if (this._end()) this._resolve(response);
  }

  reject(error: unknown): void {
    if (this._end()) this._reject(error);
  }

  /** Starts the idle timeout again (progress on the request's own token, or a prompt of its call opened or closed). */
  rearm(): void {
    this._arm();
  }

  /** Progress on the request's own id. */
  progress(progress: RawProgress): void {
    if (this._options.resetTimeoutOnProgress) this._arm();
    this._options.onProgress?.(progress);
  }

  expire(): void {
    if (!this._end()) return;
    this._cancel('timed out');
    this._reject(timedOut(this._method, this._forTotal ? { maxTotalTimeout: this._options.maxTotalTimeoutMs } : { timeout: this._options.timeoutMs }));
  }

  /** The idle timeout, or the total limit when that comes first, or while the user answers a prompt of the call (the idle one stands still then). */
  private _arm(): void {
    const now = performance.now();
    this._forTotal = this._deadline - now <= this._options.timeoutMs || (this._options.answering?.answering ?? 0) > 0;
    // No total limit while answering: it never expires (until the session ends).
    this.due = this._forTotal ? this._deadline : now + this._options.timeoutMs;
    this._pending.expiresAt(this.due);
  }

  /** True the first time: the request is no longer waited for. */
  private _end(): boolean {
    if (!this._pending.forget(this._id)) return false;
    this.unhear?.();
    this._unwatch?.();
    if (this._onAbort) this._options.signal?.removeEventListener('abort', this._onAbort);
    return true;
  }

  /** A request we stop waiting for is cancelled on the server too, as the SDK does for its own. */
  private _cancel(reason: string): void {
    this._pending.notify('notifications/cancelled', { requestId: this._id, reason });
  }
}

/** The longest a Node timer waits. */
const MAX_TIMER_MS = 2_147_483_647;

/** A request that waited too long, as callErrors.ts tells a timeout (`REQUEST_TIMEOUT`; which limit in `data`). */
function timedOut(method: string, data: { timeout?: number; maxTotalTimeout?: number }): Error {
  const limit = data.maxTotalTimeout === undefined ? `timed out after ${data.timeout} ms` : `exceeded its maximum total timeout of ${data.maxTotalTimeout} ms`;
  return Object.assign(new Error(`${method} ${limit}`), { code: 'REQUEST_TIMEOUT', data });
}

/** A raw answer as the Tasks package reads it; a malformed error is reported as one, saying why. */
function responseOf(message: JSONRPCMessage): RawResponse {
  const m = message as { result?: unknown; error?: unknown };
  if ('result' in m) return { kind: 'result', result: m.result };
  const error = m.error;
  if (isObject(error) && Number.isInteger(error.code) && typeof error.message === 'string') {
    return { kind: 'error', error: { code: error.code as number, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) } };
  }
  return { kind: 'error', error: { code: -32603, message: 'The server answered with neither a result nor a well-formed error' } };
}

/** The server's own answer, when `keepRawAnswers` put it aside; otherwise the answer as it came. */
export function rawAnswer(answer: unknown): unknown {
  if (typeof answer !== 'object' || answer === null || !(RAW in answer)) return answer;
  const raw = { ...(answer as Record<symbol, Record<string, unknown>>)[RAW] };
  delete raw.resultType; // the 2026-07-28 envelope, which the SDK has already acted on
  return raw;
}

function standIn(message: JSONRPCMessage, asked: Map<string | number, Asked>): JSONRPCMessage {
  if ('method' in message || !('id' in message) || message.id === undefined) return message;
  const request = asked.get(message.id);
  asked.delete(message.id);
  if (!('result' in message)) return message;
  const result: unknown = message.result;
  // The SDK does not recognise a response whose result is not an object, and its request would
  // wait for its timeout: fail it now, saying why.
  if (!isObject(result)) return { jsonrpc: '2.0', id: message.id, error: { code: -32603, message: `The server answered with ${result === null ? 'null' : Array.isArray(result) ? 'a list' : `a ${typeof result}`} where a result object belongs` } };
  if (!request || (result.resultType ?? (request.modern ? 'complete' : undefined)) !== 'complete' || RAW in result) return message;
  const { items } = request;
  // Only what the SDK needs to accept the answer, so a malformed cursor or cache hint is ours to
  // judge too. A list must say how long it may be cached: not at all (we do not cache through the SDK).
  const stand: Record<string | symbol, unknown> = { resultType: 'complete', [items]: [], ...(items === 'tools' && NOT_CACHED), [RAW]: result };
  return { ...message, result: stand } as JSONRPCMessage;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A request's options to its transport. Its AbortSignal is made when the transport reads it
 * (Streamable HTTP does, to stop the request's POST; stdio never does): a gateway's call carries a
 * light signal, and a real one a call is dear on Node 20 (callSignal.ts). abortSignalOf's one line
 * is written out here: this module is a leaf of the session runtime and imports no code of ours.
 */
class SendOptions {
  constructor(
    readonly headers: Readonly<Record<string, string>> | undefined,
    private readonly _signal: CallSignal | undefined,
  ) {}

  get requestSignal(): AbortSignal | undefined {
    const signal = this._signal;
    return signal === undefined || signal instanceof AbortSignal ? signal : signal.toAbortSignal?.();
  }
}
