import type { Client, StandardSchemaV1, Tool, Transport } from '@modelcontextprotocol/client';
import { loadHeavy } from '../lazy/load';
import { sanitizeLine } from '../render/sanitize';
import type { RawToolResult } from '../render/renderResult';
import type { ServerLog } from '../serverLog';
import type { SchemaValidator } from '../tools/schemaValidator';
import { listAllTools, type ListingLimits } from './toolListing';
import type { SkillsAccess } from './skills';
import type { TaskEnabledSession, ToolExecution } from '@modelcontextprotocol/ext-tasks/client' with { 'resolution-mode': 'import' };
import type { OpenedTaskSession } from './taskSession';
import type { ElicitationCompletions } from '../elicitation/urlElicitation';
import { answerElicitation, withLinkConsent, type AskForCalls, type AskUser } from './elicitationRequests';
import { MAX_PROMPTS_PER_CALL, type CallInFlight, type PromptGate, type PromptSource } from './promptGate';
import type { RawRequestOptions, RawRequests, RawResponse } from './rawAnswers';

/** The longest a timer can wait: a `subscriptions/listen` request stays open for the whole session. */
const FOR_THE_SESSION_MS = 2_147_483_647;

/** How long a server may take to answer the 2026-07-28 `server/discover` probe before it counts as a 2025-era server. */
const PROBE_TIMEOUT_MS = 2_000;
/** How long a page of `tools/list` may take (the SDK's default request timeout). */
const LIST_TIMEOUT_MS = 60_000;
/** The longest task id followed; a longer one is refused (and the board would not keep it either, taskBoard.ts). */
const MAX_TASK_ID = 200;
/** At most this many input_required rounds one 2026-07-28 call may take: past the prompts a call may raise, a round only loops. */
const MAX_INPUT_ROUNDS = 2 * MAX_PROMPTS_PER_CALL;

/**
 * A result schema that accepts any answer: the SDK's strict parse fails a whole list for one bad
 * tool, a whole call for one unknown content block. We check what we use ourselves
 * (toolListing.ts, `resultOf`; renderResult.ts shows an unknown block as unknown); in the
 * 2026-07-28 era rawAnswers.ts gets the answer past the SDK's own codec.
 */
const ANY_ANSWER: StandardSchemaV1<unknown, unknown> = { '~standard': { version: 1, vendor: 'mcp-tool-host', validate: (value) => ({ value }) } };

/** How one `tools/call` may be cancelled, reports progress, and how long it may take (the pipeline sets these). */
export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  readonly timeoutMs: number;
  readonly maxTotalTimeoutMs: number;
  /** The server runs this call as a task (2025-11-25 tasks): what identifies it, and how to cancel it. */
  readonly onTask?: (task: StartedTask) => void;
  /** A running task's status as the server reports it (each poll that tells something new). */
  readonly onTaskStatus?: (status: TaskStatus) => void;
}

/** Where a task can be found again, in this session or the next (the Tasks package's serialized reference, JSON). */
export interface TaskReference {
  readonly endpointId: string;
  readonly generation: 'v1' | 'v2';
  readonly taskId: string;
  readonly originalOperation: string;
}

/** A call that the server runs as a task (cancelling the call's signal cancels it). */
export interface StartedTask {
  readonly taskId: string;
  readonly reference: TaskReference;
}

export type TaskState = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export interface TaskStatus {
  readonly taskId: string;
  readonly status: TaskState;
  readonly statusMessage?: string;
}

/** A task ended without a result (the server failed or cancelled it): the server's answer, not a lost connection. */
export class TaskEnded extends Error {}

/** A result parser that takes any answer (the pipeline renders what it can, as for a plain call). */
const ANY_RESULT = { parse: (value: unknown) => ({ success: true as const, value }) };

/** A resource's contents as `resources/read` returns them. */
export type ResourceContents = { uri: string; mimeType?: string; text?: string; blob?: string; _meta?: Record<string, unknown> }[];

/** What the server said about itself in `initialize`. */
export interface ServerInfo {
  readonly serverName?: string;
  readonly serverVersion?: string;
  readonly protocolVersion?: string;
  readonly instructions?: string;
  /** The capabilities the server declared (tools, resources, logging...), as sent. */
  readonly capabilities?: Readonly<Record<string, unknown>>;
}

