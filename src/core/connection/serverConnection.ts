import { Client, type CallToolResult, type Tool, type Transport } from '@modelcontextprotocol/client';
import { Emitter, type Disposable } from '../events';
import { HandshakeTimeoutError, McpHostError, ServerStartError } from '../errors';
import type { ServerDefinition } from '../config/serverConfig';
import { StdioTransport } from '../transport/stdioTransport';
import { createHttpTransport, explainHttpFailure, shouldTrySse, type HttpTransport } from '../transport/httpTransports';
import { OAuthSignIn } from '../auth/oauthSignIn';
import type { OAuthHost } from '../auth/ports';
import { formatCommandLine, type StdioLaunch } from '../transport/commandLine';
import type { SchemaValidator } from '../tools/schemaValidator';
import { RestartPolicy } from './restartPolicy';
import { maskingLog, maskSecrets } from '../render/secrets';
import { ServerState, type ServerLog } from './serverState';

export const HANDSHAKE_TIMEOUT_MS = 30_000;
/** How long a server may take to answer the 2026-07-28 `server/discover` probe before it counts as a 2025-era server. */
const PROBE_TIMEOUT_MS = 2_000;
const LIST_CHANGED_DEBOUNCE_MS = 250;

/** A launch with every variable resolved: what actually runs or is contacted. */
export type ResolvedLaunch = (
  | { readonly type: 'stdio'; readonly launch: StdioLaunch }
  | { readonly type: 'http'; readonly url: string; readonly headers: Readonly<Record<string, string>> }
) & {
  /** Secret values substituted into the launch (`${input:...}`): masked wherever it is shown. */
  readonly secrets?: readonly string[];
};

/** Where the last-known tool list of a server is kept, so the tree can show it at once. */
export interface ToolCache {
  load(): readonly Tool[] | undefined;
  save(tools: readonly Tool[]): void;
}

export interface ConnectionDeps {
  readonly log: ServerLog;
  readonly validator: SchemaValidator;
  readonly resolveLaunch: (def: ServerDefinition) => Promise<ResolvedLaunch>;
  readonly roots?: () => { uri: string; name?: string }[];
  readonly clientVersion: string;
  readonly maxMessageBytes?: number;
  /** How long `initialize` may take (default HANDSHAKE_TIMEOUT_MS). */
  readonly handshakeTimeoutMs?: number;
  readonly toolCache?: ToolCache;
  /** Asked before a launch runs (workspace-defined servers); false leaves the server stopped. */
  readonly confirmLaunch?: (def: ServerDefinition, shownLaunch: string) => Promise<boolean>;
  readonly restartPolicy?: RestartPolicy;
  /** Signing in to remote servers that require OAuth (browser, secrets); without it a 401 is a plain error. */
  readonly oauth?: OAuthHost;
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  readonly timeoutMs: number;
  readonly maxTotalTimeoutMs: number;
}

/** A result as servers send it: current `content`, or the 2024-10-07 draft's `toolResult`. */
export type RawToolResult = CallToolResult | { toolResult: unknown };

/**
 * One configured server: the SDK `Client` over our transport, its lifecycle state and its
 * tool list. This is the only file that touches the SDK's `Client` (STYLE.md: isolate it).
 */
export class ServerConnection implements Disposable {
  private readonly _onDidChangeState = new Emitter<ServerState>();
  readonly onDidChangeState = this._onDidChangeState.event;
  private readonly _onDidChangeTools = new Emitter<readonly Tool[]>();
  readonly onDidChangeTools = this._onDidChangeTools.event;

  private _state: ServerState;
  private _tools: readonly Tool[] = [];
  private _client: Client | undefined;
  private _transport: Transport | undefined;
  private _generation = 0;
  private _relistTimer: NodeJS.Timeout | undefined;
  private _launchLine: string | undefined;
  private _toolsFromCache = false;
  private _restartTimer: NodeJS.Timeout | undefined;
  private readonly _restarts: RestartPolicy;
  private _secrets: readonly string[] = [];
  /** Everything this connection logs goes through here: the server's secrets are masked. */
  private readonly _log: ServerLog;
  private _signIn: OAuthSignIn | undefined;

