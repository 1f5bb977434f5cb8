import { randomUUID } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerPool } from '../connection/serverPool';
import { ServerState } from '../connection/serverState';
import type { EffectiveAnnotations } from '../tools/annotations';
import type { GrantStore } from '../policy/grants';
import type { RateLimiter } from '../policy/rateLimiter';
import type { BinarySaver, RawToolResult, RenderedResult } from '../render/renderResult';
import { sanitizeLine, shownArguments, shownName } from '../render/sanitize';
import { maskDeep, maskSecrets } from '../render/secrets';
import { approveCall, approvedWithoutAsking, forecastCall, type ApprovalContext, type ApprovalResult, type CallForecast, type CallRules } from './approvalStep';
import { AuditWriteError } from './auditFailure';
import type { Approver, AuditLog, CallOrigin, CallSink } from './ports';
import type { SchemaProblem } from '../tools/schemaProblems';
import type { SchemaValidator } from '../tools/schemaValidator';
import { withoutNullOptionals } from '../tools/nullArguments';
import { MAX_ARGUMENT_DEPTH, nestedDeeperThan } from '../tools/argumentDepth';
import type { ProgressCoalescer, Progress } from './progressCoalescer';
import { CallAuditRecord } from './auditHash';
import type { ServerConnection } from '../connection/serverConnection';
import type { TaskBoard } from './taskBoard';
import { TaskFollowUp, type TaskResultRequest } from './taskFollowUp';
import { READ_TOOL, readAnnotations } from './readApproval';
import type { CallOutcome, CallPipelineOptions, CallRequest } from './callTypes';
import { summaryParts } from './callSummary';
import { NO_SPAN, type CallSpan } from '../telemetry/telemetry';
import { CallFollow } from './callFollow';
import { isoTime } from '../isoTime';

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

  /**
   * Checks, approves, sends, renders and audits a call: what only some calls need (a listing to wait
   * for, someone to ask, progress, a task) is made or awaited only where it is needed, since every
   * call pays for each frame and object (BENCHMARKS.md, tenth pass).
   */
  async call(request: CallRequest): Promise<CallOutcome> {
    const parts = this._parts;
    const trace = this._begin(request);
    let outcome: CallOutcome;
    try {
      const found = parts.pool.findTool(request.server, request.tool) ?? (await this._listed(request));
      let checked = found ? this._checked(trace, request, found) : ended(this._missing(request));
      if (checked.kind === 'ask') checked = this._decided(trace, request, checked.found, await approveCall(checked.context, request.approver ?? parts.approver, parts.grants));
      if (checked.kind === 'end') outcome = checked.outcome;
      else {
        const { found, args } = checked;
        const follow = new CallFollow(trace.callId, request.server, found.tool, found.connection, request, parts, this._tasks);
        outcome = await follow.outcome(() => found.connection.callTool(request.tool, args, follow.callOptions(trace.span.traceparent)));
      }
    } finally {
      parts.inFlight(-1);
    }
    return this._close(trace, request, outcome);
  }

  /** CallPipeline.fetchTaskResult. */
  async fetchTaskResult(request: TaskResultRequest): Promise<CallOutcome> {
    const parts = this._parts;
    const entry = this._tasks.entry(request.server, request.taskId);
    const called: CallRequest = { ...request, tool: entry?.tool ?? '?', args: {} };
    const trace = this._begin(called);
    trace.decision = 'approved when it started';
    let outcome: CallOutcome;
    try {
      const connection = parts.pool.get(request.server);
      if (!entry) outcome = { kind: 'failed', message: `No task "${sanitizeLine(request.taskId)}" of "${shownName(request.server)}" is known.` };
      else if (!connection || !ServerState.isRunning(connection.state)) outcome = { kind: 'failed', message: `Server "${shownName(request.server)}" is not running: start it, then fetch the result.` };
      else {
        parts.sink.line(trace.callId, `task ${sanitizeLine(entry.taskId)}: started ${entry.startedAt}; asking the server for it`);
        const follow = new CallFollow(trace.callId, request.server, entry.tool, connection, request, parts, this._tasks);
        follow.watch().resumed(entry);
        outcome = await follow.outcome(() => connection.resumeTask(entry.reference, follow.resumeOptions(), entry.tool));
      }
    } finally {
      parts.inFlight(-1);
    }
    return this._close(trace, called, outcome);
  }

  /** CallPipeline.checkEarlierTasks. */
  checkEarlierTasks(server: string): Promise<string[]> {
    return this._tasks.checkEarlier(server, this._parts.pool.get(server));
  }

  /** A call begins: its id and clock, its first line, its span. */
  private _begin(request: CallRequest): CallTrace {
    const parts = this._parts;
    const connection = parts.pool.get(request.server);
    const telemetry = parts.telemetry?.();
    const span = telemetry ? telemetry.startCall({ server: request.server, connection, tool: request.tool, origin: request.origin, ...(request.traceparent !== undefined && { parent: request.traceparent }) }) : NO_SPAN;
    const trace = new CallTrace(request.args, span, connection?.secrets);
    // Names come from the server (or a model): one line each, so they cannot forge lines of the log, and hidden characters shown.
    parts.sink.begin({ callId: trace.callId, server: shownName(request.server), tool: shownName(request.tool), origin: request.origin, args: request.args, startedAt: trace.startedAt });
    parts.inFlight(1);
    return trace;
  }

  /** A call ends: its outcome masked, its span ended, its summary written, its audit line appended. */
  private _close(trace: CallTrace, request: CallRequest, outcome: CallOutcome): CallOutcome | Promise<CallOutcome> {
    const masked = maskOutcome(outcome, trace.secrets);
    trace.span.end({ outcome: masked, decision: trace.decision, sentArgs: trace.sentArgs, secrets: trace.secrets });
    // A sink that writes a large result in chunks is waited for; one that wrote it at once is not.
    const written = this._parts.sink.end(trace.callId, summaryParts(masked));
    return written ? written.then(() => this._audited(trace, request, masked)) : this._audited(trace, request, masked);
  }

  private _audited(trace: CallTrace, request: CallRequest, outcome: CallOutcome): CallOutcome {
    try {
      const durationMs = 'durationMs' in outcome ? Math.round(outcome.durationMs) : undefined;
      this._parts.audit?.append(new CallAuditRecord(isoTime(trace.startedAt), trace.callId, request.origin, request.server, request.tool, trace.sentArgs, trace.decision, durationMs, outcome.kind));
    } catch (err) {
      // The call has run: its outcome goes with the failure, not lost with it.
      throw new AuditWriteError(outcome, err);
    }
    return outcome;
  }

  /** A server that has just started may still be listing its tools: the call waits for that listing. */
  private async _listed(request: CallRequest): Promise<FoundTool | undefined> {
    await this._parts.pool.get(request.server)?.listed();
    return this._parts.pool.findTool(request.server, request.tool);
  }

  /** Why a call's tool is not there to call. */
  private _missing(request: CallRequest): CallOutcome {
    const connection = this._parts.pool.get(request.server);
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

  /** The arguments checked and the rate limit and approval applied, as far as nobody has to be asked. */
  private _checked(trace: CallTrace, request: CallRequest, found: FoundTool): Checked {
    const parts = this._parts;
    const { connection, tool } = found;
    // Before anything walks them: arguments nested past any tool's use would overflow the stack on the way out.
    if (nestedDeeperThan(request.args, MAX_ARGUMENT_DEPTH)) {
      trace.decision = 'not sent: arguments nested too deep';
      return ended({ kind: 'failed', message: `The arguments nest more than ${MAX_ARGUMENT_DEPTH} levels deep, past what any tool takes: nothing was sent to "${shownName(request.server)}".` });
    }
    // A null for an optional argument that cannot be null means "not given" (nullArguments.ts).
    const nulls = withoutNullOptionals(tool.inputSchema, request.args);
    const args = nulls.args;
    trace.sentArgs = args;
    if (nulls.dropped.length > 0) parts.sink.line(trace.callId, `arguments: ${nulls.dropped.map((k) => `"${sanitizeLine(k)}"`).join(', ')} left out: null, which the tool's schema does not take for an optional argument, is read as not given.`);
    const { problems, warning } = parts.validateArguments(tool, args);
    if (warning) parts.sink.line(trace.callId, `warning: ${warning}`);
    if (problems.length > 0) return ended({ kind: 'invalid-arguments', problems });
    const slot = parts.rateLimiter.take(request.server);
    if (!slot.ok) {
      trace.decision = `not sent: over the rate limit (${parts.rateLimiter.setBy})`;
      return ended({ kind: 'failed', message: `Too many calls to "${request.server}" (rate limit, ${parts.rateLimiter.setBy}): nothing was sent. Try again in ${slot.retryInMs} ms.` });
    }
    const context = { server: request.server, launch: parts.launchKey(connection), tool, args, annotations: parts.annotationsOf(connection, tool), origin: request.origin, approveAll: parts.approveAll(), rules: parts.callRules(connection), drift: parts.lockDrift?.(request.server, tool) };
    const approval = approvedWithoutAsking(context, parts.grants);
    if (approval) return this._decided(trace, request, found, approval);
    return { kind: 'ask', found, context: { ...context, validate: (edited) => parts.validateArguments(tool, edited).problems } };
  }

  /** What the approval decided, in the call's log and its audit line: a call that was allowed is sent with the arguments approved. */
  private _decided(trace: CallTrace, request: CallRequest, found: FoundTool, approval: ApprovalResult): Decided {
    if (approval.kind === 'invalid-arguments') return ended({ kind: 'invalid-arguments', problems: approval.problems });
    const sink = this._parts.sink;
    trace.decision = approval.decision;
    sink.line(trace.callId, `approval: ${approval.decision}`);
    if (approval.kind === 'denied') return ended(approval.byRule ? { kind: 'denied', rule: approval.decision } : { kind: 'denied' });
    if (approval.args !== trace.sentArgs) sink.line(trace.callId, `arguments (edited): ${shownArguments(approval.args)}`);
    trace.sentArgs = approval.args;
    if (request.signal?.aborted) return ended({ kind: 'cancelled' });
    return { kind: 'send', found, args: approval.args };
  }
}