/** What a client needs from the connection that builds it (one per launch attempt). */
export interface SdkClientOptions {
  readonly clientVersion: string;
  readonly validator: SchemaValidator;
  readonly roots?: () => { uri: string; name?: string }[];
  /** The server's `notifications/message` and protocol errors go here. */
  readonly log: ServerLog;
  /** `notifications/tools/list_changed` arrived. */
  readonly onToolsChanged: () => void;
  /** How many tools, and how many bytes of them, one listing may hold (defaults in toolListing.ts). */
  readonly listingLimits?: ListingLimits;
  /** Names this server for the Tasks package: stable across sessions, so a task started before a reload can be resumed. */
  readonly endpointId?: string;
  /** Asks the user a server's form or link (elicitation, both modes); without it the capability is not declared. */
  readonly elicit?: AskForCalls;
  /** Which of the server's prompts reach `elicit`: only its calls', only so many (promptGate.ts). */
  readonly prompts: PromptGate;
}

/**
 * The SDK's `Client` behind our own type: the only file that holds a `Client`, so an SDK upgrade
 * that changes it changes one file. It owns the client's single-slot `onclose`/`onerror`
 * callbacks; the connection composes it with a transport (transportChoice.ts) and the tool catalog.
 */
export class SdkClient {
  private readonly _client: Client;
  private readonly _log: ServerLog;
  private readonly _limits: ListingLimits;
  private _overHttp = false;
  private readonly _endpointId: string;
  private _tasks: Promise<OpenedTaskSession<CallInFlight | undefined>> | undefined;
  private _onclose: (() => void) | undefined;
  private readonly _closeListeners = new Set<() => void>();
  /** Ends the `subscriptions/listen` request (2026-07-28) when the session closes. */
  private readonly _listening = new AbortController();
  /** A `subscriptions/listen` request is open: list changes are pushed. */
  private _listenedTo = false;
  private _listingTtlMs: number | undefined;
  private readonly _elicit: AskForCalls | undefined;
  private readonly _prompts: PromptGate;
  private readonly _roots: SdkClientOptions['roots'];
  private readonly _clientVersion: string;
  private readonly _capabilities: Record<string, unknown>;
  /** The path past the SDK for the tasks extension's requests (rawAnswers.ts), once connected. */
  private _raw: RawRequests | undefined;
  /** The links the user opened for this server, until it says each page is done. */
  private readonly _completions: ElicitationCompletions = new (loadHeavy().ElicitationCompletions)();

  constructor(options: SdkClientOptions) {
    const { roots, log } = options;
    this._log = log;
    this._limits = options.listingLimits ?? {};
    this._endpointId = options.endpointId ?? 'mcp-tool-host';
    this._elicit = options.elicit;
    this._prompts = options.prompts;
    this._roots = roots;
    this._clientVersion = options.clientVersion;
    this._capabilities = { ...(roots && { roots: { listChanged: true } }), ...(options.elicit && { elicitation: { form: {}, url: {} } }) };
    this._client = new (loadHeavy().Client)(
      { name: 'mcp-tool-host', version: options.clientVersion },
      {
        capabilities: structuredClone(this._capabilities),
        jsonSchemaValidator: options.validator,
        // Speak 2026-07-28 to servers that do; others get the classic initialize after a short probe.
        versionNegotiation: { mode: 'auto', probe: { timeoutMs: PROBE_TIMEOUT_MS } },
      },
    );
    const client = this._client;
    if (roots) client.setRequestHandler('roots/list', () => ({ roots: roots() }));
    const elicit = options.elicit;
    if (elicit) {
      // The gate first: a request outside the server's calls, or past their share, is declined before it is read (promptGate.ts).
      client.setRequestHandler('elicitation/create', (request, ctx) => {
        const admitted = this._prompts.admit({ kind: 'request', params: request.params });
        return admitted ? answerElicitation(request.params, (asked) => elicit(asked, admitted), log, this._completions, ctx.mcpReq.signal) : { action: 'decline' as const };
      });
      client.setNotificationHandler('notifications/elicitation/complete', (n) => {
        const id = sanitizeLine(String(n.params.elicitationId)).slice(0, 200);
        if (this._completions.complete(n.params.elicitationId)) log.info(`The server says the page it asked the user to open is done (elicitation ${id}).`);
        else log.warn(`The server says elicitation ${id} is done, but the host opened no page under that id: ignored.`);
      });
    }
    client.setNotificationHandler('notifications/tools/list_changed', () => options.onToolsChanged());
    client.setNotificationHandler('notifications/message', (n) => {
      const text = typeof n.params.data === 'string' ? n.params.data : JSON.stringify(n.params.data);
      const line = `[${n.params.level}]${n.params.logger ? ` ${n.params.logger}:` : ''} ${text}`;
      if (['error', 'critical', 'alert', 'emergency'].includes(n.params.level)) log.error(line);
      else if (n.params.level === 'warning') log.warn(line);
      else log.info(line);
    });
    client.onerror = (err) => log.warn(`Protocol: ${err.message}`);
    client.onclose = () => {
      this._listening.abort();
      this._completions.closeAll();
      this._onclose?.();
      for (const listener of [...this._closeListeners]) listener();
    };
  }

