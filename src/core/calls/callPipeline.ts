import { randomUUID } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerPool } from '../connection/serverPool';
import { ServerState } from '../connection/serverState';
import { Emitter } from '../events';
import { loadRules } from '../policy/load';
import { closedBySandbox, effectiveAnnotations } from '../tools/annotations';
import type { SchemaValidator } from '../tools/schemaValidator';
import type { ApprovalRules } from '../policy/approvalPolicy';
import { GrantStore, memoryPersistence } from '../policy/grants';
import { RateLimiter } from '../policy/rateLimiter';
import { renderResult, type BinarySaver, type RawToolResult, type RenderedResult } from '../render/renderResult';
import { sanitizeLine, shownArguments, shownName } from '../render/sanitize';
import { maskSecrets } from '../render/secrets';
import { approveCall, forecastCall, type CallForecast, type CallRules, type LockDrift } from './approvalStep';
import { RuleBindings, memoryRuleBindings } from '../policy/ruleBindings';
import type { RuleSet } from '../policy/ruleSource';
import { describeCallError, type CallFailure } from './callErrors';
import type { Approver, AuditLog, CallOrigin, CallSink } from './ports';
import { problemText, type SchemaProblem } from '../tools/schemaProblems';
import { withoutNullOptionals } from '../tools/nullArguments';
import { PROGRESS_PER_SECOND, ProgressCoalescer } from './progressCoalescer';
import { launchKey, type ServerDefinition } from '../config/serverConfig';
import { argumentsHash } from './auditHash';
import type { ServerConnection } from '../connection/serverConnection';
import { inputRoundOf, type CallOptions, type InputRound, type RelayedInput } from '../connection/eraClient';
import type { TaskBoard } from './taskBoard';
import { TaskFollowUp, type TaskResultRequest, type TaskWatch } from './taskFollowUp';
import { READ_TOOL, readAnnotations } from './readApproval';
import { NO_SPAN, type CallSpan, type Telemetry } from '../telemetry/telemetry';

export interface CallRequest {
  readonly server: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly origin: CallOrigin;
  readonly signal?: AbortSignal;
  /** The server runs the call as a task: from here on the task board follows it (and Cancel Task cancels it). */
  readonly onTaskStarted?: () => void;
  /** Progress for the caller's own UI (a notification, a chat response), besides the sink. */
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Keep the result as the server sent it (`raw`, secrets masked) for the tool's own interface (MCP Apps), or a gateway's client. */
  readonly keepRaw?: boolean;
  /** Who decides this call if it asks, instead of the pipeline's own Approver (a gateway's client, asked through elicitation). */
  readonly approver?: Approver;
  /** A 2026-07-28 server's rounds that ask go back to the caller (outcome `input-required`): a gateway's 2026-07-28 client answers them. */
  readonly input?: RelayedInput;
}

/** What the audit record tells of a call: the approval decision, and the arguments that were sent (edited or not). */
interface CallTrace {
  decision: string;
  sentArgs: Record<string, unknown>;
  /** The call's span: its `traceparent` goes in the request's `_meta`. */
  readonly span: CallSpan;
}

/** How a call ended; every surface reports exactly one of these. */
export type CallOutcome =
  /** `outputWarning`: the structured result breaks the tool's outputSchema (or is missing): flagged on every surface. */
  | { readonly kind: 'ok'; readonly result: RenderedResult; readonly durationMs: number; readonly outputWarning?: string; readonly raw?: RawToolResult }
  /** `raw`: the result as the server sent it, for the tool's own interface (MCP Apps) only; never shown as text. */
  | { readonly kind: 'tool-error'; readonly result: RenderedResult; readonly durationMs: number; readonly raw?: RawToolResult }
  | { readonly kind: 'invalid-arguments'; readonly problems: readonly SchemaProblem[] }
  /** `rule`: the rule that denied it, in words ("denied by rule 'no env files' (user settings): ..."); none when the user did. */
  | { readonly kind: 'denied'; readonly rule?: string }
  | { readonly kind: 'cancelled' }
  /** The server asks for input (a 2026-07-28 round, secrets masked) that the caller's own client answers (CallRequest.input). */
  | { readonly kind: 'input-required'; readonly round: InputRound; readonly durationMs: number }
  | CallFailure;

