import type { Client, Tool, Transport } from '@modelcontextprotocol/client';
import { loadConnection } from './load';
import { loadElicitation } from '../elicitation/load';
import { loadSdk } from '../packages/load';
import { sanitizeLine } from '../render/sanitize';
import type { RawToolResult } from '../render/renderResult';
import type { ServerLog } from '../serverLog';
import type { SchemaValidator } from '../tools/schemaValidator';
import type { ListingLimits } from './listingLimits';
import type { SkillsAccess } from './skills';
import type { ElicitationCompletions } from '../elicitation/urlElicitation';
import { answerElicitation, type AskForCalls } from './elicitationRequests';
import type { CallInFlight, PromptGate } from './promptGate';
import { CallPrompts } from './callPrompts';
import { SAMPLING_DECLINED, type SampleForCalls } from './samplingRequests';
import type { CallOptions, EraClient, EraSession, PlainRequestOptions, TaskReference, TaskStatus } from './eraClient';
import { Era2025Client } from './era2025Client';
import { Era2026Client } from './era2026Client';
import { ProbeWatch, stdioProbeTiming } from './eraProbe';

/** What the server said about itself in `initialize`. */
export interface ServerInfo {
  readonly serverName?: string;
  readonly serverVersion?: string;
  readonly protocolVersion?: string;
  readonly instructions?: string;
  /** The capabilities the server declared (tools, resources, logging...), as sent. */
  readonly capabilities?: Readonly<Record<string, unknown>>;
  /** An HTTP server's `Mcp-Session-Id` (its transport's), as the server sent it: unchecked. */
  readonly sessionId?: string;
}

/** What a server may tell of its resources and prompts (`uri`: the resource that was updated). */
export type OfferNotice = { readonly kind: 'resources-changed' | 'prompts-changed' } | { readonly kind: 'resource-updated'; readonly uri: string };

/** How a handshake goes: how long it may take, and the era the launch spoke at its last start (eraMemory.ts). */
export interface HandshakeOptions {
  readonly handshakeMs: number;
  readonly remembered?: 'modern' | 'legacy';
  /**
   * This start follows one where the server exited on the probe (transportChoice.ts): it speaks
   * the 2025 era, and that era is remembered as a refusal of the probe would be.
   */
  readonly afterProbeExit?: boolean;
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
  /** A notification about the server's resources or prompts arrived (a list changed, a subscribed resource was updated). */
  readonly onOfferNotice?: (notice: OfferNotice) => void;
  /** How many tools, and how many bytes of them, one listing may hold (defaults in toolListing.ts). */
  readonly listingLimits?: ListingLimits;
  /** Names this server for the Tasks package: stable across sessions, so a task started before a reload can be resumed. */
  readonly endpointId?: string;
  /** Asks the user a server's form or link (elicitation, both modes); without it the capability is not declared. */
  readonly elicit?: AskForCalls;
  /** false: elicitation is declared for forms only (the host cannot open a server's link). */
  readonly elicitLinks?: boolean;
  /** Has a model answer the server's sampling request (only where the host relays it); without it the capability is not declared. */
  readonly sample?: SampleForCalls;
  /** Which of the server's prompts reach `elicit` and `sample`: only its calls', only so many (promptGate.ts). */
  readonly prompts: PromptGate;
}

/**
 * The SDK's `Client` behind our own type: the only file that holds a `Client`, so an SDK upgrade
 * that changes it changes one file. It owns the client's single-slot `onclose`/`onerror`
 * callbacks and the server's requests and notifications; what differs between the protocol eras
 * (listing, calls, tasks, listening) is one object per era (eraClient.ts), chosen at the handshake.
 * The connection composes it with a transport (transportChoice.ts) and the tool catalog.
 */
export class SdkClient {
  private readonly _client: Client;
  private readonly _options: SdkClientOptions;
  private readonly _prompts: PromptGate;
  private readonly _calls: CallPrompts;
  private readonly _capabilities: Record<string, unknown>;
  private _onclose: (() => void) | undefined;
  private readonly _closeListeners = new Set<() => void>();
  /** The links the user opened for this server, until it says each page is done. */
  private readonly _completions: ElicitationCompletions = new (loadElicitation().ElicitationCompletions)();
  /** What the session's era does its own way; set once the handshake says which era. */
  private _eraClient: EraClient | undefined;
  /** The 2026-07-28 probe of the handshake; undefined: none ran (the launch was remembered as 2025-era). */
  private _probe: ProbeWatch | undefined;
  private _afterProbeExit = false;

