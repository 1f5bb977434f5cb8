import type { Tool } from '@modelcontextprotocol/client';
import { inputRoundOf, type CallOptions, type StartedTask } from '../connection/eraClient';
import type { ServerConnection } from '../connection/serverConnection';
import type { ServerDefinition } from '../config/serverConfig';
import type { BinarySaver, RawToolResult, RenderedResult } from '../render/renderResult';
import { sanitizeLine } from '../render/sanitize';
import { maskSecrets } from '../render/secrets';
import { problemText } from '../tools/schemaProblems';
import type { SchemaValidator } from '../tools/schemaValidator';
import { CallCancel, type CallSignal } from '../callSignal';
import { describeCallError } from './callErrors';
import type { CallOutcome, CallRequest } from './callTypes';
import type { CallSink } from './ports';
import type { Progress, ProgressCoalescer } from './progressCoalescer';
import type { TaskBoard } from './taskBoard';
import type { TaskFollowUp, TaskWatch } from './taskFollowUp';

/** What a followed call reads of the pipeline (CallRunner's parts). */
export interface FollowParts {
  readonly sink: CallSink;
  readonly validator: SchemaValidator;
  /** Set when a task board follows calls: Cancel Task must be able to stop each one. */
  readonly tasks: TaskBoard | undefined;
  readonly saveBinary: ((callId: string) => BinarySaver) | undefined;
  render(raw: RawToolResult, save?: BinarySaver): Promise<RenderedResult>;
  progress(show: (progress: Progress) => void): ProgressCoalescer;
}

/** What the caller gave that the call's answer is shaped by. */
type Caller = Pick<CallRequest, 'signal' | 'onProgress' | 'keepRaw' | 'input' | 'onTaskStarted'>;

/** How long a call may go without an answer or progress, and in all. */
export interface CallLimits {
  readonly timeoutSeconds: number;
  readonly maxTotalSeconds: number;
}

/**
 * One call (or task fetch) from its sending to its outcome: progress coalesced, the task it may
 * become watched (taskFollowUp.ts), Cancel Task or the caller's signal ending it as cancelled,
 * the answer turned into an outcome. Every call makes one, so what only some calls need (the
 * coalescer, the task watch, a signal of its own) is made where it is needed (BENCHMARKS.md, tenth pass).
 */
export class CallFollow {
  readonly started = performance.now();
  /** The wall clock's time of sending, for a task's row (the monotonic clock stands still while a laptop sleeps). */
  private readonly _sentAt = Date.now();
  readonly limits: CallLimits;
  /** What the call is sent with: a signal of its own where Cancel Task can stop it, else the caller's. */
  readonly signal: CallSignal | undefined;
  private readonly _abort: (() => void) | undefined;
  private _coalescer: ProgressCoalescer | undefined;
  private _watch: TaskWatch | undefined;

  constructor(
    private readonly _callId: string,
    private readonly _server: string,
    private readonly _tool: Tool | string,
    private readonly _connection: ServerConnection,
    private readonly _caller: Caller,
    private readonly _parts: FollowParts,
    private readonly _tasks: TaskFollowUp,
  ) {
    this.limits = callLimits(_connection.definition, typeof _tool === 'string' ? _tool : _tool.name);
    const signal = _caller.signal;
    let own: CallCancel | undefined;
    if (_parts.tasks) {
      const stop = (own = new CallCancel());
      this._abort = () => stop.abort();
      signal?.addEventListener('abort', this._abort, { once: true });
      if (signal?.aborted) stop.abort();
    }
    this.signal = own?.signal ?? signal;
  }

  /** The options a `tools/call` is sent with (`traceparent`: the call's span, for the request's `_meta`). */
  callOptions(traceparent: string | undefined): CallOptions {
    // Written out, not spread: an object literal of one shape a call, not a copy and a conditional spread.
    const options: { -readonly [K in keyof CallOptions]: CallOptions[K] } = {
      signal: this.signal,
      timeoutMs: this.limits.timeoutSeconds * 1000,
      onTaskStatus: this._onTaskStatus,
      onprogress: this.onProgress,
      onTask: this._onTask,
      maxTotalTimeoutMs: this.limits.maxTotalSeconds * 1000,
      input: this._caller.input,
    };
    if (traceparent !== undefined) options.meta = { traceparent };
    return options;
  }

  /** The options a task an earlier call started is fetched with: it is followed as the call's own task. */
  resumeOptions(): Pick<CallOptions, 'signal' | 'timeoutMs' | 'onTaskStatus'> {
    return { signal: this.signal, timeoutMs: this.limits.timeoutSeconds * 1000, onTaskStatus: this._onTaskStatus };
  }

  /** The task this call is or becomes (made at the first word of one: most calls are not tasks). */
  watch(): TaskWatch {
    return (this._watch ??= this._tasks.watch(this._callId, this._server, this._connection, this._abort ?? noop));
  }

