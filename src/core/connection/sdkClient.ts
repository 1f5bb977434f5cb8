import type { Client, StandardSchemaV1, Tool, Transport } from '@modelcontextprotocol/client';
import { loadHeavy } from '../lazy/load';
import type { RawToolResult } from '../render/renderResult';
import type { ServerLog } from '../serverLog';
import type { SchemaValidator } from '../tools/schemaValidator';
import { listAllTools, type ListingLimits } from './toolListing';
import type { ElicitationAnswer, FormField } from '../elicitation/formElicitation';

/** How long a server may take to answer the 2026-07-28 `server/discover` probe before it counts as a 2025-era server. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * A result schema that accepts any answer: the SDK's strict parse fails a whole list for one bad
 * tool, a whole call for one unknown content block (issue 13). We check what we use ourselves
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
}

/** A resource's contents as `resources/read` returns them. */
export type ResourceContents = { uri: string; mimeType?: string; text?: string; blob?: string }[];

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
  /** Asks the user a server's form (elicitation, form mode); without it the capability is not declared. */
  readonly elicit?: (message: string, fields: readonly FormField[]) => Promise<ElicitationAnswer>;
}

/**
 * The SDK's `Client` behind our own type: the only file that holds a `Client` (STYLE.md:
 * isolate the SDK). It owns the client's single-slot `onclose`/`onerror` callbacks; the
 * connection composes it with a transport (transportChoice.ts) and the tool catalog.
 */
export class SdkClient {
  private readonly _client: Client;
  private readonly _log: ServerLog;
  private readonly _limits: ListingLimits;
  private _overHttp = false;

  constructor(options: SdkClientOptions) {
    const { roots, log } = options;
    this._log = log;
    this._limits = options.listingLimits ?? {};
    this._client = new (loadHeavy().Client)(
      { name: 'mcp-tool-host', version: options.clientVersion },
      {
        capabilities: { ...(roots && { roots: { listChanged: true } }), ...(options.elicit && { elicitation: { form: {} } }) },
        jsonSchemaValidator: options.validator,
        // Speak 2026-07-28 to servers that do; others get the classic initialize after a short probe.
        versionNegotiation: { mode: 'auto', probe: { timeoutMs: PROBE_TIMEOUT_MS } },
      },
    );
    const client = this._client;
    if (roots) client.setRequestHandler('roots/list', () => ({ roots: roots() }));
    const elicit = options.elicit;
    if (elicit) client.setRequestHandler('elicitation/create', (request) => answerForm(request.params, elicit, log));
    client.setNotificationHandler('notifications/tools/list_changed', () => options.onToolsChanged());
    client.setNotificationHandler('notifications/message', (n) => {
      const text = typeof n.params.data === 'string' ? n.params.data : JSON.stringify(n.params.data);
      const line = `[${n.params.level}]${n.params.logger ? ` ${n.params.logger}:` : ''} ${text}`;
      if (['error', 'critical', 'alert', 'emergency'].includes(n.params.level)) log.error(line);
      else if (n.params.level === 'warning') log.warn(line);
      else log.info(line);
    });
    client.onerror = (err) => log.warn(`Protocol: ${err.message}`);
  }

  /**
   * Runs the handshake over `transport`; the SDK owns the transport from here on. A server known
   * to speak only the 2025 era (`knownLegacy`) gets `initialize` at once, without the probe.
   */
  connect(transport: Transport, kind: 'stdio' | 'http', knownLegacy = false): Promise<void> {
    this._overHttp = kind === 'http';
    loadHeavy().keepRawAnswers(transport);
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
    this._client.onclose = handler;
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
    const fetchPage = async (cursor: string | undefined) => rawAnswer(await this._client.request({ method: 'tools/list', ...(cursor === undefined ? {} : { params: { cursor } }) }, ANY_ANSWER));
    const checkHeaders = this._overHttp && this._modern ? headerFault : undefined;
    return listAllTools(fetchPage, this._limits, this._log, checkHeaders);
  }

  /** `tools/call`, with timeouts reset by progress and a hard maximum. */
  async callTool(tool: Tool, args: Record<string, unknown>, options: CallOptions): Promise<RawToolResult> {
    const params = { name: tool.name, arguments: args };
    const sendOptions = {
      signal: options.signal,
      onprogress: options.onprogress,
      timeout: options.timeoutMs,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: options.maxTotalTimeoutMs,
    };
    // Over HTTP in the 2026-07-28 era the arguments a tool marked with x-mcp-header travel as headers too.
    const { paramHeaderValues, rawAnswer, scanParamHeaders } = loadHeavy();
    const scan = this._overHttp && this._modern ? scanParamHeaders(tool.inputSchema) : undefined;
    const headers = scan && 'headers' in scan ? paramHeaderValues(scan.headers, args) : {};
    return resultOf(rawAnswer(await this._client.request({ method: 'tools/call', params }, ANY_ANSWER, { ...sendOptions, headers })));
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
    await this._client.close().catch(() => undefined);
  }
}

/** A `tools/call` answer we can render: any object (renderResult.ts copes with odd content); anything else fails the call. */
function resultOf(answer: unknown): RawToolResult {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw new Error('tools/call: the answer is not an object');
  return answer as RawToolResult;
}

/** Why a tool's `x-mcp-header` declarations make it invalid, if they do. */
function headerFault(tool: Tool): string | undefined {
  const scan = loadHeavy().scanParamHeaders(tool.inputSchema);
  return 'fault' in scan ? scan.fault : undefined;
}

/**
 * An `elicitation/create` request: a form is shown when its schema is one the spec allows (else
 * declined, saying why in the server's log); URL mode is not offered, so a URL request is declined.
 */
async function answerForm(params: unknown, elicit: NonNullable<SdkClientOptions['elicit']>, log: ServerLog): Promise<ElicitationAnswer> {
  const request = (typeof params === 'object' && params !== null ? params : {}) as { mode?: unknown; message?: unknown; requestedSchema?: unknown };
  if (request.mode !== undefined && request.mode !== 'form') {
    log.warn(`The server asked for input in "${String(request.mode)}" mode, which the host does not offer: declined.`);
    return { action: 'decline' };
  }
  const fields = loadHeavy().formFields(request.requestedSchema);
  if (typeof fields === 'string') {
    log.warn(`The server asked for input with a form the host cannot show (${fields}): declined.`);
    return { action: 'decline' };
  }
  return elicit(typeof request.message === 'string' ? request.message : '', fields);
}