  constructor(options: SdkClientOptions) {
    const { roots, log } = options;
    this._options = options;
    this._prompts = options.prompts;
    this._calls = new CallPrompts(options.elicit, options.prompts, roots, log, this._completions, options.sample);
    this._capabilities = { ...(roots && { roots: { listChanged: true } }), ...(options.elicit && { elicitation: options.elicitLinks === false ? { form: {} } : { form: {}, url: {} } }), ...(options.sample && { sampling: {} }) };
    this._client = new (loadSdk().Client)(
      { name: 'mcp-tool-host', version: options.clientVersion },
      {
        capabilities: structuredClone(this._capabilities),
        jsonSchemaValidator: options.validator,
        // Speak 2026-07-28 to servers that do; others get the classic initialize after the probe (timed in connect).
        versionNegotiation: { mode: 'auto' },
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
    const sample = options.sample;
    if (sample) {
      // Through the same gate as forms: during the server's own calls, counted against the same shares.
      client.setRequestHandler('sampling/createMessage', (request, ctx) => {
        const admitted = this._prompts.admit({ kind: 'request', params: request.params });
        if (!admitted) throw new Error(SAMPLING_DECLINED);
        return sample(request.params, admitted, ctx.mcpReq.signal);
      });
    }
    client.setNotificationHandler('notifications/tools/list_changed', () => options.onToolsChanged());
    const notice = options.onOfferNotice;
    if (notice) {
      client.setNotificationHandler('notifications/resources/list_changed', () => notice({ kind: 'resources-changed' }));
      client.setNotificationHandler('notifications/prompts/list_changed', () => notice({ kind: 'prompts-changed' }));
      client.setNotificationHandler('notifications/resources/updated', (n) => {
        if (typeof n.params.uri === 'string') notice({ kind: 'resource-updated', uri: n.params.uri });
      });
    }
    client.setNotificationHandler('notifications/message', (n) => {
      const text = typeof n.params.data === 'string' ? n.params.data : JSON.stringify(n.params.data);
      const line = `[${n.params.level}]${n.params.logger ? ` ${n.params.logger}:` : ''} ${text}`;
      if (['error', 'critical', 'alert', 'emergency'].includes(n.params.level)) log.error(line);
      else if (n.params.level === 'warning') log.warn(line);
      else log.info(line);
    });
    client.onerror = (err) => log.warn(`Protocol: ${err.message}`);
    client.onclose = () => {
      this._eraClient?.close();
      this._completions.closeAll();
      this._onclose?.();
      for (const listener of [...this._closeListeners]) listener();
    };
  }

  /**
   * Runs the handshake over `transport`; the SDK owns the transport from here on. A server
   * remembered as 2025-era gets `initialize` at once, without the probe. On stdio the probe is
   * timed from the server's first output (ProbeWatch); over HTTP it has the handshake's time, as
   * silence there is an outage, not an era (the SDK then fails the handshake).
   */
  async connect(transport: Transport, kind: 'stdio' | 'http', handshake: HandshakeOptions): Promise<void> {
    const { handshakeMs, remembered } = handshake;
    const timing = kind === 'stdio' ? stdioProbeTiming(handshakeMs, remembered === 'modern') : {};
    const probe = new ProbeWatch(timing);
    if (remembered !== 'legacy') this._probe = probe;
    // Any bytes on stdout or stderr (a banner that is not JSON too) say the server is up.
    const firstOutput = kind === 'stdio' ? (transport as { firstOutput?: unknown }).firstOutput : undefined;
    if (firstOutput instanceof Promise) void firstOutput.then(() => probe.alive());
    this._afterProbeExit = handshake.afterProbeExit === true;
    const raw = loadConnection().keepRawAnswers(transport, probe);
    // The SDK's own limit is a backstop behind the watch's on stdio.
    this._client.setVersionNegotiation({ mode: 'auto', probe: { timeoutMs: timing.limitMs === undefined ? handshakeMs : 2 * timing.limitMs } });
    await this._client.connect(transport, remembered === 'legacy' ? { prior: { kind: 'legacy' } } : undefined);
    const session: EraSession = {
      client: this._client,
      raw,
      log: this._options.log,
      limits: this._options.listingLimits ?? {},
      overHttp: kind === 'http',
      prompts: this._calls,
      completions: this._completions,
      endpointId: this._options.endpointId ?? 'mcp-tool-host',
      clientInfo: { name: 'mcp-tool-host', version: this._options.clientVersion },
      capabilities: () => structuredClone(this._capabilities),
      onClose: (listener) => this._closeListeners.add(listener),
    };
    this._eraClient = this._client.getProtocolEra() === 'modern' ? new Era2026Client(session) : new Era2025Client(session);
  }

  /** The era's own client; only after the handshake. */
  private get _era(): EraClient {
    if (!this._eraClient) throw new Error('The session is not connected');
    return this._eraClient;
  }

  /** The protocol era the session speaks: 2026-07-28 (`modern`) or earlier (`legacy`). */
  get era(): 'modern' | 'legacy' {
    return this._era.era;
  }

  /** The era was a guess: the probe went unanswered in time, so this start speaks the 2025 era without knowing. */
  get eraGuessed(): boolean {
    return this._probe?.timedOut ?? false;
  }

  /**
   * The era to remember for the next start: the one the server's answer to the probe chose, or what
   * its late answer said; undefined for a guess without an answer, and when no probe ran (the
   * remembered era stands until it expires, so a server that gained 2026-07-28 is asked again).
   */
  get eraToRemember(): 'modern' | 'legacy' | undefined {
    if (this._afterProbeExit) return 'legacy';
    const probe = this._probe;
    if (!probe) return undefined;
    return probe.timedOut ? probe.lateEra : this.era;
  }

  /** The handshake sent the 2026-07-28 probe and the server neither answered it nor was given up on. */
  get probeUnanswered(): boolean {
    return this._probe?.unanswered ?? false;
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
      ...sessionIdOf(this._client.transport),
    };
  }

  /** The server declared the "tools" capability. */
  get offersTools(): boolean {
    return !!this._client.getServerCapabilities()?.tools;
  }

  /** `tools/list`, every page, bounded in tools and bytes, each tool checked on its own (toolListing.ts). */
  listTools(): Promise<Tool[]> {
    return this._era.listTools();
  }

  /** How long the last tool listing stays fresh, as a 2026-07-28 server said (`ttlMs`); undefined: not said, or changes come pushed. */
  get listingTtlMs(): number | undefined {
    return this._era.listingTtlMs;
  }

  /** The server runs `tools/call` as tasks (2025-11-25: its capability; 2026-07-28: the tasks extension). */
  get offersTasks(): boolean {
    return this._era.offersTasks;
  }

  /** `tools/call`, with timeouts reset by progress and a hard maximum; as a task where the era and the server say so. */
  callTool(tool: Tool, args: Record<string, unknown>, options: CallOptions, call: CallInFlight): Promise<RawToolResult> {
    return this._era.callTool(tool, args, options, call);
  }

  /** Picks up a task started earlier (this session or before a reload) and waits for its result. */
  resumeTask(reference: TaskReference, options: Pick<CallOptions, 'signal' | 'timeoutMs' | 'onTaskStatus'>, call: CallInFlight): Promise<RawToolResult> {
    return this._era.resumeTask(reference, options, call);
  }

  /** What the server says of a task now (`tasks/get`), without following it. */
  taskStatus(reference: TaskReference, timeoutMs: number): Promise<TaskStatus> {
    return this._era.taskStatus(reference, timeoutMs);
  }

  /** Asks the server to push tool list changes, where its era needs asking. */
  listenForChanges(): void {
    this._era.listenForChanges();
  }

  /** The resources whose updates the server should send (eraClient.ts). */
  watchResources(uris: readonly string[]): Promise<void> {
    return this._era.watchResources(uris);
  }

  /** The server's skills (the skills extension): listed and read, each file verified (skills.ts). */
  get skills(): SkillsAccess {
    return loadConnection().skillsOf(this._client);
  }

  /** Any other request of the session (resources, prompts, completion, logging), framed as its era frames requests. */
  request(method: string, params: Record<string, unknown> | undefined, options: PlainRequestOptions): Promise<Record<string, unknown>> {
    return this._era.request(method, params, options);
  }

  /** The server's log level, as its era sets it (false: the server does not declare `logging`). */
  setLogLevel(level: string): Promise<boolean> {
    return this._era.setLogLevel(level);
  }

  /** Tells the server that the workspace folders changed (`roots/list_changed`). */
  async sendRootsListChanged(): Promise<void> {
    await this._client.sendRootsListChanged();
  }

  /** Closes the session and its transport; never throws. */
  async close(): Promise<void> {
    this._eraClient?.close();
    this._completions.closeAll();
    await this._client.close().catch(() => undefined);
  }
}

/** The session id a Streamable HTTP transport holds (stdio has none). */
function sessionIdOf(transport: unknown): { sessionId?: string } {
  const id = (transport as { sessionId?: unknown } | undefined)?.sessionId;
  return typeof id === 'string' ? { sessionId: id } : {};
}