  /**
   * Runs the handshake over `transport`; the SDK owns the transport from here on. A server known
   * to speak only the 2025 era (`knownLegacy`) gets `initialize` at once, without the probe.
   */
  connect(transport: Transport, kind: 'stdio' | 'http', knownLegacy = false): Promise<void> {
    this._overHttp = kind === 'http';
    this._raw = loadHeavy().keepRawAnswers(transport);
    return this._client.connect(transport, knownLegacy ? { prior: { kind: 'legacy' } } : undefined);
  }

  /** The protocol era the session speaks: 2026-07-28 (`modern`) or earlier (`legacy`). */
  get era(): 'modern' | 'legacy' {
    return this._modern ? 'modern' : 'legacy';
  }

  private get _modern(): boolean {
    return this._client.getProtocolEra() === 'modern';
  }

  /** Called once when the session ends (the server closed or crashed). */
  set onclose(handler: () => void) {
    this._onclose = handler;
  }

  get info(): ServerInfo {
    const version = this._client.getServerVersion();
    return {
      serverName: version?.name,
      serverVersion: version?.version,
      protocolVersion: this._client.getNegotiatedProtocolVersion(),
      instructions: this._client.getInstructions(),
      capabilities: this._client.getServerCapabilities(),
    };
  }

  /** The server declared the "tools" capability. */
  get offersTools(): boolean {
    return !!this._client.getServerCapabilities()?.tools;
  }

  /** The server declared the "resources" capability. */
  get offersResources(): boolean {
    return !!this._client.getServerCapabilities()?.resources;
  }

  /**
   * `tools/list`, every page, walked here rather than by the SDK: bounded in tools and bytes, and
   * each tool checked on its own (toolListing.ts). Over HTTP in the 2026-07-28 era a tool whose
   * `x-mcp-header` declarations break the spec is invalid there, and left out too.
   */
  async listTools(): Promise<Tool[]> {
    const { rawAnswer } = loadHeavy();
    let ttlMs: unknown;
    // The 2025 era: past the SDK's Client, as for tools/call.
    const past = this._raw !== undefined && !this._modern;
    const fetchPage = async (cursor: string | undefined) => {
      const params = cursor === undefined ? undefined : { cursor };
      const page = past ? await this._rawRequest('tools/list', params, { timeoutMs: LIST_TIMEOUT_MS }) : rawAnswer(await this._client.request({ method: 'tools/list', ...(params && { params }) }, ANY_ANSWER));
      if (cursor === undefined) ttlMs = (page as { ttlMs?: unknown } | undefined)?.ttlMs;
      return page;
    };
    const checkHeaders = this._overHttp && this._modern ? headerFault : undefined;
    const tools = await listAllTools(fetchPage, this._limits, this._log, checkHeaders);
    this._listingTtlMs = this._modern && typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs > 0 ? ttlMs : undefined;
    return tools;
  }

