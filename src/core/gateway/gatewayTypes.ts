import type { CallPipeline } from '../calls/callPipeline';
import type { AuditLog } from '../calls/ports';
import type { ServerPool } from '../connection/serverPool';
import type { DefinitionPins } from '../policy/definitionPins';
import type { ServerLog } from '../serverLog';
import type { BackendRelay } from './backendRelay';

/** What a gateway (`mcp-tool-host serve`, or the extension's own) is built from. */
export interface GatewayDeps {
  readonly pool: ServerPool;
  /** The surface's own pipeline (its Approver decides asks where `asks` is 'host'). */
  readonly pipeline: CallPipeline;
  /**
   * How a call that asks is decided: 'host' = the pipeline's own Approver (VS Code's prompt, never the
   * client); 'client' = elicitation to the connected client where it declared it, else denied with the reason.
   */
  readonly asks: 'host' | 'client';
  /** Which servers the gateway may offer (untrusted workspace servers: false). */
  readonly offers?: (server: string) => boolean;
  /** 'all' tools, or 'search' = only search_tools + call_tool. */
  readonly toolMode?: 'all' | 'search';
  readonly log?: ServerLog;
  readonly clientVersion: string;
  /**
   * The accepted tool definitions (trust on first use): a tool whose definition changed since is
   * withheld until the user accepts it, and `acceptHint` says how ("run mcp-tool-host accept ...").
   */
  readonly pins?: { readonly store: DefinitionPins; readonly acceptHint: (server: string, tool: string) => string };
  /** Where resource reads and prompts are audited (calls are, by the pipeline's own log). */
  readonly audit?: AuditLog;
  /** The most bytes one resource read may bring (undefined: the host's default). */
  readonly maxReadBytes?: () => number | undefined;
  /** Passes a server's prompts and log messages during a gateway call to the client that made it (backendRelay.ts). */
  readonly relay?: BackendRelay;
}

export interface RunningHttpGateway {
  /** http://127.0.0.1:PORT/mcp */
  readonly url: string;
  /** Random, 32 bytes base64url; sent as `Authorization: Bearer <token>`, or as the first path segment. */
  readonly token: string;
  /** Clients connected now (for memory measurement and the status). */
  readonly clients: number;
  close(): Promise<void>;
}

export interface RunningStdioGateway {
  /** Settles when the client closes its end (stdin) or close() ran. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}
