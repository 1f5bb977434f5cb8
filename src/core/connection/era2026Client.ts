import type { Tool } from '@modelcontextprotocol/client';
import { loadConnection } from './load';
import type { RawToolResult } from '../render/renderResult';
import { withLinkConsent } from './elicitationRequests';
import { asToolResult, LIST_TIMEOUT_MS, rawCall, rawRequest, taskSupportOf, type CallOptions, type EraClient, type EraSession, type PlainRequestOptions, type RelayedInput, type TaskReference, type TaskStatus } from './eraClient';
import { completeAnswer } from './inputRounds';
import type { CallInFlight } from './promptGate';
import { ANY_ANSWER, TaskCalls } from './taskCalls';
import { listAllTools } from './toolListing';

/** The `_meta` key of the level a request's log messages should start at (2026-07-28 logging). */
const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';

/** The `_meta` key of the capabilities the client declares (2026-07-28 envelope). */
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
/** The capabilities that say which embedded requests a client answers: a relayed request declares its caller's instead. */
const INPUT_CAPABILITIES = ['elicitation', 'sampling', 'roots'];

/** The longest a timer can wait: a `subscriptions/listen` request stays open for the whole session. */
const FOR_THE_SESSION_MS = 2_147_483_647;

/**
 * The 2026-07-28 era (stateless, `server/discover`): `tools/list` and `tools/call` go past the
 * SDK's Client as in the 2025 era, each request framed with the era's `_meta` envelope, an
 * `input_required` answer taken round by round (inputRounds.ts), and over HTTP the arguments a
 * tool marks with `x-mcp-header` sent as headers too (paramHeaders.ts). A server that declares
 * the tasks extension gets every call through the Tasks package (taskCalls.ts), and decides
 * itself whether a call becomes a task.
 */
export class Era2026Client implements EraClient {
  readonly era = 'modern';
  private readonly _tasks: TaskCalls | undefined;
  private readonly _envelope: Record<string, unknown>;
  /** Ends the `subscriptions/listen` request when the session closes. */
  private readonly _listening = new AbortController();
  /** A `subscriptions/listen` request is open: tool list changes are pushed. */
  private _listenedTo = false;
  /** Ends the stream open now, when it is opened again with another filter. */
  private _stream: AbortController | undefined;
  /** The resources whose updates the stream asks for, sorted. */
  private _resourceUris: readonly string[] = [];
  private _ttlMs: number | undefined;

  constructor(private readonly _s: EraSession) {
    const protocolVersion = _s.client.getNegotiatedProtocolVersion() ?? '2026-07-28';
    this._envelope = {
      'io.modelcontextprotocol/protocolVersion': protocolVersion,
      'io.modelcontextprotocol/clientInfo': { ..._s.clientInfo },
      'io.modelcontextprotocol/clientCapabilities': _s.capabilities(),
    };
    this._tasks = loadConnection().declaresTasksExtension(_s.client.getServerCapabilities()) ? new TaskCalls(_s, { protocolVersion }) : undefined;
  }

  get offersTasks(): boolean {
    return this._tasks !== undefined;
  }

  /** How long the last listing stays fresh (`ttlMs`); undefined while changes come pushed (listenForChanges). */
  get listingTtlMs(): number | undefined {
    return this._listenedTo ? undefined : this._ttlMs;
  }

  /** Every page (toolListing.ts); over HTTP a tool whose `x-mcp-header` declarations break the spec is left out too. */
  async listTools(): Promise<Tool[]> {
    let ttlMs: unknown;
    const fetchPage = async (cursor: string | undefined) => {
      const params = cursor === undefined ? { _meta: this._envelope } : { cursor, _meta: this._envelope };
      const leg = (retry: Record<string, unknown> | undefined) => rawRequest(this._s, 'tools/list', retry ? { ...params, ...retry } : params, { timeoutMs: LIST_TIMEOUT_MS });
      const page = await completeAnswer(leg, 'tools/list', this._s.prompts, undefined, LIST_TIMEOUT_MS, undefined);
      if (cursor === undefined) ttlMs = page.ttlMs;
      return page;
    };
    const tools = await listAllTools(fetchPage, this._s.limits, this._s.log, this._s.overHttp ? headerFault : undefined);
    this._ttlMs = typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs > 0 ? ttlMs : undefined;
    return tools;
  }

