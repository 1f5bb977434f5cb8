import type { Tool } from '@modelcontextprotocol/client';
import { Emitter, type Disposable, type Event } from '../events';
import { launchKey, type ServerDefinition } from '../config/serverConfig';
import type { RawToolResult } from '../render/renderResult';
import { maskingLog, maskSecrets, safeText } from '../render/secrets';
import type { ServerLog } from '../serverLog';
import { piecesOf } from '../textPieces';
import { sandboxCause } from './attemptCalls';
import type { ConnectionDeps } from './connectionDeps';
import { FactRecorder, type ConnectionFacts } from './connectionFacts';
import { CrashRestarts } from './crashRestarts';
import type { DevHost, DevWatch } from './devWatch';
import { insideFolders } from '../config/launch';
import { loadConnection } from './load';
import type { CallOptions, PlainRequestOptions, TaskReference, TaskStatus } from './eraClient';
import { LaunchAttempt } from './launchAttempt';
import { floodGuardedLog } from './logFlood';
import { PromptGate } from './promptGate';
import { RunningSession } from './runningSession';
import { PolicyRefusal } from '../errors';
import { ServerFailure, serverEnd } from './serverFailures';
import { ServerState } from './serverState';
import { ServerView } from './serverView';
import type { OfferNotice } from './sdkClient';
import { loadSession } from './loadSession';
import type { SkillsAccess } from './skills';
import { ToolCatalog, type ListingRecord } from './toolCatalog';

/** A request as telemetry traces it: its span's traceparent for `_meta`, ended with the error if it failed. */
export type RequestTracer = (method: string, params: Record<string, unknown> | undefined) => { readonly traceparent: string | undefined; end(error?: unknown): void } | undefined;

export { HANDSHAKE_TIMEOUT_MS, type ConnectionDeps, type EraMemory } from './connectionDeps';

/**
 * One configured server: its lifecycle state machine and automatic restarts (crashRestarts.ts).
 * Each launch is a LaunchAttempt (launchAttempt.ts) that owns its SDK session (sessionClient.ts,
 * sdkClient.ts over transportChoice.ts) and closes it; once connected, what is asked of the server
 * goes through its RunningSession (runningSession.ts). What the user sees of it (serverView.ts),
 * the tool list (toolCatalog.ts) and what it found out (connectionFacts.ts) span launches.
 */
export class ServerConnection implements Disposable {
  readonly onDidChangeState: Event<ServerState>;
  /** Fires with the new list after each successful listing. */
  readonly onDidChangeTools: Event<readonly Tool[]>;
  /** Each listing of the live server's tools, changed or not, failed or not. */
  readonly onDidList: Event<ListingRecord>;
  /** Fires when the running session's server tells of a change to its resources or prompts (only the current launch's). */
  readonly onOfferNotice: Event<OfferNotice>;
  private readonly _offerNotices = new Emitter<OfferNotice>();

  /** The launch under way or running; undefined when stopped or after its session ended. */
  private _attempt: LaunchAttempt | undefined;
  /** The session of that launch, once it connected. */
  private _session: RunningSession | undefined;
  private readonly _restarts: CrashRestarts;
  /** The calls in flight, and which of the server's prompts reach the user (one per connection: its minute spans restarts). */
  private readonly _prompts: PromptGate;
  /** Everything this connection logs goes through here: the server's secrets are masked. */
  private readonly _log: ServerLog;
  /** Where the server's own log messages go: the log, at most so many a second (logFlood.ts). */
  private readonly _serverMessages: ServerLog & Disposable;
  private readonly _view: ServerView;
  private readonly _catalog: ToolCatalog;
  private readonly _facts = new FactRecorder();
  /** The log level asked for this server (none: the server's own default), applied to each launch. */
  private _logLevel: string | undefined;
  /** Dev mode's watch of the server's files (devWatch.ts), when its definition asks for one and the host can watch. */
  private _devWatch: DevWatch | undefined;
  private _requestTracer: RequestTracer | undefined;
  /** Let go (dispose): a restart for a file change that was under way starts nothing after it. */
  private _disposed = false;

  constructor(private _definition: ServerDefinition, private _deps: ConnectionDeps) {
    this._restarts = new CrashRestarts(_deps.restartPolicy);
    this._log = maskingLog(this._facts.keepingStderr(_deps.log), () => this.secrets);
    this._serverMessages = floodGuardedLog(this._log);
    this._view = new ServerView(_definition.disabled ? ServerState.disabled : ServerState.stopped, this._log);
    this._catalog = new ToolCatalog(this._log, _deps.toolCache);
    this._prompts = new PromptGate((sentence) => {
      this._log.warn(sentence);
      _deps.promptsDeclined?.(safeText(sentence, this.secrets));
    });
    this.onDidChangeState = this._view.onDidChange;
    this.onDidChangeTools = this._catalog.onDidChange;
    this.onDidList = this._catalog.onDidList;
    this.onOfferNotice = this._offerNotices.event;
    this._devWatch = this._watchFor(_deps.dev);
  }

