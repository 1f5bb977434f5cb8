import type {
  ConnectedMcpSessionPort,
  DispatchOptions,
  JsonRpcResponse,
  SessionTaskCapabilities,
  TaskEnabledSession,
} from '@modelcontextprotocol/ext-tasks/client' with { 'resolution-mode': 'import' };
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core' with { 'resolution-mode': 'import' };

/**
 * The shortest and longest wait between two polls of one task. A server's `pollInterval` is
 * honoured inside these bounds: 0 would have us poll flat out, a year would never ask again.
 */
export const POLL_BOUNDS_MS = { min: 250, max: 10_000 } as const;

/** Each poll of a long task waits at least this share of the task's age: a task of an hour is asked every 10 s, not 4 times a second. */
const BACK_OFF_SHARE = 0.1;

/** One request of the session, sent by the SDK client and answered with the server's own result (sdkClient.ts). */
export type TaskRequest = (method: string, params: Record<string, unknown> | undefined, options: { signal?: AbortSignal; timeout?: number; resetTimeoutOnProgress?: boolean; headers?: Record<string, string> }) => Promise<unknown>;

export interface TaskSessionOptions {
  /** Stable for one server across sessions and reloads: task references are only resumed where it matches. */
  readonly endpointId: string;
  /** The server's `tasks` capability (2025-11-25), as it declared it; undefined: no tasks. */
  readonly capability: unknown;
  readonly request: TaskRequest;
  /** Registers a listener for the session's end (the port is then invalid). */
  readonly onClose: (listener: () => void) => void;
}

/**
 * A session that runs tool calls as tasks, from the MCP Tasks package (@modelcontextprotocol/ext-tasks):
 * it creates the task, polls `tasks/get` at the server's interval, fetches the result, cancels and
 * resumes. Its requests go through our own port, not the package's SDK adapter, so they use the
 * client's tolerant path (the server's own answer, as rawAnswers.ts keeps it), and a server's
 * `pollInterval` is bounded and backed off (POLL_BOUNDS_MS) before the package sees it.
 *
 * A module of the heavy bundle (load.ts): the package is ESM only, hence the dynamic import.
 */
export async function openTaskSession(options: TaskSessionOptions): Promise<TaskEnabledSession> {
  const tasks = await import('@modelcontextprotocol/ext-tasks/client');
  return tasks.withTasks(new RequestPort(options, tasks.DispatchError), { onError: () => undefined });
}

/** The package's port over one SDK client session (the 2025-11-25 generation of tasks). */
class RequestPort implements ConnectedMcpSessionPort {
  readonly endpointId: string;
  readonly taskCapabilities: SessionTaskCapabilities;
  private _invalidated = false;
  private readonly _onInvalidated = new Set<(reason: unknown) => void>();
  /** When each task was first seen and last polled (for the back-off). */
  private readonly _polls = new Map<string, { first: number; last: number }>();

  constructor(
    private readonly _options: TaskSessionOptions,
    private readonly _dispatchError: new (message: string, retryable?: boolean, options?: ErrorOptions) => Error,
  ) {
    this.endpointId = _options.endpointId;
    const capability = _options.capability;
    this.taskCapabilities = isObject(capability) ? { generation: 'v1', capabilities: structuredClone(capability) } : { generation: 'none' };
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
    try {
      const context = options.context;
      const result = await this._options.request(request.method, params, {
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

/** A task's suggested poll interval, kept within POLL_BOUNDS_MS (in a task answer or a created task). */
export function boundPollInterval(result: unknown): unknown {
  if (!isObject(result)) return result;
  const bound = (task: Record<string, unknown>) =>
    typeof task.pollInterval === 'number' ? { ...task, pollInterval: Math.min(POLL_BOUNDS_MS.max, Math.max(POLL_BOUNDS_MS.min, task.pollInterval)) } : task;
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
