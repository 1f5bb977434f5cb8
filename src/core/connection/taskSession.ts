import type {
  ApplicationInputHandler,
  ConnectedMcpSessionPort,
  DispatchOptions,
  JsonRpcResponse,
  SessionTaskCapabilities,
  TaskEnabledSession,
  TaskView,
  ToolExecution,
} from '@modelcontextprotocol/ext-tasks/client' with { 'resolution-mode': 'import' };
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core' with { 'resolution-mode': 'import' };
import type { RawRequests } from './rawAnswers';

/**
 * The shortest and longest wait between two polls of one task. A server's `pollInterval` is
 * honoured inside these bounds: 0 would have us poll flat out, a year would never ask again.
 */
export const POLL_BOUNDS_MS = { min: 250, max: 10_000 } as const;

/** Each poll of a long task waits at least this share of the task's age: a task of an hour is asked every 10 s, not 4 times a second. */
const BACK_OFF_SHARE = 0.1;

/** One request of the session, sent by the SDK client and answered with the server's own result (sdkClient.ts). */
export type TaskRequest = (method: string, params: Record<string, unknown> | undefined, options: { signal?: AbortSignal; timeout?: number; resetTimeoutOnProgress?: boolean; headers?: Record<string, string> }) => Promise<unknown>;

/** The tasks extension of the 2026-07-28 era (SEP-2663): its requests go past the SDK, framed as the era wants. */
export interface TasksExtension {
  readonly raw: RawRequests;
  readonly protocolVersion: string;
  readonly clientInfo: Readonly<Record<string, unknown>>;
  /** The client's capabilities, sent in each request's `_meta` (the tasks extension is added). */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
}

/** `C`: what each call or resumed task carries to the input handler (its `applicationContext`). */
export interface TaskSessionOptions<C = void> {
  /** Stable for one server across sessions and reloads: task references are only resumed where it matches. */
  readonly endpointId: string;
  /** The server's `tasks` capability (2025-11-25), as it declared it; undefined: no tasks. */
  readonly capability: unknown;
  /** Set when the server declared the 2026-07-28 tasks extension: the session speaks its generation (v2). */
  readonly extension?: TasksExtension;
  readonly request: TaskRequest;
  /** Registers a listener for the session's end (the port is then invalid). */
  readonly onClose: (listener: () => void) => void;
  /** Answers what a task (or a 2026-07-28 call) asks of the user: elicitation, roots. */
  readonly onInputRequest?: ApplicationInputHandler<C>['handle'];
  /** At most this many input_required rounds one 2026-07-28 call may take (the package's default is no limit). */
  readonly maxInputRounds?: number;
}

/** How long a raw request may wait when the package names no timeout. */
const RAW_TIMEOUT_MS = 60_000;
const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/**
 * A session that runs tool calls as tasks, from the MCP Tasks package (@modelcontextprotocol/ext-tasks):
 * it creates the task, polls `tasks/get` at the server's interval, fetches the result, cancels and
 * resumes. Its requests go through our own port, not the package's SDK adapter, so they use the
 * client's tolerant path (the server's own answer, as rawAnswers.ts keeps it), and a server's
 * `pollInterval` is bounded and backed off (POLL_BOUNDS_MS) before the package sees it.
 *
 * A module of the heavy bundle (load.ts): the package is ESM only, hence the dynamic import.
 */
export async function openTaskSession<C = void>(options: TaskSessionOptions<C>): Promise<OpenedTaskSession<C>> {
  const tasks = await import('@modelcontextprotocol/ext-tasks/client');
  const { onInputRequest, maxInputRounds } = options;
  const port = new RequestPort(options, tasks.DispatchError);
  const session = tasks.withTasks<C>(port, { onError: () => undefined, ...(onInputRequest && { onInputRequest }), ...(maxInputRounds !== undefined && { maxInputRounds }) });
  return { session, queued: port };
}

/** A task session, and how the requests a 2025-11-25 task queued for the user are fetched. */
export interface OpenedTaskSession<C> {
  readonly session: TaskEnabledSession<C>;
  readonly queued: QueuedRequests;
}