  /**
   * How long the last tool listing stays fresh, as a 2026-07-28 server said (`ttlMs`); undefined:
   * it did not say, or said not to cache, or the session listens for changes (they come pushed).
   */
  get listingTtlMs(): number | undefined {
    return this._listenedTo ? undefined : this._listingTtlMs;
  }

  /**
   * The server runs `tools/call` as tasks: 2025-11-25, the `tasks.requests.tools.call` capability;
   * 2026-07-28, the tasks extension (an empty object, as the extension defines it).
   */
  get offersTasks(): boolean {
    if (this._modern) return this._tasksExtension;
    const tasks = this._client.getServerCapabilities()?.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
    return tasks?.requests?.tools?.call !== undefined;
  }

  /** A 2026-07-28 server that declared the tasks extension: it may answer any `tools/call` with a task. */
  private get _tasksExtension(): boolean {
    return this._modern && loadHeavy().declaresTasksExtension(this._client.getServerCapabilities());
  }

  /**
   * `tools/call`, with timeouts reset by progress and a hard maximum. A tool that declares task
   * support, on a server that runs tasks, is called as a task instead (callAsTask).
   */
  callTool(tool: Tool, args: Record<string, unknown>, options: CallOptions, call: CallInFlight): Promise<RawToolResult> {
    const taskSupport = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
    // The 2025 era, no task: sent past the SDK's Client on the same transport (its per-request
    // validation costs 10x our transport, BENCHMARKS.md case 2b), with no async frame of its own.
    const asTask = (taskSupport === 'required' || taskSupport === 'optional') && this.offersTasks ? taskSupport : undefined;
    // A plain call runs against its total limit: a prompt of it says when the limit is near.
    if (!asTask && !this._tasksExtension) call.endsAt = Date.now() + options.maxTotalTimeoutMs;
    if (this._raw && !this._modern && !asTask) return withLinkConsent(() => this._rawCall(tool, args, options, call), tool.name, this._askFor({ kind: 'call', call }), this._log, this._completions, options.signal).then(resultOf);
    return this._callTool(tool, args, options, taskSupport, asTask, call);
  }

  /** `asTask`: the tool's task support when this server runs its calls as tasks. */
  private async _callTool(tool: Tool, args: Record<string, unknown>, options: CallOptions, taskSupport: unknown, asTask: 'required' | 'optional' | undefined, call: CallInFlight): Promise<RawToolResult> {
    // Over HTTP in the 2026-07-28 era the arguments a tool marked with x-mcp-header declares travel as headers too.
    // loadHeavy() only where needed: a require() on every call was ~5% of this path's CPU (profile of BENCHMARKS.md row 2c).
    const scan = this._overHttp && this._modern ? loadHeavy().scanParamHeaders(tool.inputSchema) : undefined;
    const headers = scan && 'headers' in scan ? loadHeavy().paramHeaderValues(scan.headers, args) : NO_HEADERS;
    // The tasks extension: the server, not the tool, decides whether a call becomes a task.
    if (this._tasksExtension) return this._callAsTask(tool, args, isTaskSupport(taskSupport) ? taskSupport : undefined, options, headers, call);
    if (asTask) return this._callAsTask(tool, args, asTask, options, headers, call);
    const params = { name: tool.name, arguments: args };
    const sendOptions = {
      signal: options.signal,
      onprogress: options.onprogress,
      timeout: options.timeoutMs,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: options.maxTotalTimeoutMs,
    };
    // A server may refuse the call until the user opens a link (-32042): asked like any link, then sent again.
    const send = () => this._client.request({ method: 'tools/call', params }, ANY_ANSWER, { ...sendOptions, headers });
    // The SDK checks the total limit only between the rounds of a 2026-07-28 call (MRTR), and no
    // timer runs while the user answers: at the limit a prompt still open is closed, and the call ends on time.
    const limit = setTimeout(() => this._prompts.end(call, 'timed-out'), options.maxTotalTimeoutMs);
    try {
      return resultOf(rawAnswer(await withLinkConsent(send, tool.name, this._askFor({ kind: 'call', call }), this._log, this._completions, options.signal)));
    } finally {
      clearTimeout(limit);
    }
  }