/** A tool a call is for, and the connection of its server. */
type FoundTool = NonNullable<ReturnType<ServerPool['findTool']>>;

/** Where a call stands once checked: ended, cleared to be sent, or waiting for someone to be asked about it. */
type Checked =
  | { readonly kind: 'end'; readonly outcome: CallOutcome }
  | { readonly kind: 'send'; readonly found: FoundTool; readonly args: Record<string, unknown> }
  | { readonly kind: 'ask'; readonly found: FoundTool; readonly context: ApprovalContext };

/** Where a call stands once its approval is decided. */
type Decided = Exclude<Checked, { readonly kind: 'ask' }>;

function ended(outcome: CallOutcome): Decided {
  return { kind: 'end', outcome };
}

/** One call as it is reported: its id and clock, its span, the decision and the arguments sent (for its audit line). */
class CallTrace {
  readonly callId = randomUUID().slice(0, 8);
  readonly startedAt = new Date();
  decision = 'none';

  constructor(
    public sentArgs: Record<string, unknown>,
    readonly span: CallSpan,
    readonly secrets: readonly string[] | undefined,
  ) {}
}

/** How deep a raw result is walked for secrets: past any real result's nesting (arguments stop at 256). */
const MAX_RAW_DEPTH = 512;

/**
 * The raw result with the secrets masked in every string, keys included (a structuredContent key can
 * hold one); one too deep to walk is dropped (the interface then gets the rendered text instead).
 */
function maskRaw<T extends object>(raw: T, secrets: readonly string[]): T | undefined {
  return maskDeep(raw, secrets, MAX_RAW_DEPTH);
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
