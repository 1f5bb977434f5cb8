import { randomUUID } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerPool } from '../connection/serverPool';
import { ServerState } from '../connection/serverState';
import type { EffectiveAnnotations } from '../tools/annotations';
import type { GrantStore } from '../policy/grants';
import type { RateLimiter } from '../policy/rateLimiter';
import type { BinarySaver, RawToolResult, RenderedResult } from '../render/renderResult';
import { sanitizeLine, shownArguments, shownName } from '../render/sanitize';
import { maskSecrets } from '../render/secrets';
import { approveCall, forecastCall, type CallForecast, type CallRules } from './approvalStep';
import { describeCallError } from './callErrors';
import { AuditWriteError } from './auditFailure';
import type { Approver, AuditLog, CallOrigin, CallSink } from './ports';
import { problemText, type SchemaProblem } from '../tools/schemaProblems';
import type { SchemaValidator } from '../tools/schemaValidator';
import { withoutNullOptionals } from '../tools/nullArguments';
import type { ProgressCoalescer, Progress } from './progressCoalescer';
import type { ServerDefinition } from '../config/serverConfig';
import { CallAuditRecord } from './auditHash';
import type { ServerConnection } from '../connection/serverConnection';
import { inputRoundOf, type CallOptions, type RelayedInput } from '../connection/eraClient';
import type { TaskBoard } from './taskBoard';
import { TaskFollowUp, type TaskResultRequest, type TaskWatch } from './taskFollowUp';
import { READ_TOOL, readAnnotations } from './readApproval';
import type { CallOutcome, CallPipelineOptions, CallRequest } from './callTypes';
import { summaryParts } from './callSummary';
import { NO_SPAN, type CallSpan } from '../telemetry/telemetry';
import type { CallSignal } from '../callSignal';

/**
 * What CallPipeline, built at activation, lends the part of it that runs calls (this file, loaded
 * with the first call): its state, and the modules with classes or module state that activation
 * holds too (a second copy of those would split their state; ARCHITECTURE.md "Limits").
 */
export interface PipelineParts {
  readonly pool: ServerPool;
  readonly validator: SchemaValidator;
  readonly approver: Approver;
  readonly sink: CallSink;
  readonly grants: GrantStore;
  readonly rateLimiter: RateLimiter;
  readonly tasks: TaskBoard | undefined;
  readonly audit: AuditLog | undefined;
  readonly saveBinary: ((callId: string) => BinarySaver) | undefined;
  readonly lockDrift: CallPipelineOptions['lockDrift'];
  readonly telemetry: CallPipelineOptions['telemetry'];
  readonly approveAll: () => boolean;
  validateArguments(tool: Tool, args: unknown): { problems: readonly SchemaProblem[]; warning?: string };
  annotationsOf(connection: ServerConnection, tool: Tool): EffectiveAnnotations;
  callRules(connection: ServerConnection): CallRules | undefined;
  /** The launch a grant is bound to (serverConfig.ts's launchKey). */
  launchKey(connection: ServerConnection): string;
  /** renderResult.ts's: it reads the pieces the transport kept of a long text (textPieces.ts). */
  render(raw: RawToolResult, save?: BinarySaver): Promise<RenderedResult>;
  progress(show: (progress: Progress) => void): ProgressCoalescer;
  /** A call began (+1) or ended (-1). */
  inFlight(change: 1 | -1): void;
}

/** Where a call's progress goes (a coalescer, made at the first). */
type ProgressSink = Pick<ProgressCoalescer, 'push'>;

/** What a call's audit record tells: the approval decision, and the arguments that were sent (edited or not). */
interface CallTrace {
  decision: string;
  sentArgs: Record<string, unknown>;
  /** The call's span: its `traceparent` goes in the request's `_meta`. */
  readonly span: CallSpan;
}

/** The part of CallPipeline that runs calls, made at its first use (through loadCalls()): approve -> invoke -> render -> audit. */
export function newCallRunner(parts: PipelineParts): CallRunner {
  return new CallRunner(parts);
}

export class CallRunner {
  /** The calls the server runs as tasks, and the tasks an earlier session left (taskFollowUp.ts). */
  private readonly _tasks: TaskFollowUp;