  /** A plain `tools/call` past the SDK: progress on a token of ours, the same timeouts, a JSON-RPC error thrown as the SDK throws it. */
  private _rawCall(tool: Tool, args: Record<string, unknown>, options: CallOptions, call: CallInFlight): Promise<unknown> {
    // No spreads, no async frame of its own: every 2025-era call runs this (BENCHMARKS.md case 2).
    const progress = options.onprogress && this._raw!.watchProgress(options.onprogress);
    const params = progress ? { name: tool.name, arguments: args, _meta: { progressToken: progress.token } } : { name: tool.name, arguments: args };
    const sent = this._rawRequest('tools/call', params, {
      timeoutMs: options.timeoutMs,
      maxTotalTimeoutMs: options.maxTotalTimeoutMs,
      resetTimeoutOnProgress: true,
      signal: options.signal,
      // The server may ask the user mid-call (elicitation/create): reading the form is not the server idling.
      answering: call,
    });
    return progress ? sent.finally(() => progress.stop()) : sent;
  }

  private _rawRequest(method: string, params: Record<string, unknown> | undefined, options: RawRequestOptions): Promise<unknown> {
    return this._raw!.request(method, params, options).then(resultObjectOf);
  }

  /**
   * A call run as a task: the server answers at once with a task, which is polled (`tasks/get`,
   * at the server's interval within bounds, taskSession.ts) until it ends, then its result fetched.
   * Each request has the call's timeout; the task as a whole has none, as a long job needs. A
   * cancelled signal cancels the task on the server. With the 2026-07-28 extension every call
   * comes here and the server may answer at once instead (or ask for input first, MRTR).
   */
  private async _callAsTask(tool: Tool, args: Record<string, unknown>, taskSupport: 'required' | 'optional' | 'forbidden' | undefined, options: CallOptions, headers: Record<string, string>, call: CallInFlight): Promise<RawToolResult> {
    const session = await this._taskSession();
    // The caller's signal stops the call before the task exists; after, it cancels the task (_settle).
    const beforeTask = new AbortController();
    const stop = () => beforeTask.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', stop, { once: true });
    if (options.signal?.aborted) stop();
    let execution: ToolExecution<unknown, CallInFlight | undefined>;
    const v2 = this._tasksExtension;
    // The package's requests bypass the SDK's progress tracking: a token of ours carries the call's progress.
    const progress = options.onprogress && this._raw?.watchProgress(options.onprogress);
    const send = () =>
      session.callTool(tool.name, args as never, {
        ...(progress && { metadata: { progressToken: progress.token } }),
        declaration: { name: tool.name, inputSchema: tool.inputSchema as never, ...(taskSupport && { taskSupport }) },
        resultCodec: ANY_RESULT as never,
        // What the server asks during this call (input_required) is this call's (_answerInput).
        applicationContext: call,
        signal: beforeTask.signal,
        // 2025-11-25: ask for a task; 2026-07-28: the server decides (the extension is declared in every call).
        task: { preference: v2 ? 'allow' : 'prefer' },
        requestTimeoutMs: options.timeoutMs,
        resetTimeoutOnProgress: true,
        ...(Object.keys(headers).length > 0 && { headers }),
      });
    // A request naming a task may come before the task's id reaches us: until then it may be this call's (promptGate.ts).
    call.becomingTask = true;
    try {
      execution = await withLinkConsent(send, tool.name, this._askFor({ kind: 'call', call }), this._log, this._completions, options.signal);
    } catch (err) {
      progress?.stop();
      throw err;
    } finally {
      options.signal?.removeEventListener('abort', stop);
      call.becomingTask = false;
    }
    if (execution.kind === 'task' && execution.handle.taskId.length > MAX_TASK_ID) {
      progress?.stop();
      // Not followed: it would be shown, kept and sent back in every poll. The server is asked to drop it.
      void execution.cancel().catch(() => execution.detach());
      throw new Error(`The server gave its task an id of ${execution.handle.taskId.length} characters (at most ${MAX_TASK_ID} are accepted): the task is not followed, and was asked to stop.`);
    }
    if (execution.kind === 'task') {
      call.taskId = execution.handle.taskId;
      options.onTask?.({ taskId: execution.handle.taskId, reference: execution.serializeReference() });
    }
    try {
      return await this._settle(execution, options);
    } finally {
      progress?.stop();
    }
  }

