import type { Tool } from '@modelcontextprotocol/client';
import { Emitter, type Disposable, type Event } from '../events';
import { launchKey, type ServerDefinition } from '../config/serverConfig';
import { loadHeavy } from '../lazy/load';
import type { RawToolResult } from '../render/renderResult';
import { maskingLog, maskSecrets, safeText } from '../render/secrets';
import type { ServerLog } from '../serverLog';
import { inCallFrame, sandboxCause } from './attemptCalls';
import type { ConnectionDeps } from './connectionDeps';
import { FactRecorder, type ConnectionFacts } from './connectionFacts';
import type { CallOptions, ResourceContents, TaskReference, TaskStatus } from './eraClient';
import { LaunchAttempt, type LaunchHost } from './launchAttempt';
import { floodGuardedLog } from './logFlood';
import { PromptGate } from './promptGate';
import { RestartPolicy } from './restartPolicy';
import { SdkClient } from './sdkClient';
import { ServerFailure, serverEnd } from './serverFailures';
import { ServerState } from './serverState';
import type { SkillsAccess } from './skills';
import { ToolCatalog, type ToolLister } from './toolCatalog';

export { HANDSHAKE_TIMEOUT_MS, type ConnectionDeps, type EraMemory } from './connectionDeps';

/**
 * One configured server: its lifecycle state machine and automatic restarts. Each launch is a
 * LaunchAttempt (launchAttempt.ts) that owns its SDK session (sdkClient.ts over
 * transportChoice.ts) and closes it; the tool list (toolCatalog.ts), the sentences for its
 * failures (serverFailures.ts) and what it found out (connectionFacts.ts) span launches.
 */
export class ServerConnection implements Disposable {
  private readonly _onDidChangeState = new Emitter<ServerState>();
  readonly onDidChangeState = this._onDidChangeState.event;
  /** Fires with the new list after each successful listing. */
  readonly onDidChangeTools: Event<readonly Tool[]>;

  private _state: ServerState;
  /** The launch under way or running; undefined when stopped or after its session ended. */
  private _attempt: LaunchAttempt | undefined;
  private readonly _listers = new WeakMap<SdkClient, ToolLister>();
  private _launchLine: string | undefined;
  private _restartTimer: NodeJS.Timeout | undefined;
  private readonly _restarts: RestartPolicy;
  private _secrets: readonly string[] = [];
  private _workingFolder: string | undefined;
  /** The calls in flight, and which of the server's prompts reach the user (one per connection: its minute spans restarts). */
  private readonly _prompts: PromptGate;
  /** Everything this connection logs goes through here: the server's secrets are masked. */
  private readonly _log: ServerLog;
  /** `tools` with secrets masked, kept while the listing and the secrets are the same. */
  private _masked: { readonly listed: readonly Tool[]; readonly secrets: readonly string[]; readonly tools: readonly Tool[] } | undefined;
  /** Where the server's own log messages go: the log, at most so many a second (logFlood.ts). */
  private readonly _serverMessages: ServerLog & Disposable;
  private readonly _catalog: ToolCatalog;
  private readonly _facts = new FactRecorder();

  constructor(private _definition: ServerDefinition, private readonly _deps: ConnectionDeps) {
    this._state = _definition.disabled ? ServerState.disabled : ServerState.stopped;
    this._restarts = _deps.restartPolicy ?? new RestartPolicy();
    this._log = maskingLog(this._facts.keepingStderr(_deps.log), () => this._secrets);
    this._serverMessages = floodGuardedLog(this._log);
    this._catalog = new ToolCatalog(this._log, _deps.toolCache);
    this._prompts = new PromptGate((sentence) => {
      this._log.warn(sentence);
      _deps.promptsDeclined?.(safeText(sentence, this._secrets));
    });
    this.onDidChangeTools = this._catalog.onDidChange;
  }

  get name(): string {
    return this._definition.name;
  }
  get definition(): ServerDefinition {
    return this._definition;
  }
  get state(): ServerState {
    return this._state;
  }
  /** The tools as last listed; with secrets in the launch, their titles and descriptions masked (a server may echo them). */
  get tools(): readonly Tool[] {
    const listed = this._catalog.tools;
    if (this._secrets.length === 0) return listed;
    if (this._masked?.listed !== listed || this._masked.secrets !== this._secrets) {
      const secrets = this._secrets;
      const mask = (text: string | undefined) => (text === undefined ? undefined : maskSecrets(text, secrets));
      this._masked = { listed, secrets, tools: listed.map((t) => ({ ...t, title: mask(t.title), description: mask(t.description) })) };
    }
    return this._masked.tools;
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
    return this._secrets;
  }
  /** The folder a local server was last started in (its relative paths are read from there); none for a remote one. */
  get workingFolder(): string | undefined {
    return this._workingFolder;
  }
  /** The exact command line or URL last launched. */
  get launchLine(): string | undefined {
    return this._launchLine;
  }
  /** What this connection found out so far (Run Doctor reads it). */
  get facts(): ConnectionFacts {
    const listingError = this._catalog.listingError;
    return this._facts.facts(listingError === undefined ? undefined : maskSecrets(listingError, this._secrets));
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
    if (ServerState.isActive(this._state)) return;
    clearTimeout(this._restartTimer);
    this._restarts.reset();
    await this._launch(false, options.byUser === true);
  }