  constructor(private readonly _parts: PipelineParts) {
    this._tasks = new TaskFollowUp(_parts.tasks, _parts.sink);
  }

  /** CallPipeline.approveRead. */
  async approveRead(request: { readonly server: string; readonly uri: string; readonly origin: CallOrigin; readonly approver?: Approver }): Promise<{ readonly kind: 'allowed'; readonly uri: string; readonly decision: string } | { readonly kind: 'denied'; readonly decision: string }> {
    const parts = this._parts;
    const connection = parts.pool.get(request.server);
    if (!connection) return { kind: 'denied', decision: `no server named "${shownName(request.server)}" is configured` };
    const validate = (args: Record<string, unknown>) => parts.validateArguments(READ_TOOL, args).problems;
    const approval = await approveCall(
      { server: request.server, launch: parts.launchKey(connection), tool: READ_TOOL, args: { uri: request.uri }, annotations: readAnnotations(connection.definition.trustAnnotations), origin: request.origin, approveAll: parts.approveAll(), validate, rules: parts.callRules(connection) },
      request.approver ?? parts.approver,
      parts.grants,
    );
    if (approval.kind === 'invalid-arguments') return { kind: 'denied', decision: 'denied: the edited arguments hold no URI' };
    if (approval.kind === 'denied') return approval;
    const uri = approval.args.uri;
    return typeof uri === 'string' ? { kind: 'allowed', uri, decision: approval.decision } : { kind: 'denied', decision: 'denied: the edited arguments hold no URI' };
  }

  /** CallPipeline.forecast. */
  forecast(request: { readonly server: string; readonly tool: string; readonly args: Record<string, unknown> }): CallForecast | { readonly kind: 'unknown'; readonly sentence: string } {
    const parts = this._parts;
    const found = parts.pool.findTool(request.server, request.tool);
    if (!found) return { kind: 'unknown', sentence: `Server "${shownName(request.server)}" has no running tool named "${shownName(request.tool)}": start the server to see what would happen.` };
    const { connection, tool } = found;
    const args = withoutNullOptionals(tool.inputSchema, request.args).args;
    const annotations = parts.annotationsOf(connection, tool);
    return forecastCall({ server: request.server, launch: parts.launchKey(connection), tool, args, annotations, approveAll: parts.approveAll(), rules: parts.callRules(connection), drift: parts.lockDrift?.(request.server, tool) }, parts.grants);
  }

  call(request: CallRequest): Promise<CallOutcome> {
    return this._traced(request, (callId, trace) => this._run(callId, request, trace));
  }

  /** CallPipeline.fetchTaskResult. */
  fetchTaskResult(request: TaskResultRequest): Promise<CallOutcome> {
    const entry = this._tasks.entry(request.server, request.taskId);
    const tool = entry?.tool ?? '?';
    return this._traced({ ...request, tool, args: {} }, async (callId, trace) => {
      trace.decision = 'approved when it started';
      const connection = this._parts.pool.get(request.server);
      if (!entry) return { kind: 'failed', message: `No task "${sanitizeLine(request.taskId)}" of "${shownName(request.server)}" is known.` };
      if (!connection || !ServerState.isRunning(connection.state)) return { kind: 'failed', message: `Server "${shownName(request.server)}" is not running: start it, then fetch the result.` };
      this._parts.sink.line(callId, `task ${sanitizeLine(entry.taskId)}: started ${entry.startedAt}; asking the server for it`);
      return this._follow(callId, request.server, tool, connection, callLimits(connection.definition, tool), request, (options) => {
        options.watch.resumed(entry);
        return connection.resumeTask(entry.reference, options, tool);
      });
    });
  }

  /** CallPipeline.checkEarlierTasks. */
  checkEarlierTasks(server: string): Promise<string[]> {
    return this._tasks.checkEarlier(server, this._parts.pool.get(server));
  }

