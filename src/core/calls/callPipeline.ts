import type { Tool } from '@modelcontextprotocol/client';
import type { ServerPool } from '../connection/serverPool';
import { Emitter } from '../events';
import { loadRules } from '../policy/load';
import { closedBySandbox, effectiveAnnotations } from '../tools/annotations';
import type { SchemaValidator } from '../tools/schemaValidator';
import type { ApprovalRules } from '../policy/approvalPolicy';
import { GrantStore, memoryPersistence } from '../policy/grants';
import { RateLimiter } from '../policy/rateLimiter';
import { renderResult, type BinarySaver, type RawToolResult, type RenderedResult } from '../render/renderResult';
import type { CallForecast, CallRules, LockDrift } from './approvalStep';
import { RuleBindings, memoryRuleBindings } from '../policy/ruleBindings';
import type { RuleSet } from '../policy/ruleSource';
import type { CallFailure } from './callErrors';
import type { Approver, AuditLog, CallOrigin, CallSink } from './ports';
import type { SchemaProblem } from '../tools/schemaProblems';
import { ProgressCoalescer } from './progressCoalescer';
import { launchKey } from '../config/serverConfig';
import type { ServerConnection } from '../connection/serverConnection';
import type { InputRound, RelayedInput } from '../connection/eraClient';
import type { TaskBoard } from './taskBoard';
import type { TaskResultRequest } from './taskFollowUp';
import type { CallRunner } from './callRunner';
import type { Telemetry } from '../telemetry/telemetry';
import { loadCalls } from './load';

export { summarize, summaryParts } from './callSummary';

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
  /** What runs the calls, loaded with the first (callRunner.ts): activation needs none of it. */
  private _runner: CallRunner | undefined;

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
  approveRead(request: { readonly server: string; readonly uri: string; readonly origin: CallOrigin; readonly approver?: Approver }): Promise<{ readonly kind: 'allowed'; readonly uri: string; readonly decision: string } | { readonly kind: 'denied'; readonly decision: string }> {
    return this._calls().approveRead(request);
  }

  /**
   * What a call with these arguments would meet, and why, without running it or asking anyone:
   * the same decision the approve stage takes ("What Would Happen...", the CLI's --explain).
   */
  forecast(request: { readonly server: string; readonly tool: string; readonly args: Record<string, unknown> }): CallForecast | { readonly kind: 'unknown'; readonly sentence: string } {
    return this._calls().forecast(request);
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
    return this._calls().call(request);
  }

  /**
   * Follows a task an earlier call started (this session or before a reload) and reports its
   * result like a call's. It was approved when it started: nothing new is sent to run.
   */
  fetchTaskResult(request: TaskResultRequest): Promise<CallOutcome> {
    return this._calls().fetchTaskResult(request);
  }

  /**
   * Asks a running server about the tasks an earlier session left (`tasks/get`): each shows what
   * the server says of it now; one the server no longer knows is dropped. Returns a line for each
   * dropped task, for the log.
   */
  checkEarlierTasks(server: string): Promise<string[]> {
    return this._calls().checkEarlierTasks(server);
  }

  /**
   * The stages past validation, made at the first use. What holds state or a class that activation
   * holds too is lent from here, so the lazy bundle has no second copy of it.
   */
  private _calls(): CallRunner {
    return (this._runner ??= loadCalls().newCallRunner({
      pool: this._pool,
      validator: this._validator,
      approver: this._approver,
      sink: this._sink,
      grants: this.grants,
      rateLimiter: this._rateLimiter,
      tasks: this._options.tasks,
      audit: this._options.audit,
      saveBinary: this._options.saveBinary,
      lockDrift: this._options.lockDrift,
      telemetry: this._options.telemetry,
      approveAll: () => this.rules.approveAll(),
      validateArguments: (tool, args) => this.validateArguments(tool, args),
      annotationsOf: (connection, tool) => this._annotationsOf(connection, tool),
      callRules: (connection) => this._callRules(connection),
      launchKey: (connection) => launchKey(connection.definition.spec),
      render: (raw: RawToolResult, save?: BinarySaver): Promise<RenderedResult> => renderResult(raw, save),
      progress: (show) => new ProgressCoalescer(show),
      inFlight: (change) => this._onDidChangeCallsInFlight.fire((this._callsInFlight += change)),
    }));
  }
}