/**
 * A 2025-11-25 task that waits for input (`input_required`) has queued its requests (an
 * elicitation, naming the task in `_meta` related-task); the spec has the requestor call
 * `tasks/result` then, which delivers them and blocks until the task ends. The Tasks package only
 * polls, so the question never came: `fetchQueued` sends that `tasks/result` beside the
 * polls; the requests it brings reach the client's own handlers, and its answer, once the task
 * ended, is the result the package asks for. The 2026-07-28 extension carries the requests in
 * `tasks/get` itself (inputRequests), and the package answers them: nothing to do there.
 */
export interface QueuedRequests {
  /** Fetches what task `taskId` asks, once at a time, until `signal` aborts (the task is no longer followed). */
  fetchQueued(taskId: string, signal: AbortSignal, timeoutMs: number): void;
}

/**
 * The package's port over one SDK client session: the 2025-11-25 generation of tasks through the
 * SDK's requests, or the 2026-07-28 extension (v2), whose `tools/call` and `tasks/*` go raw.
 */
class RequestPort implements ConnectedMcpSessionPort, QueuedRequests {
  readonly endpointId: string;
  readonly taskCapabilities: SessionTaskCapabilities;
  private _invalidated = false;
  private readonly _onInvalidated = new Set<(reason: unknown) => void>();
  /** When each task was first seen and last polled (for the back-off). */
  private readonly _polls = new Map<string, { first: number; last: number }>();
  /** A `tasks/result` sent early for a task that waits for input (fetchQueued), until the package asks for the result. */
  private readonly _early = new Map<string, Promise<JsonRpcResponse>>();

  constructor(
    private readonly _options: Omit<TaskSessionOptions, 'onInputRequest' | 'maxInputRounds'>,
    private readonly _dispatchError: new (message: string, retryable?: boolean, options?: ErrorOptions) => Error,
  ) {
    this.endpointId = _options.endpointId;
    const capability = _options.capability;
    this.taskCapabilities = _options.extension ? { generation: 'v2', capabilities: {} } : isObject(capability) ? { generation: 'v1', capabilities: structuredClone(capability) } : { generation: 'none' };
    _options.onClose(() => {
      if (this._invalidated) return;
      this._invalidated = true;
      for (const listener of [...this._onInvalidated]) listener(new Error('The server session ended'));
    });
  }

  get invalidated(): boolean {
    return this._invalidated;
  }

  async dispatch(request: unknown, options: DispatchOptions = {}): Promise<JsonRpcResponse> {
    if (!isObject(request) || typeof request.method !== 'string') throw new this._dispatchError('A task request must be an object with a method');
    const params = isObject(request.params) ? request.params : undefined;
    if (request.method === 'tasks/get' && typeof params?.taskId === 'string') await this._backOff(params.taskId, options.signal);
    if (request.method === 'tasks/result' && typeof params?.taskId === 'string') {
      // The answer of the early tasks/result, when it brought the result; otherwise asked again.
      const early = this._early.get(params.taskId);
      this._early.delete(params.taskId);
      const answer = early && (await early.catch(() => undefined));
      if (answer?.kind === 'result') return answer;
    }
    return this._send(request.method, params, options);
  }

  fetchQueued(taskId: string, signal: AbortSignal, timeoutMs: number): void {
    if (this.taskCapabilities.generation !== 'v1' || this._invalidated || signal.aborted || this._early.has(taskId)) return;
    // Bounded by the call's idle timeout like every request of a task: one that ends without the
    // result is forgotten, and the next poll that finds the task waiting sends another (the
    // server delivers each queued request once; an answer reaches it whichever tasks/result brought it).
    const early = this._send('tasks/result', { taskId }, { signal, context: { requestTimeoutMs: timeoutMs } });
    this._early.set(taskId, early);
    const forget = () => void (this._early.get(taskId) === early && this._early.delete(taskId));
    signal.addEventListener('abort', forget, { once: true });
    early.then((answer) => void (answer.kind === 'error' && forget()), forget);
  }