  /** Begin, run, mask, end and audit: the frame every call and task fetch is reported in. */
  private async _traced(request: CallRequest, run: (callId: string, trace: CallTrace) => Promise<CallOutcome>): Promise<CallOutcome> {
    const { sink, pool } = this._parts;
    const callId = randomUUID().slice(0, 8);
    const startedAt = new Date();
    // Names come from the server (or a model): one line each, so they cannot forge lines of the log, and hidden characters shown.
    sink.begin({ callId, server: shownName(request.server), tool: shownName(request.tool), origin: request.origin, args: request.args, startedAt });
    this._parts.inFlight(1);
    const connection = pool.get(request.server);
    const span = this._parts.telemetry?.()?.startCall({ server: request.server, connection, tool: request.tool, origin: request.origin, ...(request.traceparent !== undefined && { parent: request.traceparent }) }) ?? NO_SPAN;
    const trace: CallTrace = { decision: 'none', sentArgs: request.args, span };
    const secrets = connection?.secrets;
    const outcome = maskOutcome(await run(callId, trace).finally(() => this._parts.inFlight(-1)), secrets);
    span.end({ outcome, decision: trace.decision, sentArgs: trace.sentArgs, secrets });
    await sink.end(callId, summaryParts(outcome));
    const sentArgs = trace.sentArgs;
    try {
      const durationMs = 'durationMs' in outcome ? Math.round(outcome.durationMs) : undefined;
      this._parts.audit?.append(new CallAuditRecord(startedAt.toISOString(), callId, request.origin, request.server, request.tool, sentArgs, trace.decision, durationMs, outcome.kind));
    } catch (err) {
      // The call has run: its outcome goes with the failure, not lost with it.
      throw new AuditWriteError(outcome, err);
    }
    return outcome;
  }

  private async _run(callId: string, request: CallRequest, trace: CallTrace): Promise<CallOutcome> {
    const parts = this._parts;
    const { sink, pool } = parts;
    // A server that has just started may still be listing its tools: the call waits for that listing.
    let found = pool.findTool(request.server, request.tool);
    if (!found) {
      await pool.get(request.server)?.listed();
      found = pool.findTool(request.server, request.tool);
    }
    if (!found) {
      const connection = pool.get(request.server);
      const [server, tool] = [shownName(request.server), shownName(request.tool)];
      const listingError = connection?.facts.listingError;
      const message = connection
        ? ServerState.isRunning(connection.state)
          ? listingError !== undefined
            ? `Server "${server}" has no tools to call: ${sanitizeLine(listingError)}`
            : `Server "${server}" has no tool named "${tool}".`
          : `Server "${server}" is not running (${connection.state.kind}).`
        : `No server named "${server}" is configured.`;
      return { kind: 'failed', message };
    }
    const { connection, tool } = found;

    const validate = (args: Record<string, unknown>) => parts.validateArguments(tool, args).problems;
    // A null for an optional argument that cannot be null means "not given" (nullArguments.ts).
    const nulls = withoutNullOptionals(tool.inputSchema, request.args);
    const args = nulls.args;
    trace.sentArgs = args;
    if (nulls.dropped.length > 0) sink.line(callId, `arguments: ${nulls.dropped.map((k) => `"${sanitizeLine(k)}"`).join(', ')} left out: null, which the tool's schema does not take for an optional argument, is read as not given.`);
    const { problems, warning } = parts.validateArguments(tool, args);
    if (warning) sink.line(callId, `warning: ${warning}`);
    if (problems.length > 0) return { kind: 'invalid-arguments', problems };
    const slot = parts.rateLimiter.take(request.server);
    if (!slot.ok) {
      trace.decision = `not sent: over the rate limit (${parts.rateLimiter.setBy})`;
      return { kind: 'failed', message: `Too many calls to "${request.server}" (rate limit, ${parts.rateLimiter.setBy}): nothing was sent. Try again in ${slot.retryInMs} ms.` };
    }

    const annotations = parts.annotationsOf(connection, tool);
    const approval = await approveCall(
      { server: request.server, launch: parts.launchKey(connection), tool, args, annotations, origin: request.origin, approveAll: parts.approveAll(), validate, rules: parts.callRules(connection), drift: parts.lockDrift?.(request.server, tool) },
      request.approver ?? parts.approver,
      parts.grants,
    );
    if (approval.kind === 'invalid-arguments') return { kind: 'invalid-arguments', problems: approval.problems };
    trace.decision = approval.decision;
    sink.line(callId, `approval: ${approval.decision}`);
    if (approval.kind === 'denied') return approval.byRule ? { kind: 'denied', rule: approval.decision } : { kind: 'denied' };
    trace.sentArgs = approval.args;
    if (approval.args !== args) sink.line(callId, `arguments (edited): ${shownArguments(approval.args)}`);
    if (request.signal?.aborted) return { kind: 'cancelled' };

    const limits = callLimits(connection.definition, tool.name);
    const sentAt = Date.now();
    const traceparent = trace.span.traceparent;
    return this._follow(callId, request.server, tool, connection, limits, request, (options) => {
      // Written out, not spread: an object literal of one shape a call, not a copy and a conditional spread.
      const callOptions: { -readonly [K in keyof CallOptions]: CallOptions[K] } = {
        signal: options.signal,
        timeoutMs: options.timeoutMs,
        onTaskStatus: options.onTaskStatus,
        onprogress: (p) => options.progress.push({ progress: p.progress, total: p.total, message: p.message === undefined ? undefined : maskSecrets(sanitizeLine(p.message), connection.secrets) }),
        onTask: (task) => {
          options.watch.started(task, request.tool, new Date(sentAt).toISOString());
          request.onTaskStarted?.();
        },
        maxTotalTimeoutMs: limits.maxTotalSeconds * 1000,
        input: request.input,
      };
      if (traceparent !== undefined) callOptions.meta = { traceparent };
      return connection.callTool(request.tool, approval.args, callOptions);
    });
  }

