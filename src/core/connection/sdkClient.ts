import type { Client, Tool, Transport } from '@modelcontextprotocol/client';
import { loadHeavy } from '../lazy/load';
import type { RawToolResult } from '../render/renderResult';
import type { ServerLog } from '../serverLog';
import type { SchemaValidator } from '../tools/schemaValidator';

/** How long a server may take to answer the 2026-07-28 `server/discover` probe before it counts as a 2025-era server. */
const PROBE_TIMEOUT_MS = 2_000;

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
}

/**
 * The SDK's `Client` behind our own type: the only file that holds a `Client` (STYLE.md:
 * isolate the SDK). It owns the client's single-slot `onclose`/`onerror` callbacks; the
 * connection composes it with a transport (transportChoice.ts) and the tool catalog.
 */
export class SdkClient {
  private readonly _client: Client;

  constructor(options: SdkClientOptions) {
    const { roots, log } = options;
    this._client = new (loadHeavy().Client)(
      { name: 'mcp-tool-host', version: options.clientVersion },
      {
        capabilities: roots ? { roots: { listChanged: true } } : {},
        jsonSchemaValidator: options.validator,
        // Speak 2026-07-28 to servers that do; others get the classic initialize after a short probe.
        versionNegotiation: { mode: 'auto', probe: { timeoutMs: PROBE_TIMEOUT_MS } },
      },
    );
    const client = this._client;
    if (roots) client.setRequestHandler('roots/list', () => ({ roots: roots() }));
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

  /** Runs the handshake over `transport`; the SDK owns the transport from here on. */
  connect(transport: Transport): Promise<void> {
    return this._client.connect(transport);
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

  /** `tools/list`, every page (the SDK walks them, up to its page cap). */
  async listTools(): Promise<Tool[]> {
    return (await this._client.listTools()).tools;
  }

  /** `tools/call`, with timeouts reset by progress and a hard maximum. */
  async callTool(tool: Tool, args: Record<string, unknown>, options: CallOptions): Promise<RawToolResult> {
    return (await this._client.callTool({ name: tool.name, arguments: args }, {
      signal: options.signal,
      onprogress: options.onprogress,
      timeout: options.timeoutMs,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: options.maxTotalTimeoutMs,
      // We check structuredContent ourselves (and flag a mismatch instead of hiding the result):
      // a definition without outputSchema keeps the SDK from rejecting the call.
      toolDefinition: { ...tool, outputSchema: undefined },
    })) as RawToolResult;
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