  /** Dev mode's watch of the files the definition names, when the host can watch. */
  private _watchFor(dev: ConnectionDeps['dev']): DevWatch | undefined {
    const watch = this._definition.spec.type === 'stdio' ? this._definition.spec.dev?.watch : undefined;
    if (!watch?.length || !dev || !('watch' in dev)) return undefined;
    return new (loadConnection().DevWatch)(dev, watch, (file) => insideFolders(file, dev.folders()), (logLine, callFailure) => void this._restartForChange(logLine, callFailure));
  }

  /**
   * Dev mode from now on, where the host could not give it when the connection was made (the
   * workspace was trusted since): the watch starts at once; a running server keeps running, and
   * its debugger comes with its next start. False when there is nothing to do.
   */
  enableDev(host: DevHost): boolean {
    if (this._disposed || this.devMode || !('dev' in this._definition.spec)) return false;
    this._deps = { ...this._deps, dev: host };
    this._devWatch = this._watchFor(host);
    const running = ServerState.isActive(this.state);
    this._log.info(`Dev mode is on now (the host can watch and debug here)${running ? '; the debugger, if asked for, attaches from the next start' : ''}.`);
    return true;
  }

  get name(): string {
    return this._definition.name;
  }
  get definition(): ServerDefinition {
    return this._definition;
  }
  get state(): ServerState {
    return this._view.state;
  }
  /** Whether the server runs in dev mode here: its definition has a `dev` entry and the host honours it (a trusted workspace). */
  get devMode(): boolean {
    // Only a stdio spec has the key, and only when the definition gives it.
    const host = this._deps.dev;
    return 'dev' in this._definition.spec && !!host && 'watch' in host;
  }
  /** Whether a debugger can attach to the server now: it runs with dev mode's Node inspector on. */
  get debuggable(): boolean {
    return ServerState.isRunning(this.state) && this._attempt?.debugger?.inspecting === true;
  }
  /** Attaches the debugger to the running server again (its session was ended); false when it runs without an inspector. */
  attachDebugger(): boolean {
    const debug = this.debuggable ? this._attempt?.debugger : undefined;
    debug?.attach();
    return debug !== undefined;
  }
  /** The tools as last listed; with secrets in the launch, their titles and descriptions masked (a server may echo them). */
  get tools(): readonly Tool[] {
    return this._view.tools(this._catalog.tools);
  }
  /** True while the tools shown are the last-known list, not yet confirmed by the live server. */
  get toolsFromCache(): boolean {
    return this._catalog.fromCache;
  }
  /** Why the server gets the roots it gets, or none (rootsOffer in config/roots.ts). */
  get rootsWhy(): string | undefined {
    return this._deps.rootsWhy;
  }
  /** Secret values (`${input:...}`) of the current launch: every surface masks them. */
  get secrets(): readonly string[] {
    return this._view.secrets;
  }
  /** The folder a local server was last started in (its relative paths are read from there); none for a remote one. */
  get workingFolder(): string | undefined {
    return this._view.workingFolder;
  }
  /** Its launch's arguments: argument rules read a relative path from the folders among them too. */
  get launchArgs(): readonly string[] {
    return this._view.launchArgs;
  }
  /** The exact command line or URL last launched. */
  get launchLine(): string | undefined {
    return this._view.launchLine;
  }
  /** This connection's log (sanitised, the secrets masked): what is left out of a listing is said there. */
  get log(): ServerLog {
    return this._log;
  }
  /** What this connection found out so far (Run Doctor reads it). */
  get facts(): ConnectionFacts {
    const listingError = this._catalog.listingError;
    return this._facts.facts(listingError === undefined ? undefined : maskSecrets(listingError, this.secrets));
  }

  /** Adopts a new definition that launches the same way (timeouts, trust): no restart. */
  updateDefinition(definition: ServerDefinition): void {
    this._definition = definition;
  }

  /**
   * Starts the server (the crash count begins again). `byUser`: the user asked for this start
   * (Start, Restart, Run Doctor), not a configuration change: a launch they declined asks again.
   */
  async start(options: { readonly byUser?: boolean } = {}): Promise<void> {
    if (ServerState.isActive(this.state)) return;
    this._restarts.reset();
    await this._launch(false, options.byUser === true);
  }