export interface CallPipelineOptions {
  readonly approveAll?: () => boolean;
  /** A sandboxed server without network counts as closed-world for its non-destructive tools (closedBySandbox). */
  readonly offlineSandboxClosed?: () => boolean;
  /** Where a call's images, audio and blobs are saved (`callId`: a call never removes its own files to make room). */
  readonly saveBinary?: (callId: string) => BinarySaver;
  readonly grants?: GrantStore;
  readonly audit?: AuditLog;
  readonly rateLimiter?: RateLimiter;
  /** Where calls that the server runs as tasks are tracked (the tree, the status bar, Fetch Result). */
  readonly tasks?: TaskBoard;
  /** The argument rules (policy, user, workspace) every call is decided by first. */
  readonly argumentRules?: RuleSet;
  /** Which tool definition each allow rule was bound to (kept beside the grants). */
  readonly ruleBindings?: RuleBindings;
  /** The folder `${workspaceFolder}` in rules names. */
  readonly workspaceFolder?: () => string | undefined;
  /** How a tool differs from a lockfile that locks its server (the workspace's), if it does: such a call asks. */
  readonly lockDrift?: (server: string, tool: Tool) => LockDrift | undefined;
  /** Where each call's span goes (asked at each call: telemetry may be turned on or off meanwhile); none when absent. */
  readonly telemetry?: () => Telemetry | undefined;
}

/**
 * The one way to call a tool: validate -> approve -> invoke -> render -> audit. Nothing reaches
 * the server before the arguments are valid and, where needed, the user has approved.
 */
export class CallPipeline {
  private _callsInFlight = 0;
  private readonly _onDidChangeCallsInFlight = new Emitter<number>();
  /** Fires with the number of calls between begin and end (the status bar shows it). */
  readonly onDidChangeCallsInFlight = this._onDidChangeCallsInFlight.event;
  readonly grants: GrantStore;
  readonly ruleBindings: RuleBindings;
  /** The rules the approve stage applies: surfaces that say "will it ask" read these (callVerdict). */
  readonly rules: ApprovalRules;
  private readonly _rateLimiter: RateLimiter;
  /** The calls the server runs as tasks, and the tasks an earlier session left (taskFollowUp.ts). */
  private readonly _tasks: TaskFollowUp;

  constructor(
    private readonly _pool: ServerPool,
    private readonly _validator: SchemaValidator,
    private readonly _approver: Approver,
    private readonly _sink: CallSink,
    private readonly _options: CallPipelineOptions = {},
  ) {
    this.grants = _options.grants ?? new GrantStore(memoryPersistence());
    this.ruleBindings = _options.ruleBindings ?? new RuleBindings(memoryRuleBindings());
    this.rules = {
      approveAll: _options.approveAll ?? (() => false),
      grants: this.grants,
      launchOf: (server) => _pool.launchOf(server),
      annotationsOf: (server, tool) => {
        const connection = _pool.get(server);
        return connection && this._annotationsOf(connection, tool);
      },
    };
    this._rateLimiter = _options.rateLimiter ?? new RateLimiter();
    this._tasks = new TaskFollowUp(_options.tasks, _sink);
  }

  /** Checks arguments against the tool's input schema; problems name the field and why. */
  validateArguments(tool: Tool, args: unknown): { problems: readonly SchemaProblem[]; warning?: string } {
    const compiled = this._validator.compile(tool.inputSchema);
    if (!compiled.ok) return { problems: [], warning: `The tool's input schema does not compile (${compiled.error}); arguments were not checked.` };
    const check = compiled.check(args);
    return { problems: check.valid ? [] : check.problems };
  }