  callTool(tool: Tool, args: Record<string, unknown>, options: CallOptions, call: CallInFlight): Promise<RawToolResult> {
    const headers = this._s.overHttp ? headersOf(tool, args) : undefined;
    if (this._tasks) return this._tasks.call(tool, args, taskSupportOf(tool), options, headers ?? {}, call);
    // A plain call runs against its total limit: a prompt of it says when the limit is near.
    call.endsAt = Date.now() + options.maxTotalTimeoutMs;
    return this._plainCall(tool, args, options, call, headers);
  }

  /** No async frame of its own: every 2026-07-28 call runs this (BENCHMARKS.md case 2). */
  private _plainCall(tool: Tool, args: Record<string, unknown>, options: CallOptions, call: CallInFlight, headers: Record<string, string> | undefined): Promise<RawToolResult> {
    const s = this._s;
    const first = { meta: options.input ? this._relayedEnvelope(options.input) : this._envelope, headers };
    const leg = (retry: Record<string, unknown> | undefined, remainingMs: number) => rawCall(s, tool, args, retry ? { ...options, maxTotalTimeoutMs: remainingMs } : options, call, retry ? { ...first, params: retry } : first);
    const send = () => completeAnswer(leg, 'tools/call', s.prompts, call, options.maxTotalTimeoutMs, options.signal, options.input);
    return asToolResult(withLinkConsent(send, tool.name, s.prompts.askFor({ kind: 'call', call }), s.log, s.completions, options.signal));
  }

  /** Framed with the era's `_meta` envelope (the caller's own `_meta` kept beside it), `input_required` rounds answered. */
  request(method: string, params: Record<string, unknown> | undefined, options: PlainRequestOptions): Promise<Record<string, unknown>> {
    const own = params?._meta;
    const envelope = options.input ? this._relayedEnvelope(options.input) : this._envelope;
    const framed = { ...params, _meta: typeof own === 'object' && own !== null ? { ...own, ...envelope } : envelope };
    const leg = (retry: Record<string, unknown> | undefined, remainingMs: number) => rawRequest(this._s, method, retry ? { ...framed, ...retry } : framed, { timeoutMs: remainingMs, signal: options.signal });
    return completeAnswer(leg, method, this._s.prompts, undefined, options.timeoutMs, options.signal, options.input);
  }

  /** The envelope of a relayed request: the server is told the input kinds the caller's client answers, not the host's. */
  private _relayedEnvelope(input: RelayedInput): Record<string, unknown> {
    const own = { ...(this._envelope[CLIENT_CAPABILITIES_KEY] as Record<string, unknown>) };
    for (const kind of INPUT_CAPABILITIES) delete own[kind];
    return { ...this._envelope, [CLIENT_CAPABILITIES_KEY]: { ...own, ...input.capabilities } };
  }

  resumeTask(reference: TaskReference, options: Pick<CallOptions, 'signal' | 'timeoutMs' | 'onTaskStatus'>, call: CallInFlight): Promise<RawToolResult> {
    return this._tasksOrFail().resume(reference, options, call);
  }

  taskStatus(reference: TaskReference, timeoutMs: number): Promise<TaskStatus> {
    return this._tasksOrFail().status(reference, timeoutMs);
  }

  /**
   * A 2026-07-28 server tells of changes only to a client that listens: one `subscriptions/listen`
   * request, held open for the session, asks for tool and resource list changes where the server
   * declares them (`listChanged`), and for the updates of the resources watched now
   * (`resourceSubscriptions`, where it declares `resources.subscribe`). The notifications reach the
   * same handlers as in the 2025 era.
   */
  listenForChanges(): void {
    this._listen();
  }