  /**
   * Sends a call (or a task fetch) and renders what comes back: progress coalesced, a task it
   * becomes watched (taskFollowUp.ts), a cancelled signal or Cancel Task ending it as cancelled.
   */
  private async _follow(
    callId: string,
    server: string,
    tool: Tool | string,
    connection: ServerConnection,
    limits: { timeoutSeconds: number; maxTotalSeconds: number },
    caller: { signal?: CallSignal; onProgress?: CallRequest['onProgress']; keepRaw?: boolean; input?: RelayedInput },
    send: (options: Pick<CallOptions, 'signal' | 'timeoutMs' | 'onTaskStatus'> & { progress: ProgressSink; watch: TaskWatch }) => Promise<RawToolResult>,
  ): Promise<CallOutcome> {
    const { signal, onProgress } = caller;
    const sink = this._parts.sink;
    const started = performance.now();
    // Cancel Task (the board) stops the call as the caller's signal would. Without a board the
    // caller's signal is the call's own (an AbortSignal and its listeners a call are not free).
    const stop = this._parts.tasks || !signal ? new AbortController() : undefined;
    // Without `stop` there is a caller's signal (stop is made whenever there is none).
    const callSignal = stop?.signal ?? signal!;
    const abort = () => stop?.abort();
    if (stop && signal) {
      signal.addEventListener('abort', abort, { once: true });
      if (signal.aborted) abort();
    }
    const watch = this._tasks.watch(callId, server, connection, abort);
    // The coalescer is made at the first progress: most calls report none.
    let coalescer: ProgressCoalescer | undefined;
    const progress: ProgressSink = {
      push: (p) =>
        (coalescer ??= this._parts.progress((clean) => {
          sink.progress(callId, clean);
          onProgress?.(clean);
        })).push(p),
    };
    // The last progress is shown before the result line, and the user told what was left out.
    const flushProgress = () => {
      const dropped = coalescer ? coalescer.flush() : 0;
      if (dropped > 0) sink.line(callId, `progress: ${dropped} more updates were not shown (at most ${coalescer?.perSecond} a second are).`);
    };
    let outcome: CallOutcome;
    let error: unknown;
    try {
      const raw = await send({ signal: callSignal, timeoutMs: limits.timeoutSeconds * 1000, onTaskStatus: watch.onStatus, progress, watch });
      flushProgress();
      const round = caller.input && inputRoundOf(raw);
      if (round) {
        watch.settled('input-required', undefined);
        sink.line(callId, `input required: the server asks for ${Object.keys(round.inputRequests).map((k) => `"${sanitizeLine(k)}"`).join(', ')}; passed to the caller's client to answer`);
        return { kind: 'input-required', round, durationMs: performance.now() - started };
      }
      const result = await this._parts.render(raw, this._parts.saveBinary?.(callId));
      const durationMs = performance.now() - started;
      const outputWarning = typeof tool === 'string' ? undefined : this._checkOutput(callId, tool, raw);
      const kept = caller.keepRaw ? { raw } : {};
      outcome = result.isError ? { kind: 'tool-error', result, durationMs, ...kept } : { kind: 'ok', result, durationMs, outputWarning, ...kept };
    } catch (err) {
      flushProgress();
      error = err;
      // The SDK reports a user abort with the timeout code: the signal tells us who stopped it.
      outcome = callSignal.aborted ? { kind: 'cancelled' } : describeCallError(err, limits);
    } finally {
      if (stop) signal?.removeEventListener('abort', abort);
    }
    watch.settled(outcome.kind, error);
    return outcome;
  }