  /** Calls begun and not yet ended (waiting for approval, or running). */
  get callsInFlight(): number {
    return this._callsInFlight;
  }

  /**
   * The approve stage alone, for a resource read the model asked for: the rules, grants and the
   * approver decide it as they would a call of `resources/read` with `{ uri }` (readApproval.ts).
   * Nothing is read here; `uri` in the answer is the one to read (the user may have edited it).
   * `approver` replaces the pipeline's own for this read, as a call's may (the gateway's client).
   */
  async approveRead(request: { readonly server: string; readonly uri: string; readonly origin: CallOrigin; readonly approver?: Approver }): Promise<{ readonly kind: 'allowed'; readonly uri: string; readonly decision: string } | { readonly kind: 'denied'; readonly decision: string }> {
    const connection = this._pool.get(request.server);
    if (!connection) return { kind: 'denied', decision: `no server named "${shownName(request.server)}" is configured` };
    const validate = (args: Record<string, unknown>) => this.validateArguments(READ_TOOL, args).problems;
    const approval = await approveCall(
      { server: request.server, launch: launchKey(connection.definition.spec), tool: READ_TOOL, args: { uri: request.uri }, annotations: readAnnotations(connection.definition.trustAnnotations), origin: request.origin, approveAll: this.rules.approveAll(), validate, rules: this._callRules(connection) },
      request.approver ?? this._approver,
      this.grants,
    );
    if (approval.kind === 'invalid-arguments') return { kind: 'denied', decision: 'denied: the edited arguments hold no URI' };
    if (approval.kind === 'denied') return approval;
    const uri = approval.args.uri;
    return typeof uri === 'string' ? { kind: 'allowed', uri, decision: approval.decision } : { kind: 'denied', decision: 'denied: the edited arguments hold no URI' };
  }

  /**
   * What a call with these arguments would meet, and why, without running it or asking anyone:
   * the same decision the approve stage takes ("What Would Happen...", the CLI's --explain).
   */
  forecast(request: { readonly server: string; readonly tool: string; readonly args: Record<string, unknown> }): CallForecast | { readonly kind: 'unknown'; readonly sentence: string } {
    const found = this._pool.findTool(request.server, request.tool);
    if (!found) return { kind: 'unknown', sentence: `Server "${shownName(request.server)}" has no running tool named "${shownName(request.tool)}": start the server to see what would happen.` };
    const { connection, tool } = found;
    const args = withoutNullOptionals(tool.inputSchema, request.args).args;
    const annotations = this._annotationsOf(connection, tool);
    return forecastCall({ server: request.server, launch: launchKey(connection.definition.spec), tool, args, annotations, approveAll: this.rules.approveAll(), rules: this._callRules(connection), drift: this._options.lockDrift?.(request.server, tool) }, this.grants);
  }

  /** The tool's effective annotations; a server sandboxed offline counts as closed-world when the user chose so (closedBySandbox). */
  private _annotationsOf(connection: ServerConnection, tool: Tool) {
    return closedBySandbox(effectiveAnnotations(tool, connection.definition.trustAnnotations), connection.definition.spec, () => this._options.offlineSandboxClosed?.() === true);
  }

  /** The rules in force and where a call of this server reads its paths (worked out only when a rule is written). */
  private _callRules(connection: ServerConnection): CallRules | undefined {
    const set = this._options.argumentRules;
    if (!set) return undefined;
    const remote = connection.definition.spec.type !== 'stdio';
    const place = () => {
      const engine = loadRules();
      // A remote server's paths are on another machine: read lexically, never looked up here.
      return { paths: remote ? engine.lexicalPaths() : engine.localPaths(), workspaceFolder: this._options.workspaceFolder?.(), base: remote ? undefined : connection.workingFolder };
    };
    return { list: set.rules, place, bindings: this.ruleBindings };
  }

  call(request: CallRequest): Promise<CallOutcome> {
    return this._traced(request, (callId, trace) => this._run(callId, request, trace));
  }