  private async _launch(automatic: boolean, byUser = false): Promise<void> {
    if (this._definition.disabled) return this._setState(ServerState.disabled);
    const attempt = new LaunchAttempt();
    const previous = this._attempt;
    this._attempt = attempt;
    void previous?.dispose();
    this._setState(ServerState.starting);
    try {
      const client = await attempt.open(this._launchHost(attempt), byUser);
      if (!client) return;
      client.onclose = () => void this._onClosed(attempt);
      this._facts.noToolsCapability = !client.offersTools;
      if (!client.offersTools) this._log.warn('The server does not declare the "tools" capability; it offers no tools.');
      const info = client.info;
      this._deps.eraMemory?.save(client.era);
      this._log.info(`Connected: ${info.serverName ?? '?'} ${info.serverVersion ?? ''}, protocol ${info.protocolVersion ?? '?'}`);
      if (this._deps.rootsWhy) this._log.info(`Roots: ${this._deps.rootsWhy}`);
      this._setState({ kind: 'running', ...info });
      client.listenForChanges(); // 2026-07-28: before the listing, so no change falls between the two
      await this._listTools(attempt);
    } catch (err) {
      if (attempt.over) return;
      const http = this._definition.spec.type === 'http' ? this._launchLine : undefined;
      const error = ServerFailure.start(err, serverEnd(attempt.transport), http);
      const message = error.message + sandboxCause(attempt.transport, error.stderrTail);
      await this._teardown();
      this._log.error(message);
      const detail = error.stderrTail;
      for (const line of detail) this._log.error(`  stderr: ${line}`);
      if (automatic) this._afterCrash(message, detail);
      else this._setState({ kind: 'error', message, detail });
    }
  }

  /** What a launch may change of this connection. */
  private _launchHost(attempt: LaunchAttempt): LaunchHost {
    return {
      definition: this._definition,
      deps: this._deps,
      log: this._log,
      facts: this._facts,
      resolved: (launch) => {
        this._secrets = launch.secrets ?? [];
        this._workingFolder = launch.type === 'stdio' ? launch.launch.cwd : undefined;
      },
      launching: (shown) => void (this._launchLine = shown),
      waiting: (message) => {
        if (message !== undefined) this._setState({ kind: 'starting', message });
        else if (this._state.kind === 'starting' && this._state.message) this._setState(ServerState.starting);
      },
      declined: (warning, rowMessage) => {
        this._log.warn(warning);
        this._setState(rowMessage === undefined ? ServerState.stopped : { kind: 'stopped', message: rowMessage });
      },
      newClient: () => this._newClient(attempt),
    };
  }

  private _newClient(attempt: LaunchAttempt): SdkClient {
    this._prompts.newSession();
    return new SdkClient({
      clientVersion: this._deps.clientVersion,
      validator: this._deps.validator,
      roots: this._deps.roots,
      // A form names the calls it may belong to (the gate's): a server's request does not say which of its calls asks.
      // While the user answers, the calls are held as answering: their idle timers stand still.
      elicit: this._deps.elicit && ((asked, { calls, tasks, callsEnded, endsAt, hold }) => loadHeavy().whileAnswering(hold, () => this._deps.elicit!({ ...asked, calls, tasks, callsEnded, endsAt, server: this.name, message: safeText(asked.message, this._secrets) }), asked.mode === 'url' ? asked.completion : undefined)),
      prompts: this._prompts,
      log: this._serverMessages,
      listingLimits: this._deps.listingLimits,
      // The same launch is the same server to the Tasks package, across sessions and reloads.
      endpointId: `mcp-tool-host/${launchKey(this._definition.spec)}`,
      onToolsChanged: () => this._catalog.relistSoon(() => this._listTools(attempt)),
    });
  }

  /** Schedules the next automatic restart, or gives up when crashes come too fast. */
  private _afterCrash(message: string, detail: readonly string[] | undefined): void {
    const decision = this._restarts.onCrash();
    if (decision.kind === 'give-up') {
      const gaveUp = ServerFailure.gaveUp(message, decision.crashes);
      this._log.error(gaveUp);
      return this._setState({ kind: 'error', message: gaveUp, detail });
    }
    this._log.warn(`Restarting in ${decision.delayMs / 1000} s (automatic restart ${decision.attempt}).`);
    this._setState({ kind: 'error', message, detail, restartInMs: decision.delayMs });
    clearTimeout(this._restartTimer);
    this._restartTimer = setTimeout(() => void this._launch(true), decision.delayMs);
  }