  private async _launch(automatic: boolean, byUser = false): Promise<void> {
    if (this._definition.disabled) return this._view.set(ServerState.disabled);
    if (this._definition.spec.type === 'stdio' && this._definition.spec.dev) loadConnection().devNotes(this._definition.spec.dev, this._deps.dev, this._log);
    const attempt = new LaunchAttempt();
    void this._attempt?.dispose();
    this._attempt = attempt;
    this._session = undefined;
    this._view.set(ServerState.starting);
    try {
      const newClient = () => loadSession().newSessionClient({ definition: this._definition, deps: this._deps, prompts: this._prompts, serverMessages: this._serverMessages, secrets: () => this.secrets, onToolsChanged: () => this._catalog.relistSoon(() => this._list(attempt)), endpointId: `mcp-tool-host/${launchKey(this._definition.spec)}`, onOfferNotice: (notice) => this._attempt === attempt && !attempt.over && this._offerNotices.fire(notice) });
      const client = await attempt.open({ definition: this._definition, deps: this._deps, log: this._log, facts: this._facts, view: this._view, newClient }, byUser);
      if (!client) return;
      client.onclose = () => void this._onClosed(attempt);
      this._session = RunningSession.connected(attempt, client, { name: this.name, prompts: this._prompts, catalog: this._catalog, log: this._log, facts: this._facts, deps: this._deps });
      // Before anything else is asked: a 2026-07-28 level travels with the requests that follow.
      if (this._logLevel !== undefined) await this._applyLogLevel(this._session, this._logLevel);
      this._view.set({ kind: 'running', ...client.info });
      client.listenForChanges(); // 2026-07-28: before the listing, so no change falls between the two
      await this._list(attempt);
    } catch (err) {
      if (attempt.over) return;
      const http = this._definition.spec.type === 'http' ? this.launchLine : undefined;
      const error = ServerFailure.start(err, serverEnd(attempt.transport), http);
      const message = error.message + sandboxCause(attempt.transport, error.stderrTail);
      await this._teardown();
      this._log.error(message);
      const detail = error.stderrTail;
      for (const line of detail) this._log.error(`  stderr: ${line}`);
      // A policy's refusal is not a crash: starting again would be refused the same way until the policy changes.
      if (err instanceof PolicyRefusal) return this._view.set({ kind: 'error', message, detail, refusedBy: err.policyFile });
      this._view.set(automatic ? this._afterCrash(message, detail) : { kind: 'error', message, detail });
    }
  }

  private _afterCrash(message: string, detail: readonly string[] | undefined): ServerState {
    return this._restarts.afterCrash(message, detail, this._log, () => void this._launch(true));
  }

  /**
   * Dev mode: a watched file changed. A server that runs, starts or failed starts again (the user's
   * Stop is kept); its calls in flight fail saying so, and its tools are listed again with the launch.
   */
  private async _restartForChange(logLine: string, callFailure: string): Promise<void> {
    const kind = this.state.kind;
    if (kind !== 'running' && kind !== 'starting' && kind !== 'error') return;
    this._log.info(logLine);
    this._attempt?.endWith(callFailure);
    await this.stop();
    // Let go meanwhile (the window closing, the server removed): the change starts nothing, or it would orphan a server.
    if (this._disposed) return;
    await this.start();
  }

  /** Tells a running server that the workspace folders changed (`roots/list_changed`). */
  notifyRootsChanged(): void {
    void this._attempt?.client?.sendRootsListChanged().catch(() => undefined);
  }

  async stop(): Promise<void> {
    this._restarts.cancel();
    await this._teardown();
    this._view.set(this._definition.disabled ? ServerState.disabled : ServerState.stopped);
  }

  /** Stops and starts the server: the user's own start (Restart). */
  async restart(): Promise<void> {
    await this.stop();
    await this.start({ byUser: true });
  }

  /** Resolves once the listing under way (if any) has ended: a server that just started may still be listing. */
  async listed(): Promise<void> {
    await this._catalog.listing;
  }

  /** Lists the tools again (every page); the Refresh command and list_changed use this. */
  async refreshTools(): Promise<void> {
    if (this._attempt) await this._list(this._attempt);
  }

  /** Lists the tools of the attempt's session, once it runs. */
  private async _list(attempt: LaunchAttempt): Promise<void> {
    if (this._session?.current && this._attempt === attempt) await this._session.list();
  }

  /** The running session; fails when the server is not running. */
  private _running(): RunningSession {
    const session = this._session;
    if (!session?.current || !ServerState.isRunning(this.state)) throw ServerFailure.notRunning(this.name, this.state);
    return session;
  }

