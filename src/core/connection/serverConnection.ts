import type { Tool, Transport } from '@modelcontextprotocol/client';
import { Emitter, type Disposable, type Event } from '../events';
import { launchKey, type ServerDefinition } from '../config/serverConfig';
import type { ResolvedLaunch } from '../config/launch';
import type { OAuthSignIn } from '../auth/oauthSignIn';
import type { OAuthHost } from '../auth/ports';
import { formatCommandLine } from '../transport/commandLine';
import { StdioTransport } from '../transport/stdioTransport';
import { loadAuth, loadHeavy } from '../lazy/load';
import type { SchemaValidator } from '../tools/schemaValidator';
import type { RawToolResult } from '../render/renderResult';
import { maskingLog, maskSecrets, safeText } from '../render/secrets';
import type { ServerLog } from '../serverLog';
import { FactRecorder, type ConnectionFacts } from './connectionFacts';
import { RestartPolicy } from './restartPolicy';
import type { SkillsAccess } from './skills';
import { SdkClient } from './sdkClient';
import type { CallOptions, ResourceContents, TaskReference, TaskStatus } from './eraClient';
import { ServerFailure, serverEnd } from './serverFailures';
import { ServerState } from './serverState';
import { ToolCatalog, type ToolCache, type ToolLister } from './toolCatalog';
import type { ListingLimits } from './toolListing';
import { openSession } from './transportChoice';
import type { HttpTransport } from '../transport/httpTransports';
import { floodGuardedLog } from './logFlood';
import type { CallEnd, Elicitor } from '../elicitation/formElicitation';
import { PromptGate } from './promptGate';

export const HANDSHAKE_TIMEOUT_MS = 30_000;

export interface ConnectionDeps {
  readonly log: ServerLog;
  readonly validator: SchemaValidator;
  readonly resolveLaunch: (def: ServerDefinition) => Promise<ResolvedLaunch>;
  readonly roots?: () => { uri: string; name?: string }[];
  /** Why the server gets these roots, or none (rootsOffer): written to its log at each start, shown in its tooltip. */
  readonly rootsWhy?: string;
  readonly clientVersion: string;
  readonly maxMessageBytes?: number;
  /** The most tools, and bytes of them, one listing may hold (settings maxToolsPerServer, maxToolListSize). */
  readonly listingLimits?: ListingLimits;
  /** How long `initialize` may take (default HANDSHAKE_TIMEOUT_MS). */
  readonly handshakeTimeoutMs?: number;
  readonly toolCache?: ToolCache;
  /**
   * Asked before a launch runs (workspace-defined servers); false leaves the server stopped, and so
   * does `notAsked` (the user said "Do not start" before and did not ask since; `byUser` says a
   * start is the user's own, which asks again): its text is the server row's.
   */
  readonly confirmLaunch?: (def: ServerDefinition, shownLaunch: string, waiting: (message: string) => void, byUser: boolean) => Promise<boolean | { readonly notAsked: string }>;
  readonly restartPolicy?: RestartPolicy;
  /** Signing in to remote servers that require OAuth (browser, secrets); without it a 401 is a plain error. */
  readonly oauth?: OAuthHost;
  /** Answers a server's form in the middle of a call (elicitation); without it the host does not offer elicitation. */
  readonly elicit?: Elicitor;
  /**
   * Hears, once each, why the host declined a server's prompts on its own (outside its calls, past
   * a cap: promptGate.ts); the server's log has the same sentence. The CLI, whose server logs go
   * nowhere, prints it.
   */
  readonly promptsDeclined?: (sentence: string) => void;
  /**
   * The protocol era this launch spoke at its last start. A 2025-era server that ignores the
   * 2026-07-28 probe costs its timeout (2 s) at every start; remembered, the next start skips it.
   */
  readonly eraMemory?: EraMemory;
}

/** Where a launch's protocol era is kept between starts (the extension: its state, for a day). */
export interface EraMemory {
  load(): 'modern' | 'legacy' | undefined;
  save(era: 'modern' | 'legacy'): void;
}