  /**
   * Follows a task an earlier call started (this session or before a reload) and reports its
   * result like a call's. It was approved when it started: nothing new is sent to run.
   */
  fetchTaskResult(request: TaskResultRequest): Promise<CallOutcome> {
    const entry = this._tasks.entry(request.server, request.taskId);
    const tool = entry?.tool ?? '?';
    return this._traced({ ...request, tool, args: {} }, async (callId, trace) => {
      trace.decision = 'approved when it started';
      const connection = this._pool.get(request.server);
      if (!entry) return { kind: 'failed', message: `No task "${sanitizeLine(request.taskId)}" of "${shownName(request.server)}" is known.` };
      if (!connection || !ServerState.isRunning(connection.state)) return { kind: 'failed', message: `Server "${shownName(request.server)}" is not running: start it, then fetch the result.` };
      this._sink.line(callId, `task ${sanitizeLine(entry.taskId)}: started ${entry.startedAt}; asking the server for it`);
      return this._follow(callId, request.server, tool, connection, callLimits(connection.definition, tool), request, (options) => {
        options.watch.resumed(entry);
        return connection.resumeTask(entry.reference, options, tool);
      });
    });
  }

  /**
   * Asks a running server about the tasks an earlier session left (`tasks/get`): each shows what
   * the server says of it now; one the server no longer knows is dropped. Returns a line for each
   * dropped task, for the log.
   */
  checkEarlierTasks(server: string): Promise<string[]> {
    return this._tasks.checkEarlier(server, this._pool.get(server));
  }

  /** Begin, run, mask, end and audit: the frame every call and task fetch is reported in. */
  private async _traced(request: CallRequest, run: (callId: string, trace: CallTrace) => Promise<CallOutcome>): Promise<CallOutcome> {
    const callId = randomUUID().slice(0, 8);
    const startedAt = new Date();
    // Names come from the server (or a model): one line each, so they cannot forge lines of the log, and hidden characters shown.
    this._sink.begin({ callId, server: shownName(request.server), tool: shownName(request.tool), origin: request.origin, args: request.args, startedAt });
    this._onDidChangeCallsInFlight.fire(++this._callsInFlight);
    const connection = this._pool.get(request.server);
    const span = this._options.telemetry?.()?.startCall({ server: request.server, connection, tool: request.tool, origin: request.origin }) ?? NO_SPAN;
    const trace: CallTrace = { decision: 'none', sentArgs: request.args, span };
    const secrets = connection?.secrets;
    const outcome = maskOutcome(await run(callId, trace).finally(() => this._onDidChangeCallsInFlight.fire(--this._callsInFlight)), secrets);
    span.end({ outcome, decision: trace.decision, sentArgs: trace.sentArgs, secrets });
    await this._sink.end(callId, summaryParts(outcome));
    this._options.audit?.append({
      time: startedAt.toISOString(),
      callId,
      origin: request.origin,
      server: request.server,
      tool: request.tool,
      argsHash: argumentsHash(trace.sentArgs),
      decision: trace.decision,
      durationMs: 'durationMs' in outcome ? Math.round(outcome.durationMs) : undefined,
      outcome: outcome.kind,
    });
    return outcome;
  }