  constructor(private _definition: ServerDefinition, private readonly _deps: ConnectionDeps) {
    this._state = _definition.disabled ? ServerState.disabled : ServerState.stopped;
    this._restarts = _deps.restartPolicy ?? new RestartPolicy();
    this._log = maskingLog(_deps.log, () => this._secrets);
    const cached = _deps.toolCache?.load();
    if (cached) {
      this._tools = cached;
      this._toolsFromCache = true;
    }
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
  get tools(): readonly Tool[] {
    return this._tools;
  }
  /** True while the tools shown are the last-known list, not yet confirmed by the live server. */
  get toolsFromCache(): boolean {
    return this._toolsFromCache;
  }
  /** Secret values (`${input:...}`) of the current launch: every surface masks them. */
  get secrets(): readonly string[] {
    return this._secrets;
  }
  /** The exact command line or URL last launched. */
  get launchLine(): string | undefined {
    return this._launchLine;
  }

  /** Adopts a new definition that launches the same way (timeouts, trust): no restart. */
  updateDefinition(definition: ServerDefinition): void {
    this._definition = definition;
  }

  /** Starts the server (a start the user asked for: the crash count begins again). */
  async start(): Promise<void> {
    if (ServerState.isActive(this._state)) return;
    clearTimeout(this._restartTimer);
    this._restarts.reset();
    await this._launch(false);
  }

  private async _launch(automatic: boolean): Promise<void> {
    if (this._definition.disabled) return this._setState(ServerState.disabled);
    const generation = ++this._generation;
    this._setState(ServerState.starting);
    try {
      const launch = await this._deps.resolveLaunch(this._definition);
      if (generation !== this._generation) return;
      this._secrets = launch.secrets ?? [];
      const shown = maskSecrets(describeLaunch(launch), launch.secrets);
      if (this._deps.confirmLaunch && !(await this._deps.confirmLaunch(this._definition, shown))) {
        if (generation !== this._generation) return;
        this._log.warn('Not started: running this workspace-defined server was declined.');
        return this._setState(ServerState.stopped);
      }
      this._signIn?.dispose();
      this._signIn = launch.type === 'http' ? await OAuthSignIn.prepare(this.name, launch.url, launch.headers, this._deps.oauth, this._deps.log) : undefined;
      if (generation !== this._generation) return;
      const client = await this._connect(launch, shown, 'streamable-http');
      if (generation !== this._generation) return void (await client.close().catch(() => undefined));
      client.onclose = () => this._onClosed(generation);
      if (!client.getServerCapabilities()?.tools) this._log.warn('The server does not declare the "tools" capability; it offers no tools.');
      const version = client.getServerVersion();
      this._log.info(`Connected: ${version?.name ?? '?'} ${version?.version ?? ''}, protocol ${client.getNegotiatedProtocolVersion() ?? '?'}`);
      this._setState({
        kind: 'running',
        serverName: version?.name,
        serverVersion: version?.version,
        protocolVersion: client.getNegotiatedProtocolVersion(),
        instructions: client.getInstructions(),
        capabilities: client.getServerCapabilities(),
      });
      await this._listTools(generation);
    } catch (err) {
      if (generation !== this._generation) return;
      const error = this._explainStartFailure(err);
      await this._teardown();
      this._log.error(error.message);
      for (const line of error instanceof ServerStartError ? error.stderrTail : []) this._log.error(`  stderr: ${line}`);
      const detail = error instanceof ServerStartError ? error.stderrTail : undefined;
      if (automatic) this._afterCrash(error.message, detail);
      else this._setState({ kind: 'error', message: error.message, detail });
    }
  }

  /** Creates transport and client and runs the handshake; a remote endpoint that refuses Streamable HTTP gets one try over SSE. */
  private async _connect(launch: ResolvedLaunch, shown: string, httpKind: 'streamable-http' | 'sse'): Promise<Client> {
    const transport = this._createTransport(launch, shown, httpKind);
    const client = this._createClient();
    this._transport = transport;
    this._client = client;
    const handshakeMs = this._deps.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS;
    try {
      await withTimeout(client.connect(transport), handshakeMs, () =>
        new HandshakeTimeoutError(`The server did not answer "initialize" within ${handshakeMs / 1000} s. ${stderrTail(transport).length ? `Last stderr: ${stderrTail(transport).at(-1)}` : 'It wrote nothing to stderr.'}`, stderrTail(transport)),
      );
    } catch (err) {
      if (launch.type === 'http' && (await this._signIn?.recover(err, transport as HttpTransport, (message) => this._setState({ kind: 'starting', message })))) {
        // The server wants OAuth: the provider is in place now, or the user just signed in. Connect again.
        await client.close().catch(() => undefined);
        return this._connect(launch, shown, httpKind);
      }
      if (launch.type !== 'http' || httpKind === 'sse' || !shouldTrySse(err)) throw err;
      this._log.info(`Streamable HTTP was refused (${(err as Error).message}); trying the HTTP+SSE transport.`);
      await client.close().catch(() => undefined);
      return this._connect(launch, shown, 'sse');
    }
    return client;
  }

  /** Schedules the next automatic restart, or gives up when crashes come too fast. */
  private _afterCrash(message: string, detail: readonly string[] | undefined): void {
    const decision = this._restarts.onCrash();
    if (decision.kind === 'give-up') {
      const gaveUp = `${message} It failed ${decision.crashes} times within 3 minutes, so automatic restarts stopped; use Restart to try again.`;
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

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** Lists the tools again (every page); the Refresh command and list_changed use this. */
  async refreshTools(): Promise<void> {
    await this._listTools(this._generation);
  }

  /** Reads a resource (`resources/read`), for opening a resource link from a result. */
  async readResource(uri: string): Promise<{ uri: string; mimeType?: string; text?: string; blob?: string }[]> {
    const client = this._client;
    if (!client || !ServerState.isRunning(this._state)) throw new McpHostError(`Server "${this.name}" is not running (${ServerState.label(this._state)}).`);
    if (!client.getServerCapabilities()?.resources) throw new McpHostError(`Server "${this.name}" does not offer resources, so the link cannot be opened here.`);
    const result = await client.readResource({ uri });
    return result.contents as { uri: string; mimeType?: string; text?: string; blob?: string }[];
  }

  /** Sends `tools/call`. Only the CallPipeline calls this. */
  async callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<RawToolResult> {
    const client = this._client;
    if (!client || !ServerState.isRunning(this._state)) throw new McpHostError(`Server "${this.name}" is not running (${ServerState.label(this._state)}).`);
    const transport = this._transport;
    try {
      return (await client.callTool({ name, arguments: args }, {
        signal: options.signal,
        onprogress: options.onprogress,
        timeout: options.timeoutMs,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: options.maxTotalTimeoutMs,
        // We check structuredContent ourselves (and flag a mismatch instead of hiding the result):
        // a definition without outputSchema keeps the SDK from rejecting the call.
        toolDefinition: { ...(this._tools.find((t) => t.name === name) ?? { name, inputSchema: { type: 'object' } }), outputSchema: undefined },
      })) as RawToolResult;
    } catch (err) {
      // The SDK only says "Connection closed": say how the server ended, from the transport we called through.
      const exit = transport instanceof StdioTransport ? transport.exitInfo : undefined;
      if (!exit) throw err;
      const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
      const tail = stderrTail(transport);
      throw new McpHostError(`The server ${how} during the call.${tail.length ? ` Last stderr: ${tail[tail.length - 1]}` : ''}`, { cause: err });
    }
  }

  dispose(): void {
    void this.stop();
    this._onDidChangeState.dispose();
    this._onDidChangeTools.dispose();
  }

  private _createTransport(launch: ResolvedLaunch, shown: string, httpKind: 'streamable-http' | 'sse'): Transport {
    this._launchLine = shown;
    if (launch.type === 'http') {
      this._log.info(`Connecting to ${shown} (${httpKind})`);
      return createHttpTransport(httpKind, launch.url, launch.headers, this._signIn?.provider);
    }
    const transport = new StdioTransport(launch.launch, {
      maxMessageBytes: this._deps.maxMessageBytes,
      onStderrLine: (line) => this._log.stderr(line),
      onWarning: (message) => this._log.warn(message),
    });
    this._log.info(`Starting: ${shown}${launch.launch.cwd ? ` (in ${launch.launch.cwd})` : ''}`);
    return transport;
  }

  private _createClient(): Client {
    const roots = this._deps.roots;
    const client = new Client(
      { name: 'mcp-tool-host', version: this._deps.clientVersion },
      {
        capabilities: roots ? { roots: { listChanged: true } } : {},
        jsonSchemaValidator: this._deps.validator,
        // Speak 2026-07-28 to servers that do; others get the classic initialize after a short probe.
        versionNegotiation: { mode: 'auto', probe: { timeoutMs: PROBE_TIMEOUT_MS } },
      },
    );
    if (roots) client.setRequestHandler('roots/list', () => ({ roots: roots() }));
    client.setNotificationHandler('notifications/tools/list_changed', () => this._scheduleRelist());
    client.setNotificationHandler('notifications/message', (n) => {
      const text = typeof n.params.data === 'string' ? n.params.data : JSON.stringify(n.params.data);
      const line = `[${n.params.level}]${n.params.logger ? ` ${n.params.logger}:` : ''} ${text}`;
      if (['error', 'critical', 'alert', 'emergency'].includes(n.params.level)) this._log.error(line);
      else if (n.params.level === 'warning') this._log.warn(line);
      else this._log.info(line);
    });
    client.onerror = (err) => this._log.warn(`Protocol: ${err.message}`);
    return client;
  }

  private _scheduleRelist(): void {
    clearTimeout(this._relistTimer);
    const generation = this._generation;
    this._relistTimer = setTimeout(() => void this._listTools(generation), LIST_CHANGED_DEBOUNCE_MS);
  }

  private async _listTools(generation: number): Promise<void> {
    const client = this._client;
    if (!client || !client.getServerCapabilities()?.tools) return;
    try {
      const { tools } = await client.listTools();
      if (generation !== this._generation) return;
      this._tools = tools;
      this._toolsFromCache = false;
      this._deps.toolCache?.save(tools);
      this._log.info(`${tools.length} tool${tools.length === 1 ? '' : 's'} listed.`);
      this._onDidChangeTools.fire(tools);
    } catch (err) {
      if (generation === this._generation) this._log.error(`Listing tools failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private _onClosed(generation: number): void {
    if (generation !== this._generation) return;
    const transport = this._transport;
    const exit = transport instanceof StdioTransport ? transport.exitInfo : undefined;
    const how = exit ? (exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`) : 'closed the connection';
    const tail = stderrTail(transport);
    this._log.error(`The server ${how}.`);
    this._client = undefined;
    this._transport = undefined;
    void transport?.close().catch(() => undefined); // the leader is gone; its process group may not be
    this._afterCrash(`The server ${how}.`, tail);
  }

  private _explainStartFailure(err: unknown): Error {
    if (err instanceof ServerStartError) return err;
    const transport = this._transport;
    const exit = transport instanceof StdioTransport ? transport.exitInfo : undefined;
    const tail = stderrTail(transport);
    if (exit) {
      const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
      return new ServerStartError(`The server ${how} before finishing the MCP handshake.${tail.length ? ` Last stderr: ${tail[tail.length - 1]}` : ''}`, tail);
    }
    if (err instanceof HandshakeTimeoutError) return err;
    if (this._definition.spec.type === 'http' && this._launchLine) return new ServerStartError(explainHttpFailure(err, this._launchLine), [], { cause: err });
    const message = err instanceof Error ? err.message : String(err);
    return new ServerStartError(`The MCP handshake failed: ${message}`, tail, { cause: err });
  }

  private async _teardown(): Promise<void> {
    clearTimeout(this._relistTimer);
    this._signIn?.dispose(); // cancels a sign-in that waits for the user
    this._signIn = undefined;
    const client = this._client;
    const transport = this._transport;
    this._client = undefined;
    this._transport = undefined;
    if (client) await client.close().catch(() => undefined);
    else if (transport) await transport.close().catch(() => undefined);
    else return;
    // client.close() closes the transport; make sure a half-connected one is gone too.
    if (transport) await transport.close().catch(() => undefined);
  }

  private _setState(state: ServerState): void {
    this._state = state;
    this._onDidChangeState.fire(state);
  }
}

/** The exact command line (stdio) or URL (http), for logs and prompts. */
function describeLaunch(launch: ResolvedLaunch): string {
  return launch.type === 'http' ? launch.url : formatCommandLine(launch.launch.command, launch.launch.args);
}


function stderrTail(transport: Transport | undefined): readonly string[] {
  return transport instanceof StdioTransport ? [...transport.stderrTail] : [];
}

async function withTimeout<T>(p: Promise<T>, ms: number, error: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(error()), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