  private async _send(method: string, params: Record<string, unknown> | undefined, options: DispatchOptions): Promise<JsonRpcResponse> {
    const extension = this._options.extension;
    if (extension && (method === 'tools/call' || method.startsWith('tasks/'))) return this._dispatchRaw(extension, method, params, options);
    try {
      const context = options.context;
      const result = await this._options.request(method, params, {
        signal: options.signal,
        timeout: context?.requestTimeoutMs,
        resetTimeoutOnProgress: context?.resetTimeoutOnProgress,
        headers: context?.headers && { ...context.headers },
      });
      return { kind: 'result', result: boundPollInterval(result) as JsonValue };
    } catch (err) {
      // A JSON-RPC error (numeric code) is the server's answer; anything else failed on our side.
      if (err instanceof Error && typeof (err as { code?: unknown }).code === 'number') {
        const { code, data } = err as Error & { code: number; data?: unknown };
        return { kind: 'error', error: { code, message: err.message, ...(data === undefined ? {} : { data: JSON.parse(JSON.stringify(data)) as JsonValue }) } };
      }
      throw new this._dispatchError(err instanceof Error ? err.message : String(err), false, { cause: err });
    }
  }

  /** A request of the tasks extension, framed as a 2026-07-28 request (`_meta`), sent past the SDK. */
  private async _dispatchRaw(extension: TasksExtension, method: string, params: Record<string, unknown> | undefined, options: DispatchOptions): Promise<JsonRpcResponse> {
    const context = options.context;
    const headers = context?.headers && Object.fromEntries(Object.entries(context.headers).filter(([name]) => name.toLowerCase() !== 'mcp-name'));
    let response;
    try {
      response = await extension.raw.request(method, frame(extension, params), { timeoutMs: context?.requestTimeoutMs ?? RAW_TIMEOUT_MS, signal: options.signal, headers, resetTimeoutOnProgress: context?.resetTimeoutOnProgress });
    } catch (err) {
      throw new this._dispatchError(err instanceof Error ? err.message : String(err), false, { cause: err });
    }
    if (response.kind === 'error') {
      const { code, message, data } = response.error;
      return { kind: 'error', error: { code, message, ...(data === undefined ? {} : { data: JSON.parse(JSON.stringify(data)) as JsonValue }) } };
    }
    return { kind: 'result', result: boundPollInterval(response.result) as JsonValue };
  }

  onServerRequest(): () => void {
    // The server's requests during a task (elicitation) reach the client's own handlers.
    return () => undefined;
  }

  onNotification(): () => void {
    // Status comes from polling; `notifications/tasks/status` is optional for a server.
    return () => undefined;
  }

  onInvalidated(listener: (reason: unknown) => void): () => void {
    this._onInvalidated.add(listener);
    return () => this._onInvalidated.delete(listener);
  }

  /** Waits until this task's next poll is due: at least POLL_BOUNDS_MS.min after the last, and longer as the task ages. */
  private async _backOff(taskId: string, signal: AbortSignal | undefined): Promise<void> {
    const now = Date.now();
    const seen = this._polls.get(taskId);
    if (this._polls.size > 1000) this._polls.clear(); // bounded; a forgotten entry only loses its back-off
    if (!seen) return void this._polls.set(taskId, { first: now, last: now });
    const gap = Math.min(POLL_BOUNDS_MS.max, Math.max(POLL_BOUNDS_MS.min, (now - seen.first) * BACK_OFF_SHARE));
    const wait = seen.last + gap - now;
    if (wait > 0) await sleep(wait, signal);
    seen.last = Date.now();
  }
}

/** The server declared the 2026-07-28 tasks extension (SEP-2663): an empty object under `capabilities.extensions`, as the extension defines it. */
export function declaresTasksExtension(capabilities: unknown): boolean {
  const extensions = isObject(capabilities) ? capabilities.extensions : undefined;
  const declared = isObject(extensions) ? extensions[TASKS_EXTENSION_ID] : undefined;
  return isObject(declared) && Object.keys(declared).length === 0;
}

/** A result without the 2026-07-28 envelope field `resultType` (the Tasks package has acted on it). */
export function withoutEnvelope(answer: unknown): unknown {
  if (!isObject(answer) || !('resultType' in answer)) return answer;
  const rest = { ...answer };
  delete rest.resultType;
  return rest;
}

