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
import type { CallForecast, CallRules } from './approvalStep';
import { RuleBindings, memoryRuleBindings } from '../policy/ruleBindings';
import type { Approver, CallOrigin, CallSink } from './ports';
import type { SchemaProblem } from '../tools/schemaProblems';
import { ProgressCoalescer } from './progressCoalescer';
import { launchKey } from '../config/serverConfig';
import type { ServerConnection } from '../connection/serverConnection';
import type { TaskResultRequest } from './taskFollowUp';
import type { CallRunner } from './callRunner';
import { loadCalls } from './load';

export { summarize, summaryParts } from './callSummary';

import type { CallOutcome, CallPipelineOptions, CallRequest } from './callTypes';

export type { CallOutcome, CallPipelineOptions, CallRequest } from './callTypes';

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
      return { paths: remote ? engine.lexicalPaths() : engine.localPaths(), workspaceFolder: this._options.workspaceFolder?.(), base: remote ? undefined : connection.workingFolder, givenFolders: remote ? undefined : engine.foldersAmong(connection.launchArgs) };
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