  /** Tells a running server that the workspace folders changed (`roots/list_changed`). */
  notifyRootsChanged(): void {
    void this._attempt?.client?.sendRootsListChanged().catch(() => undefined);
  }

  async stop(): Promise<void> {
    clearTimeout(this._restartTimer);
    await this._teardown();
    this._setState(this._definition.disabled ? ServerState.disabled : ServerState.stopped);
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
    if (this._attempt) await this._listTools(this._attempt);
  }

  /** The running launch and its client; fails when the server is not running. */
  private _running(): { attempt: LaunchAttempt; client: SdkClient } {
    const attempt = this._attempt;
    const client = attempt?.client;
    if (!attempt || !client || !ServerState.isRunning(this._state)) throw ServerFailure.notRunning(this.name, this._state);
    return { attempt, client };
  }

  /** The server's skills (the skills extension, SEP-2640); fails when the server is not running. */
  skills(): SkillsAccess {
    return this._running().client.skills;
  }

  /** Reads a resource (`resources/read`), for opening a resource link from a result. */
  async readResource(uri: string): Promise<ResourceContents> {
    const { attempt, client } = this._running();
    if (!client.offersResources) throw ServerFailure.noResources(this.name);
    return attempt.withSignIn(() => client.readResource(uri), this._info);
  }

  /** Sends `tools/call`. Only the CallPipeline calls this. */
  async callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<RawToolResult> {
    const { attempt, client } = this._running();
    const call = this._prompts.begin(name);
    const tool = this._catalog.find(name) ?? { name, inputSchema: { type: 'object' } };
    return inCallFrame(attempt, client, this._prompts, call, options.signal, true, this._info, (c) => c.callTool(tool, args, options, call));
  }

  /**
   * Follows a task started earlier (tasks/get until it ends) and returns its result; `tool` is the
   * tool it runs, named when the task asks for input. Only the CallPipeline calls this.
   */
  async resumeTask(reference: TaskReference, options: Pick<CallOptions, 'signal' | 'timeoutMs' | 'onTaskStatus'>, tool: string): Promise<RawToolResult> {
    const { attempt, client } = this._running();
    // While it is followed, what the task asks (naming it) belongs to it.
    const call = this._prompts.begin(tool, reference.taskId);
    return inCallFrame(attempt, client, this._prompts, call, options.signal, false, this._info, (c) => c.resumeTask(reference, options, call));
  }

  /** What the server says of a task now (`tasks/get`). */
  async taskStatus(reference: TaskReference, timeoutMs: number): Promise<TaskStatus> {
    const { attempt, client } = this._running();
    return attempt.withSignIn(() => client.taskStatus(reference, timeoutMs), this._info);
  }

  private readonly _info = (message: string) => this._log.info(message);

  dispose(): void {
    void this.stop();
    this._onDidChangeState.dispose();
    this._catalog.dispose();
    this._serverMessages.dispose();
  }

  private async _listTools(attempt: LaunchAttempt): Promise<void> {
    const client = attempt.client;
    if (!client) return;
    // A listing the server refuses mid-session (its token) signs in again, as a call does. One lister
    // per session: the catalog tells a session's listing again by it (logged only when it changed).
    let lister = this._listers.get(client);
    if (!lister) this._listers.set(client, (lister = { offersTools: client.offersTools, listTools: () => attempt.withSignIn(() => client.listTools(), this._info) }));
    const current = () => !attempt.over && this._attempt === attempt;
    await this._catalog.list(lister, current);
    // A 2026-07-28 listing that goes stale is fetched again (unless changes come pushed: listenForChanges).
    const ttlMs = client.listingTtlMs;
    if (ttlMs !== undefined && current() && attempt.client === client) this._catalog.relistAfter(ttlMs, () => this._listTools(attempt));
  }

  private async _onClosed(attempt: LaunchAttempt): Promise<void> {
    if (attempt.over || this._attempt !== attempt) return;
    const transport = attempt.transport;
    const end = serverEnd(transport);
    const message = ServerFailure.closed(end) + sandboxCause(transport, end.stderr);
    this._log.error(message);
    this._attempt = undefined;
    this._afterCrash(message, end.stderr);
    await attempt.dispose(); // the leader is gone; its process group may not be
  }

  private async _teardown(): Promise<void> {
    this._catalog.cancelRelist();
    const attempt = this._attempt;
    this._attempt = undefined;
    await attempt?.dispose();
  }

  /** Every state a user sees is free of the server's secrets (an error may quote the launch or echo a header). */
  private _setState(state: ServerState): void {
    const masked: ServerState =
      state.kind === 'error'
        ? { ...state, message: safeText(state.message, this._secrets), detail: state.detail?.map((line) => safeText(line, this._secrets)) }
        : state.kind === 'starting' && state.message !== undefined
          ? { ...state, message: safeText(state.message, this._secrets) }
          : state;
    this._state = masked;
    this._onDidChangeState.fire(masked);
  }
}