  private async _run(callId: string, request: CallRequest, trace: CallTrace): Promise<CallOutcome> {
    const sink = this._sink;
    // A server that has just started may still be listing its tools: the call waits for that listing.
    let found = this._pool.findTool(request.server, request.tool);
    if (!found) {
      await this._pool.get(request.server)?.listed();
      found = this._pool.findTool(request.server, request.tool);
    }
    if (!found) {
      const connection = this._pool.get(request.server);
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

    const validate = (args: Record<string, unknown>) => this.validateArguments(tool, args).problems;
    // A null for an optional argument that cannot be null means "not given" (nullArguments.ts).
    const nulls = withoutNullOptionals(tool.inputSchema, request.args);
    const args = nulls.args;
    trace.sentArgs = args;
    if (nulls.dropped.length > 0) sink.line(callId, `arguments: ${nulls.dropped.map((k) => `"${sanitizeLine(k)}"`).join(', ')} left out: null, which the tool's schema does not take for an optional argument, is read as not given.`);
    const { problems, warning } = this.validateArguments(tool, args);
    if (warning) sink.line(callId, `warning: ${warning}`);
    if (problems.length > 0) return { kind: 'invalid-arguments', problems };
    const slot = this._rateLimiter.take(request.server);
    if (!slot.ok) {
      return { kind: 'failed', message: `Too many calls to "${request.server}" (rate limit, ${this._rateLimiter.setBy}): nothing was sent. Try again in ${slot.retryInMs} ms.` };
    }

    const annotations = this._annotationsOf(connection, tool);
    const approval = await approveCall(
      { server: request.server, launch: launchKey(connection.definition.spec), tool, args, annotations, origin: request.origin, approveAll: this.rules.approveAll(), validate, rules: this._callRules(connection), drift: this._options.lockDrift?.(request.server, tool) },
      request.approver ?? this._approver,
      this.grants,
    );
    if (approval.kind === 'invalid-arguments') return { kind: 'invalid-arguments', problems: approval.problems };
    trace.decision = approval.decision;
    sink.line(callId, `approval: ${approval.decision}`);
    if (approval.kind === 'denied') return approval.byRule ? { kind: 'denied', rule: approval.decision } : { kind: 'denied' };
    trace.sentArgs = approval.args;
    if (approval.args !== args) sink.line(callId, `arguments (edited): ${shownArguments(approval.args)}`);
    if (request.signal?.aborted) return { kind: 'cancelled' };

    const limits = callLimits(connection.definition, tool.name);
    const startedAt = new Date().toISOString();
    return this._follow(callId, request.server, tool, connection, limits, request, (options) =>
      connection.callTool(request.tool, approval.args, {
        ...options,
        onprogress: (p) => options.progress.push({ progress: p.progress, total: p.total, message: p.message === undefined ? undefined : maskSecrets(sanitizeLine(p.message), connection.secrets) }),
        onTask: (task) => {
          options.watch.started(task, request.tool, startedAt);
          request.onTaskStarted?.();
        },
        maxTotalTimeoutMs: limits.maxTotalSeconds * 1000,
        input: request.input,
        ...(trace.span.traceparent !== undefined && { meta: { traceparent: trace.span.traceparent } }),
      }),
    );
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
    caller: { signal?: AbortSignal; onProgress?: CallRequest['onProgress']; keepRaw?: boolean; input?: RelayedInput },
    send: (options: Pick<CallOptions, 'signal' | 'timeoutMs' | 'onTaskStatus'> & { progress: ProgressCoalescer; watch: TaskWatch }) => Promise<RawToolResult>,
  ): Promise<CallOutcome> {
    const { signal, onProgress } = caller;
    const sink = this._sink;
    const started = performance.now();
    // Cancel Task (the board) stops the call as the caller's signal would.
    const stop = new AbortController();
    const abort = () => stop.abort();
    signal?.addEventListener('abort', abort, { once: true });
    if (signal?.aborted) abort();
    const watch = this._tasks.watch(callId, server, connection, abort);
    const progress = new ProgressCoalescer((clean) => {
      sink.progress(callId, clean);
      onProgress?.(clean);
    });
    // The last progress is shown before the result line, and the user told what was left out.
    const flushProgress = () => {
      const dropped = progress.flush();
      if (dropped > 0) sink.line(callId, `progress: ${dropped} more updates were not shown (at most ${PROGRESS_PER_SECOND} a second are).`);
    };
    let outcome: CallOutcome;
    let error: unknown;
    try {
      const raw = await send({ signal: stop.signal, timeoutMs: limits.timeoutSeconds * 1000, onTaskStatus: watch.onStatus, progress, watch });
      flushProgress();
      const round = caller.input && inputRoundOf(raw);
      if (round) {
        watch.settled('input-required', undefined);
        sink.line(callId, `input required: the server asks for ${Object.keys(round.inputRequests).map((k) => `"${sanitizeLine(k)}"`).join(', ')}; passed to the caller's client to answer`);
        return { kind: 'input-required', round, durationMs: performance.now() - started };
      }
      const result = await renderResult(raw, this._options.saveBinary?.(callId));
      const durationMs = performance.now() - started;
      const outputWarning = typeof tool === 'string' ? undefined : this._checkOutput(callId, tool, raw);
      const kept = caller.keepRaw ? { raw } : {};
      outcome = result.isError ? { kind: 'tool-error', result, durationMs, ...kept } : { kind: 'ok', result, durationMs, outputWarning, ...kept };
    } catch (err) {
      flushProgress();
      error = err;
      // The SDK reports a user abort with the timeout code: the signal tells us who stopped it.
      outcome = stop.signal.aborted ? { kind: 'cancelled' } : describeCallError(err, limits);
    } finally {
      signal?.removeEventListener('abort', abort);
    }
    watch.settled(outcome.kind, error);
    return outcome;
  }

  /**
   * Structured content is checked against the tool's outputSchema; a mismatch is flagged, never
   * hidden: in the call's log here, and returned for the outcome (the CLI and the model see it).
   */
  private _checkOutput(callId: string, tool: Tool, raw: object): string | undefined {
    const structured = (raw as { structuredContent?: unknown }).structuredContent;
    if (!tool.outputSchema) return undefined;
    let warning: string | undefined;
    if (structured === undefined) {
      if (!(raw as { isError?: boolean }).isError) warning = 'the tool declares an outputSchema but returned no structuredContent.';
    } else {
      const compiled = this._validator.compile(tool.outputSchema);
      const check = compiled.ok ? compiled.check(structured) : undefined;
      if (!compiled.ok) this._sink.line(callId, `warning: the tool's outputSchema does not compile (${compiled.error}); structuredContent was not checked.`);
      else if (check?.valid) this._sink.line(callId, 'structuredContent matches the outputSchema.');
      else if (check) warning = `structuredContent does not match the outputSchema: ${check.problems.map(problemText).join('; ')}`;
    }
    if (warning) this._sink.line(callId, `warning: ${warning}`);
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

/** The closing line of a call, as every sink prints it. */
export function summarize(outcome: CallOutcome): string {
  return summaryParts(outcome).join('');
}

/** `summarize` in pieces, the result's text a piece of its own (CallSink.end). */
export function summaryParts(outcome: CallOutcome): readonly string[] {
  switch (outcome.kind) {
    case 'ok':
      return [`result (${Math.round(outcome.durationMs)} ms):\n`, ...(outcome.result.pieces ?? [outcome.result.text])];
    case 'tool-error':
      return [`tool error (the tool reported isError, ${Math.round(outcome.durationMs)} ms):\n`, ...(outcome.result.pieces ?? [outcome.result.text])];
    default:
      return [summaryLine(outcome)];
  }
}

function summaryLine(outcome: Exclude<CallOutcome, { kind: 'ok' | 'tool-error' }>): string {
  switch (outcome.kind) {
    case 'invalid-arguments':
      return `not sent: the arguments do not match the tool's input schema:\n${outcome.problems.map((p) => `  - ${problemText(p)}`).join('\n')}`;
    case 'denied':
      return outcome.rule ? `not sent: ${outcome.rule}.` : 'not sent: the user denied this call.';
    case 'cancelled':
      return 'cancelled by user.';
    case 'input-required':
      return 'input required: the server asked for input, passed to the caller\'s client.';
    case 'protocol-error':
      return `protocol error ${outcome.code}: ${outcome.message}`;
    case 'timeout':
      return `timed out: ${outcome.message}`;
    case 'failed':
      return `failed: ${outcome.message}`;
  }
}