  /** The server's skills (the skills extension, SEP-2640); fails when the server is not running. */
  skills(): SkillsAccess {
    return this._running().skills();
  }
  /** A request other than a call (resources, prompts, completion, logging); fails when the server is not running. */
  request(method: string, params: Record<string, unknown> | undefined, options: PlainRequestOptions): Promise<Record<string, unknown>> {
    const session = this._running();
    const trace = this._requestTracer?.(method, params);
    if (!trace) return session.request(method, params, options);
    // The span's traceparent goes beside the caller's own `_meta` keys (the server's spans join the trace).
    const own = params?._meta;
    const sent = trace.traceparent === undefined ? params : { ...params, _meta: { ...(typeof own === 'object' && own !== null ? own : {}), traceparent: trace.traceparent } };
    return session.request(method, sent, options).then(
      (result) => (trace.end(), result),
      (err: unknown) => {
        trace.end(err);
        throw err;
      },
    );
  }

  /** Who hears of each `request` (telemetry), until set to undefined; a tracer never throws. */
  traceRequests(tracer: RequestTracer | undefined): void {
    this._requestTracer = tracer;
  }
  /** Which resources the running server should send updates of (subscriptions; eraClient.ts); fails when it is not running. */
  /**
   * The pieces a long string of an answer (`container[key]`) arrived in, if it did and still holds
   * them: reading those, a reader never flattens the whole string in one task. Asked here because
   * the pieces are remembered in this bundle; a copy of that memory in another bundle knows none.
   */
  textPiecesOf(container: object, key: string): readonly string[] | undefined {
    return piecesOf(container, key);
  }

  watchResources(uris: readonly string[]): Promise<void> {
    return this._running().watchResources(uris);
  }
  /** The log level asked for this server, kept across its restarts; undefined: none asked. */
  get logLevel(): string | undefined {
    return this._logLevel;
  }
  /**
   * Asks for this log level from now on: at once when the server runs, and again at each launch.
   * Resolves false when the running server does not declare `logging` (nothing was sent).
   */
  async setLogLevel(level: string): Promise<boolean> {
    this._logLevel = level;
    const session = this._session;
    return session?.current ? this._applyLogLevel(session, level) : false;
  }
  private async _applyLogLevel(session: RunningSession, level: string): Promise<boolean> {
    try {
      const set = await session.setLogLevel(level);
      this._log.info(set ? `Log level: ${level} (the server sends messages at ${level} and above).` : `Log level ${level} not set: the server does not declare "logging".`);
      return set;
    } catch (err) {
      this._log.warn(`Setting the log level to ${level} failed: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
  }
  /** The capabilities the running server declared (empty when it is not running). */
  get serverCapabilities(): Readonly<Record<string, unknown>> {
    return this._session?.current ? this._session.capabilities : {};
  }
  /** Sends `tools/call`. Only the CallPipeline calls this. */
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<RawToolResult> {
    return this._running().callTool(name, args, options);
  }
  /**
   * Follows a task started earlier (tasks/get until it ends) and returns its result; `tool` is the
   * tool it runs, named when the task asks for input. Only the CallPipeline calls this.
   */
  resumeTask(reference: TaskReference, options: Pick<CallOptions, 'signal' | 'timeoutMs' | 'onTaskStatus'>, tool: string): Promise<RawToolResult> {
    return this._running().resumeTask(reference, options, tool);
  }
  /** What the server says of a task now (`tasks/get`). */
  taskStatus(reference: TaskReference, timeoutMs: number): Promise<TaskStatus> {
    return this._running().taskStatus(reference, timeoutMs);
  }

  dispose(): void {
    this._disposed = true;
    this._devWatch?.dispose();
    void this.stop();
    this._view.dispose();
    this._catalog.dispose();
    this._serverMessages.dispose();
    this._offerNotices.dispose();
  }

  private async _onClosed(attempt: LaunchAttempt): Promise<void> {
    if (attempt.over || this._attempt !== attempt) return;
    const end = serverEnd(attempt.transport);
    const message = ServerFailure.closed(end) + sandboxCause(attempt.transport, end.stderr);
    this._log.error(message);
    this._attempt = this._session = undefined;
    this._view.set(this._afterCrash(message, end.stderr));
    await attempt.dispose(); // the leader is gone; its process group may not be
  }

  private async _teardown(): Promise<void> {
    this._catalog.cancelRelist();
    const attempt = this._attempt;
    this._attempt = this._session = undefined;
    await attempt?.dispose();
  }
}