/**
 * One configured server: its lifecycle state machine and automatic restarts, composed of an
 * SDK session (sdkClient.ts over transportChoice.ts), the tool list (toolCatalog.ts), the
 * sentences for its failures (serverFailures.ts) and what it found out (connectionFacts.ts).
 */
export class ServerConnection implements Disposable {
  private readonly _onDidChangeState = new Emitter<ServerState>();
  readonly onDidChangeState = this._onDidChangeState.event;
  /** Fires with the new list after each successful listing. */
  readonly onDidChangeTools: Event<readonly Tool[]>;

  private _state: ServerState;
  private _client: SdkClient | undefined;
  private readonly _listers = new WeakMap<SdkClient, ToolLister>();
  private _transport: Transport | undefined;
  private _generation = 0;
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
  private _signIn: OAuthSignIn | undefined;

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
    const generation = ++this._generation;
    this._setState(ServerState.starting);
    try {
      const launch = await this._deps.resolveLaunch(this._definition);
      if (generation !== this._generation) return;
      this._secrets = launch.secrets ?? [];
      this._workingFolder = launch.type === 'stdio' ? launch.launch.cwd : undefined;
      const shown = maskSecrets(describeLaunch(launch), launch.secrets);
      // A prompt that waits for the user says so on the server's row, instead of "starting…".
      const waiting = (message: string) => generation === this._generation && this._setState({ kind: 'starting', message });
      const answer = this._deps.confirmLaunch ? await this._deps.confirmLaunch(this._definition, shown, waiting, byUser) : true;
      if (answer !== true) {
        if (generation !== this._generation) return;
        if (answer !== false) {
          this._log.warn('Not started: you chose "Do not start" for this workspace-defined server, and its file changed since. Start it to be asked again.');
          return this._setState({ kind: 'stopped', message: answer.notAsked });
        }
        this._log.warn('Not started: running this workspace-defined server was declined.');
        return this._setState(ServerState.stopped);
      }
      if (generation !== this._generation) return;
      if (this._state.kind === 'starting' && this._state.message) this._setState(ServerState.starting);
      this._signIn?.dispose();
      this._signIn = launch.type === 'http' ? await loadAuth().OAuthSignIn.prepare(this.name, launch.url, launch.headers, launch.oauth, this._deps.oauth, this._deps.log) : undefined;
      if (generation !== this._generation) return;
      this._launchLine = shown;
      this._facts.spawned = false;
      const { client } = await openSession(launch, shown, {
        onSpawn: () => (this._facts.spawned = true),
        log: this._log,
        handshakeTimeoutMs: this._deps.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS,
        maxMessageBytes: this._deps.maxMessageBytes,
        knownLegacy: this._deps.eraMemory?.load() === 'legacy',
        signIn: this._signIn,
        newClient: () => this._newClient(generation),
        onAttempt: (attempt) => {
          this._client = attempt.client;
          this._transport = attempt.transport;
        },
        onWaiting: (message) => this._setState({ kind: 'starting', message }),
      });
      if (generation !== this._generation) return void (await client.close());
      this._signIn?.accepted(); // the handshake went through with the token (if one was needed)
      client.onclose = () => this._onClosed(generation);
      this._facts.noToolsCapability = !client.offersTools;
      if (!client.offersTools) this._log.warn('The server does not declare the "tools" capability; it offers no tools.');
      const info = client.info;
      this._deps.eraMemory?.save(client.era);
      this._log.info(`Connected: ${info.serverName ?? '?'} ${info.serverVersion ?? ''}, protocol ${info.protocolVersion ?? '?'}`);
      if (this._deps.rootsWhy) this._log.info(`Roots: ${this._deps.rootsWhy}`);
      this._setState({ kind: 'running', ...info });
      client.listenForChanges(); // 2026-07-28: before the listing, so no change falls between the two
      await this._listTools(generation);
    } catch (err) {
      if (generation !== this._generation) return;
      const http = this._definition.spec.type === 'http' ? this._launchLine : undefined;
      const error = ServerFailure.start(err, serverEnd(this._transport), http);
      const message = error.message + sandboxCause(this._transport, error.stderrTail);
      await this._teardown();
      this._log.error(message);
      const detail = error.stderrTail;
      for (const line of detail) this._log.error(`  stderr: ${line}`);
      if (automatic) this._afterCrash(message, detail);
      else this._setState({ kind: 'error', message, detail });
    }
  }

  private _newClient(generation: number): SdkClient {
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
      onToolsChanged: () => this._catalog.relistSoon(() => this._listTools(generation)),
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
    void this._client?.sendRootsListChanged().catch(() => undefined);
  }

  async stop(): Promise<void> {
    clearTimeout(this._restartTimer);
    this._generation++;
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
    await this._listTools(this._generation);
  }

  /** The server's skills (the skills extension, SEP-2640); fails when the server is not running. */
  skills(): SkillsAccess {
    const client = this._client;
    if (!client || !ServerState.isRunning(this._state)) throw ServerFailure.notRunning(this.name, this._state);
    return client.skills;
  }

  /** Reads a resource (`resources/read`), for opening a resource link from a result. */
  async readResource(uri: string): Promise<ResourceContents> {
    const client = this._client;
    if (!client || !ServerState.isRunning(this._state)) throw ServerFailure.notRunning(this.name, this._state);
    if (!client.offersResources) throw ServerFailure.noResources(this.name);
    return this._withSignIn(() => client.readResource(uri));
  }

  /** Sends `tools/call`. Only the CallPipeline calls this. */
  async callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<RawToolResult> {
    const client = this._client;
    if (!client || !ServerState.isRunning(this._state)) throw ServerFailure.notRunning(this.name, this._state);
    const transport = this._transport;
    const call = this._prompts.begin(name);
    const tool = this._catalog.find(name) ?? { name, inputSchema: { type: 'object' } };
    const began = Date.now();
    let how: CallEnd = 'finished';
    // Cancelled: a prompt of it closes at once (a 2026-07-28 call waits on its prompt before it can end).
    const cancelled = () => this._prompts.end(call, 'cancelled');
    options.signal?.addEventListener('abort', cancelled, { once: true });
    try {
      return withSandboxNotes(await this._withSignIn(() => client.callTool(tool, args, options, call)), transport, began);
    } catch (err) {
      how = loadHeavy().callEndOf(err, options.signal, this._client !== client);
      // The SDK only says "Connection closed": say how the server ended, from the transport we called through.
      throw ServerFailure.duringCall(serverEnd(transport), err) ?? err;
    } finally {
      options.signal?.removeEventListener('abort', cancelled);
      this._prompts.end(call, how);
    }
  }

  /**
   * Follows a task started earlier (tasks/get until it ends) and returns its result; `tool` is the
   * tool it runs, named when the task asks for input. Only the CallPipeline calls this.
   */
  async resumeTask(reference: TaskReference, options: Pick<CallOptions, 'signal' | 'timeoutMs' | 'onTaskStatus'>, tool: string): Promise<RawToolResult> {
    const client = this._client;
    if (!client || !ServerState.isRunning(this._state)) throw ServerFailure.notRunning(this.name, this._state);
    const transport = this._transport;
    // While it is followed, what the task asks (naming it) belongs to it.
    const call = this._prompts.begin(tool, reference.taskId);
    const began = Date.now();
    let how: CallEnd = 'finished';
    try {
      return withSandboxNotes(await this._withSignIn(() => client.resumeTask(reference, options, call)), transport, began);
    } catch (err) {
      how = loadHeavy().callEndOf(err, options.signal, this._client !== client);
      throw ServerFailure.duringCall(serverEnd(transport), err) ?? err;
    } finally {
      this._prompts.end(call, how);
    }
  }

  /** What the server says of a task now (`tasks/get`). */
  async taskStatus(reference: TaskReference, timeoutMs: number): Promise<TaskStatus> {
    const client = this._client;
    if (!client || !ServerState.isRunning(this._state)) throw ServerFailure.notRunning(this.name, this._state);
    return this._withSignIn(() => client.taskStatus(reference, timeoutMs));
  }

  /**
   * Sends a request of the running session. When the server refuses its token (401: revoked,
   * expired for good, or it moved to another authorization server) or asks for more scope (403
   * insufficient_scope), the user is asked to sign in again, through the same prompt as the first
   * sign-in (OAuthSignIn), and the request is sent once more; a failure says why in a SignInError.
   */
  private async _withSignIn<T>(send: () => Promise<T>): Promise<T> {
    const signIn = this._signIn;
    const transport = this._transport;
    let result: T;
    try {
      result = await send();
    } catch (err) {
      if (!signIn || !transport || !(await signIn.recoverRequest(err, transport as HttpTransport, (message) => this._log.info(message)))) throw err;
      result = await send().catch((again: unknown) => {
        throw signIn.refusedAgain(again);
      });
    }
    signIn?.accepted();
    return result;
  }

  dispose(): void {
    void this.stop();
    this._onDidChangeState.dispose();
    this._catalog.dispose();
    this._serverMessages.dispose();
  }

  private async _listTools(generation: number): Promise<void> {
    const client = this._client;
    if (!client) return;
    // A listing the server refuses mid-session (its token) signs in again, as a call does. One lister
    // per session: the catalog tells a session's listing again by it (logged only when it changed).
    let lister = this._listers.get(client);
    if (!lister) this._listers.set(client, (lister = { offersTools: client.offersTools, listTools: () => this._withSignIn(() => client.listTools()) }));
    await this._catalog.list(lister, () => generation === this._generation);
    // A 2026-07-28 listing that goes stale is fetched again (unless changes come pushed: listenForChanges).
    const ttlMs = client.listingTtlMs;
    if (ttlMs !== undefined && generation === this._generation && this._client === client) this._catalog.relistAfter(ttlMs, () => this._listTools(generation));
  }

  private _onClosed(generation: number): void {
    if (generation !== this._generation) return;
    const transport = this._transport;
    const end = serverEnd(transport);
    const message = ServerFailure.closed(end) + sandboxCause(transport, end.stderr);
    this._log.error(message);
    this._client = undefined;
    this._transport = undefined;
    void transport?.close().catch(() => undefined); // the leader is gone; its process group may not be
    this._afterCrash(message, end.stderr);
  }

  private async _teardown(): Promise<void> {
    this._catalog.cancelRelist();
    this._signIn?.dispose(); // cancels a sign-in that waits for the user
    this._signIn = undefined;
    const client = this._client;
    const transport = this._transport;
    this._client = undefined;
    this._transport = undefined;
    if (client) await client.close();
    else if (transport) await transport.close().catch(() => undefined);
    else return;
    // client.close() closes the transport; make sure a half-connected one is gone too.
    if (transport) await transport.close().catch(() => undefined);
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

/**
 * A tool error of a sandboxed server, with what the sandbox denied during the call added as a
 * text block of ours: every surface shows the result's text, so each says it.
 */
function withSandboxNotes(result: RawToolResult, transport: Transport | undefined, since: number): RawToolResult {
  const fence = transport instanceof StdioTransport ? transport.fence : undefined;
  if (!fence || !('content' in result) || result.isError !== true || !Array.isArray(result.content)) return result;
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  const notes = loadHeavy().explainToolFailure(text, fence, since);
  return notes.length ? { ...result, content: [...result.content, { type: 'text', text: `[MCP Tool Host] ${notes.join(' ')}` }] } : result;
}

/** For a server that ran in a sandbox, the denial its stderr shows as the likely cause of its failure (sandbox.ts), as a sentence to add. */
function sandboxCause(transport: Transport | undefined, stderr: readonly string[]): string {
  const denial = transport instanceof StdioTransport && transport.sandboxed ? loadHeavy().sandboxDenial(stderr) : undefined;
  return denial ? ` ${denial}` : '';
}

/** The exact command line (stdio) or URL (http), for logs and prompts. */
function describeLaunch(launch: ResolvedLaunch): string {
  return launch.type === 'http' ? launch.url : formatCommandLine(launch.launch.command, launch.launch.args);
}