  /** Picks up a task started earlier (this session or before a reload) and waits for its result. */
  async resumeTask(reference: TaskReference, options: Pick<CallOptions, 'signal' | 'timeoutMs' | 'onTaskStatus'>, call: CallInFlight): Promise<RawToolResult> {
    const session = await this._taskSession();
    const execution = await session.resumeTask(reference as never, { resultCodec: ANY_RESULT as never, requestTimeoutMs: options.timeoutMs, applicationContext: call });
    return this._settle(execution, options);
  }

  /** What the server says of a task now (`tasks/get`), without following it. */
  async taskStatus(reference: TaskReference, timeoutMs: number): Promise<TaskStatus> {
    const session = await this._taskSession();
    const view = await session.task(reference.taskId as never, { requestTimeoutMs: timeoutMs }).snapshot();
    return { taskId: view.taskId, status: view.status, statusMessage: view.statusMessage };
  }

  /**
   * Follows an execution to its end, reporting each new status. A cancelled signal cancels the
   * task on the server (or, where the server cannot cancel, stops following it).
   */
  private async _settle(execution: ToolExecution<unknown, CallInFlight | undefined>, options: Pick<CallOptions, 'signal' | 'onTaskStatus' | 'timeoutMs'>): Promise<RawToolResult> {
    const { followTask, withoutEnvelope } = loadHeavy();
    // A 2025-11-25 task that waits for input has its questions fetched (taskSession.ts, fetchQueued).
    const requests = (await this._tasks!).queued;
    const end = await followTask(execution, options.signal, options.onTaskStatus, { requests, timeoutMs: options.timeoutMs });
    if (end.kind === 'completed') return resultOf(withoutEnvelope(rawAnswer(end.result)));
    throw new TaskEnded(end.message);
  }

  private async _taskSession(): Promise<TaskEnabledSession<CallInFlight | undefined>> {
    const raw = this._raw;
    const extension = this._tasksExtension && raw && {
      raw,
      protocolVersion: this._client.getNegotiatedProtocolVersion() ?? '2026-07-28',
      clientInfo: { name: 'mcp-tool-host', version: this._clientVersion },
      clientCapabilities: structuredClone(this._capabilities),
    };
    this._tasks ??= loadHeavy().openTaskSession<CallInFlight | undefined>({
      endpointId: this._endpointId,
      capability: this._client.getServerCapabilities()?.tasks,
      ...(extension && { extension }),
      request: async (method, params, options) => rawAnswer(await this._client.request({ method, ...(params && { params }) } as never, ANY_ANSWER, options)),
      onClose: (listener) => this._closeListeners.add(listener),
      onInputRequest: (request, context) => this._answerInput(request, context.applicationContext, context.taskId) as never,
      maxInputRounds: MAX_INPUT_ROUNDS,
    });
    return (await this._tasks).session;
  }