/** Each request of the 2026-07-28 era says its version, client and capabilities in `_meta`; ours include the tasks extension. */
function frame(extension: TasksExtension, params: Record<string, unknown> | undefined): Record<string, unknown> {
  const meta = isObject(params?._meta) ? params._meta : {};
  const extensions = isObject(extension.clientCapabilities.extensions) ? extension.clientCapabilities.extensions : {};
  return {
    ...params,
    _meta: {
      ...meta,
      'io.modelcontextprotocol/protocolVersion': extension.protocolVersion,
      'io.modelcontextprotocol/clientInfo': extension.clientInfo,
      'io.modelcontextprotocol/clientCapabilities': { ...extension.clientCapabilities, extensions: { ...extensions, [TASKS_EXTENSION_ID]: {} } },
    },
  };
}

/** A task's suggested poll interval, kept within POLL_BOUNDS_MS (in a task answer or a created task; `pollIntervalMs` in the 2026-07-28 form). */
export function boundPollInterval(result: unknown): unknown {
  if (!isObject(result)) return result;
  const clamp = (ms: number) => Math.min(POLL_BOUNDS_MS.max, Math.max(POLL_BOUNDS_MS.min, ms));
  const bound = (task: Record<string, unknown>) => ({
    ...task,
    ...(typeof task.pollInterval === 'number' && { pollInterval: clamp(task.pollInterval) }),
    ...(typeof task.pollIntervalMs === 'number' && Number.isInteger(task.pollIntervalMs) && { pollIntervalMs: clamp(task.pollIntervalMs) }),
  });
  if (isObject(result.task)) return { ...result, task: bound(result.task) };
  return 'taskId' in result ? bound(result) : result;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', stop);
      resolve();
    }
    function stop() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', stop, { once: true });
  });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** How a followed task ended: its result, or the server's word that it failed or was cancelled (a failure of our own throws). */
export type TaskEnd = { readonly kind: 'completed'; readonly result: unknown } | { readonly kind: 'ended'; readonly message: string };

/** A task's status as the views show it. */
export interface TaskStatusReport {
  readonly taskId: string;
  readonly status: TaskView['status'];
  readonly statusMessage?: string;
}

/**
 * Follows an execution to its end, reporting each new status (a repeat is not reported). A
 * cancelled signal cancels the task on the server (or, where the server cannot cancel, stops
 * following it).
 */
export async function followTask<C>(execution: ToolExecution<unknown, C>, signal: AbortSignal | undefined, onStatus: ((status: TaskStatusReport) => void) | undefined, queued?: { readonly requests: QueuedRequests; readonly timeoutMs: number }): Promise<TaskEnd> {
  const onAbort = () => void execution.cancel().catch(() => execution.detach());
  signal?.addEventListener('abort', onAbort, { once: true });
  // Ends what is fetched for the task (fetchQueued) once it is no longer followed.
  const following = new AbortController();
  let last = '';
  const report = (task: TaskView) => {
    // Each poll that finds it waiting: its queued requests are fetched, if no fetch is under way.
    if (task.status === 'input_required') queued?.requests.fetchQueued(task.taskId, following.signal, queued.timeoutMs);
    const key = `${task.status}\n${task.statusMessage ?? ''}`;
    if (key === last) return;
    last = key;
    onStatus?.({ taskId: task.taskId, status: task.status, statusMessage: task.statusMessage });
  };
  try {
    if (signal?.aborted) onAbort();
    const { outcome } = await execution.settle({ onEvent: (event) => void (event.type === 'task' ? report(event.task) : event.outcome.task && report(event.outcome.task)) });
    if (outcome.status === 'completed') return { kind: 'completed', result: outcome.result };
    // The package reports any failure to follow as a failed task. Without the server's terminal
    // status or an error it answered with, the failure was ours (a poll sent as the session ended:
    // "Not connected"), and the task may still run: it is thrown, so the board keeps the task.
    if (outcome.status === 'failed' && outcome.task === undefined && outcome.error.code === undefined) throw outcome.error.cause ?? outcome.error;
    return { kind: 'ended', message: outcome.status === 'cancelled' ? 'The task was cancelled.' : `The task failed: ${outcome.error.message}` };
  } finally {
    following.abort();
    signal?.removeEventListener('abort', onAbort);
  }
}