  /**
   * Structured content is checked against the tool's outputSchema; a mismatch is flagged, never
   * hidden: in the call's log here, and returned for the outcome (the CLI and the model see it).
   */
  private _checkOutput(callId: string, tool: Tool, raw: object): string | undefined {
    const sink = this._parts.sink;
    const structured = (raw as { structuredContent?: unknown }).structuredContent;
    if (!tool.outputSchema) return undefined;
    let warning: string | undefined;
    if (structured === undefined) {
      if (!(raw as { isError?: boolean }).isError) warning = 'the tool declares an outputSchema but returned no structuredContent.';
    } else {
      const compiled = this._parts.validator.compile(tool.outputSchema);
      const check = compiled.ok ? compiled.check(structured) : undefined;
      if (!compiled.ok) sink.line(callId, `warning: the tool's outputSchema does not compile (${compiled.error}); structuredContent was not checked.`);
      else if (check?.valid) sink.line(callId, 'structuredContent matches the outputSchema.');
      else if (check) warning = `structuredContent does not match the outputSchema: ${check.problems.map(problemText).join('; ')}`;
    }
    if (warning) sink.line(callId, `warning: ${warning}`);
    return warning;
  }
}

/** How long a call of `tool` may go without an answer or progress, and in all (its own timeout may be longer than the total). */
function callLimits(def: ServerDefinition, tool: string): { timeoutSeconds: number; maxTotalSeconds: number } {
  const timeoutSeconds = def.toolTimeouts?.[tool] ?? def.timeoutSeconds;
  return { timeoutSeconds, maxTotalSeconds: Math.max(def.maxTotalTimeoutSeconds, timeoutSeconds) };
}

/**
 * The raw result with the secrets masked in every string; one too deep to walk is dropped (the
 * interface then gets the rendered text instead).
 */
function maskRaw<T extends object>(raw: T, secrets: readonly string[]): T | undefined {
  try {
    return JSON.parse(JSON.stringify(raw), (_key, value: unknown) => (typeof value === 'string' ? maskSecrets(value, secrets) : value)) as T;
  } catch {
    return undefined;
  }
}

/** A server's secrets never leave in a result or an error, even when the server echoes them. */
function maskOutcome(outcome: CallOutcome, secrets: readonly string[] | undefined): CallOutcome {
  if (!secrets?.length) return outcome;
  // The pieces go: a secret may span two of them. The masked text is whole (and copied whole).
  if ('result' in outcome) return { ...outcome, result: { ...outcome.result, text: maskSecrets(outcome.result.text, secrets), pieces: undefined }, ...('raw' in outcome && outcome.raw ? { raw: maskRaw(outcome.raw, secrets) } : {}) };
  if ('message' in outcome) return { ...outcome, message: maskSecrets(outcome.message, secrets) };
  // What a round asks reaches the caller's client: masked as a result is (its requestState is passed back as sent, never shown).
  if (outcome.kind === 'input-required') return { ...outcome, round: { ...outcome.round, inputRequests: maskRaw(outcome.round.inputRequests, secrets) ?? {} } };
  // A schema problem quotes the server's pattern or the value: either may hold a secret.
  if (outcome.kind === 'invalid-arguments') return { ...outcome, problems: outcome.problems.map((p) => ({ ...p, message: maskSecrets(p.message, secrets), property: p.property === undefined ? undefined : maskSecrets(p.property, secrets) })) };
  return outcome;
}