  /** The server's progress, its message cleaned and masked; the coalescer is made at the first (most calls report none). */
  readonly onProgress = (p: Progress): void => {
    const clean = { progress: p.progress, total: p.total, message: p.message === undefined ? undefined : maskSecrets(sanitizeLine(p.message), this._connection.secrets) };
    (this._coalescer ??= this._parts.progress((shown) => {
      this._parts.sink.progress(this._callId, shown);
      this._caller.onProgress?.(shown);
    })).push(clean);
  };

  private readonly _onTask = (task: StartedTask): void => {
    this.watch().started(task, typeof this._tool === 'string' ? this._tool : this._tool.name, new Date(this._sentAt).toISOString());
    this._caller.onTaskStarted?.();
  };

  private readonly _onTaskStatus: CallOptions['onTaskStatus'] = (status) => this.watch().onStatus?.(status);

  /** What the call comes to once `send` sent it: the answer rendered, a round passed back, or why it failed or was stopped. */
  async outcome(send: () => Promise<RawToolResult>): Promise<CallOutcome> {
    try {
      const raw = await send();
      return this._answered(raw) ?? this._rendered(raw, await this._parts.render(raw, this._parts.saveBinary?.(this._callId)));
    } catch (err) {
      return this._failed(err);
    }
  }

  /** The server answered: a round that asks goes back to the caller's client; otherwise undefined (the answer is rendered). */
  private _answered(raw: RawToolResult): CallOutcome | undefined {
    this._flushProgress();
    const round = this._caller.input && inputRoundOf(raw);
    if (!round) return undefined;
    this._parts.sink.line(this._callId, `input required: the server asks for ${Object.keys(round.inputRequests).map((k) => `"${sanitizeLine(k)}"`).join(', ')}; passed to the caller's client to answer`);
    return this._settled({ kind: 'input-required', round, durationMs: performance.now() - this.started });
  }

  /** The answer, rendered: its structured content checked against the tool's outputSchema. */
  private _rendered(raw: RawToolResult, result: RenderedResult): CallOutcome {
    const durationMs = performance.now() - this.started;
    const outputWarning = typeof this._tool === 'string' ? undefined : this._checkOutput(this._tool, raw);
    const kept = this._caller.keepRaw ? raw : undefined;
    if (result.isError) return this._settled(kept ? { kind: 'tool-error', result, durationMs, raw: kept } : { kind: 'tool-error', result, durationMs });
    return this._settled(kept ? { kind: 'ok', result, durationMs, outputWarning, raw: kept } : { kind: 'ok', result, durationMs, outputWarning });
  }

  /** Sending, waiting or rendering failed: cancelled when the signal says someone stopped it (the SDK reports that as a timeout). */
  private _failed(err: unknown): CallOutcome {
    this._flushProgress();
    return this._settled(this.signal?.aborted ? { kind: 'cancelled' } : describeCallError(err, this.limits), err);
  }

  private _settled(outcome: CallOutcome, error?: unknown): CallOutcome {
    if (this._abort) this._caller.signal?.removeEventListener('abort', this._abort);
    this._watch?.settled(outcome.kind, error);
    return outcome;
  }

  /** The last progress is shown before the result line, and the user told what was left out. */
  private _flushProgress(): void {
    const coalescer = this._coalescer;
    const dropped = coalescer ? coalescer.flush() : 0;
    if (dropped > 0) this._parts.sink.line(this._callId, `progress: ${dropped} more updates were not shown (at most ${coalescer?.perSecond} a second are).`);
  }

  /**
   * Structured content is checked against the tool's outputSchema; a mismatch is flagged, never
   * hidden: in the call's log here, and returned for the outcome (the CLI and the model see it).
   */
  private _checkOutput(tool: Tool, raw: object): string | undefined {
    if (!tool.outputSchema) return undefined;
    const sink = this._parts.sink;
    const structured = (raw as { structuredContent?: unknown }).structuredContent;
    let warning: string | undefined;
    if (structured === undefined) {
      if (!(raw as { isError?: boolean }).isError) warning = 'the tool declares an outputSchema but returned no structuredContent.';
    } else {
      const compiled = this._parts.validator.compile(tool.outputSchema);
      const check = compiled.ok ? compiled.check(structured) : undefined;
      if (!compiled.ok) sink.line(this._callId, `warning: the tool's outputSchema does not compile (${compiled.error}); structuredContent was not checked.`);
      else if (check?.valid) sink.line(this._callId, 'structuredContent matches the outputSchema.');
      else if (check) warning = `structuredContent does not match the outputSchema: ${check.problems.map(problemText).join('; ')}`;
    }
    if (warning) sink.line(this._callId, `warning: ${warning}`);
    return warning;
  }
}

const noop = (): void => undefined;

/** How long a call of `tool` may go without an answer or progress, and in all (its own timeout may be longer than the total). */
function callLimits(def: ServerDefinition, tool: string): CallLimits {
  const timeoutSeconds = def.toolTimeouts?.[tool] ?? def.timeoutSeconds;
  return { timeoutSeconds, maxTotalSeconds: Math.max(def.maxTotalTimeoutSeconds, timeoutSeconds) };
}