  /**
   * In the 2026-07-28 era a server tells of tool list changes only to a client that listens: one
   * `subscriptions/listen` request, held open for the session, asks for them when the server
   * declares `tools.listChanged`. The notifications reach the same handler as in the 2025 era.
   */
  listenForChanges(): void {
    const tools = this._client.getServerCapabilities()?.tools as { listChanged?: boolean } | undefined;
    if (!this._modern || !tools?.listChanged) return;
    const listen = { method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true } } };
    const signal = this._listening.signal;
    this._listenedTo = true;
    const ended = () => void (this._listenedTo = false);
    this._client.request(listen as never, ANY_ANSWER, { signal, timeout: FOR_THE_SESSION_MS, maxTotalTimeout: FOR_THE_SESSION_MS }).finally(ended).then(
      () => this._log.info('The server ended its subscription to tool list changes (subscriptions/listen): Refresh lists the tools again.'),
      (err: unknown) => signal.aborted || this._log.warn(`Listening for tool list changes failed (subscriptions/listen: ${err instanceof Error ? err.message : String(err)}): Refresh lists the tools again.`),
    );
  }

  /**
   * What a task, or a 2026-07-28 call of the tasks session, asks of the user (MRTR): a form or a
   * link goes to the same prompt as `elicitation/create`; roots are the workspace folders; the
   * host does no sampling. Without a way to ask, a form is declined.
   */
  private async _answerInput(request: { kind: string; params?: unknown }, call: CallInFlight | undefined, taskId: string | undefined): Promise<unknown> {
    if (request.kind === 'elicitation') {
      const elicit = this._elicit;
      // The call's own, counted against its share; without a call to name (never expected), judged as a request naming its task.
      const named = taskId === undefined ? {} : { _meta: { 'io.modelcontextprotocol/related-task': { taskId } } };
      // The gate first, as for elicitation/create: what it declines is not read.
      const admitted = elicit && this._prompts.admit(call ? { kind: 'call', call } : { kind: 'request', params: named });
      return admitted ? answerElicitation(request.params, (asked) => elicit(asked, admitted), this._log, this._completions) : { action: 'decline' };
    }
    if (request.kind === 'roots' && this._roots) return { roots: this._roots() };
    throw new Error(`The server asked for ${request.kind === 'roots' ? 'the roots' : 'sampling'}, which the host does not offer it.`);
  }

  /**
   * How a call's own prompts reach the user (a -32042 error's links, input_required): each one
   * through the gate, so it counts against the call's share. Undefined: the host does not ask.
   */
  private _askFor(source: PromptSource): AskUser | undefined {
    const elicit = this._elicit;
    if (!elicit) return undefined;
    return (asked) => {
      const admitted = this._prompts.admit(source);
      return admitted ? elicit(asked, admitted) : Promise.resolve({ action: 'decline' });
    };
  }

  /** The server's skills (the skills extension): listed and read, each file verified (skills.ts). */
  get skills(): SkillsAccess {
    return loadHeavy().skillsOf(this._client);
  }

  /** `resources/read`, for opening a resource link from a result. */
  async readResource(uri: string): Promise<ResourceContents> {
    const result = await this._client.readResource({ uri });
    return result.contents as ResourceContents;
  }

  /** Tells the server that the workspace folders changed (`roots/list_changed`). */
  async sendRootsListChanged(): Promise<void> {
    await this._client.sendRootsListChanged();
  }

  /** Closes the session and its transport; never throws. */
  async close(): Promise<void> {
    this._listening.abort();
    this._completions.closeAll();
    await this._client.close().catch(() => undefined);
  }
}

const isTaskSupport = (v: unknown): v is 'required' | 'optional' | 'forbidden' => v === 'required' || v === 'optional' || v === 'forbidden';

/** A `tools/call` answer we can render: any object (renderResult.ts copes with odd content); anything else fails the call. */
const rawAnswer = (answer: unknown) => loadHeavy().rawAnswer(answer);

/** No headers of a tool's own (shared, so frozen). */
const NO_HEADERS: Record<string, string> = Object.freeze({});

/** A raw answer's result object, or the error the SDK would throw for it. */
function resultObjectOf(answer: RawResponse): unknown {
  if (answer.kind === 'error') throw loadHeavy().ProtocolError.fromError(answer.error.code, answer.error.message, answer.error.data);
  if (typeof answer.result !== 'object' || answer.result === null || Array.isArray(answer.result)) throw loadHeavy().ProtocolError.fromError(-32603, `The server answered with ${answer.result === null ? 'null' : Array.isArray(answer.result) ? 'a list' : `a ${typeof answer.result}`} where a result object belongs`);
  return answer.result;
}

function resultOf(answer: unknown): RawToolResult {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw new Error('tools/call: the answer is not an object');
  return answer as RawToolResult;
}

/** Why a tool's `x-mcp-header` declarations make it invalid, if they do. */
function headerFault(tool: Tool): string | undefined {
  const scan = loadHeavy().scanParamHeaders(tool.inputSchema);
  return 'fault' in scan ? scan.fault : undefined;
}