  /** The stream is opened again with these URIs (the filter of an open stream cannot change). */
  async watchResources(uris: readonly string[]): Promise<void> {
    const next = [...new Set(uris)].sort();
    if (next.length === this._resourceUris.length && next.every((u, i) => u === this._resourceUris[i])) return;
    this._resourceUris = next;
    if (!this._listening.signal.aborted) this._listen();
  }

  /** What the stream asks for (spec: `SubscriptionFilter`), or undefined when there is nothing to ask. */
  private _filter(): Record<string, unknown> | undefined {
    const caps = this._s.client.getServerCapabilities();
    const tools = caps?.tools as { listChanged?: boolean } | undefined;
    const resources = caps?.resources as { listChanged?: boolean; subscribe?: boolean } | undefined;
    const prompts = caps?.prompts as { listChanged?: boolean } | undefined;
    const filter: Record<string, unknown> = {};
    if (tools?.listChanged) filter.toolsListChanged = true;
    if (resources?.listChanged) filter.resourcesListChanged = true;
    if (prompts?.listChanged) filter.promptsListChanged = true;
    if (resources?.subscribe && this._resourceUris.length > 0) filter.resourceSubscriptions = [...this._resourceUris];
    return Object.keys(filter).length > 0 ? filter : undefined;
  }

  /** Opens the stream (ending the one before, if any) with the filter of now. */
  private _listen(): void {
    this._stream?.abort();
    this._stream = undefined;
    const notifications = this._filter();
    if (!notifications) return;
    const stream = new AbortController();
    this._stream = stream;
    const session = this._listening.signal;
    const signal = AbortSignal.any([session, stream.signal]);
    const client = this._s.client;
    const log = this._s.log;
    const listen = { method: 'subscriptions/listen', params: { notifications } };
    this._listenedTo = notifications.toolsListChanged === true;
    const what = notifications.toolsListChanged ? 'tool list changes' : 'resource and prompt changes';
    const ended = () => void (this._stream === stream && (this._listenedTo = false));
    client.request(listen as never, ANY_ANSWER, { signal, timeout: FOR_THE_SESSION_MS, maxTotalTimeout: FOR_THE_SESSION_MS }).finally(ended).then(
      () => this._stream === stream && log.info(`The server ended its subscription to ${what} (subscriptions/listen): Refresh lists them again.`),
      (err: unknown) => signal.aborted || log.warn(`Listening for ${what} failed (subscriptions/listen: ${err instanceof Error ? err.message : String(err)}): Refresh lists the tools again.`),
    );
  }

  /** No `logging/setLevel` in this era: the level travels in the `_meta` of every request from here on. */
  async setLogLevel(level: string): Promise<boolean> {
    if (!this._s.client.getServerCapabilities()?.logging) return false;
    this._envelope[LOG_LEVEL_KEY] = level;
    return true;
  }

  close(): void {
    this._listening.abort();
  }

  private _tasksOrFail(): TaskCalls {
    // A task of another session: the Tasks package says it cannot be resumed here.
    return this._tasks ?? new TaskCalls(this._s, undefined);
  }
}

/** The Mcp-Param headers a tool's `x-mcp-header` declarations ask for (none when it declares none). */
function headersOf(tool: Tool, args: Record<string, unknown>): Record<string, string> | undefined {
  const scan = loadConnection().scanParamHeaders(tool.inputSchema);
  return 'headers' in scan ? loadConnection().paramHeaderValues(scan.headers, args) : undefined;
}

/** Why a tool's `x-mcp-header` declarations make it invalid, if they do. */
function headerFault(tool: Tool): string | undefined {
  const scan = loadConnection().scanParamHeaders(tool.inputSchema);
  return 'fault' in scan ? scan.fault : undefined;
}
