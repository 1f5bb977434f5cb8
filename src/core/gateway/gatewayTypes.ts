import type { CallPipeline } from '../calls/callPipeline';
import type { AuditLog } from '../calls/ports';
import type { ServerPool } from '../connection/serverPool';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerLog } from '../serverLog';
import type { BackendRelay } from './backendRelay';
import type { Disposable } from '../events';

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
  /** Trust on first use: a tool that changed since the user accepted it is withheld (pinCheck.ts). None: nothing is withheld. */
  readonly pins?: GatewayPins;
  /** Where resource reads and prompts are audited (calls are, by the pipeline's own log). */
  readonly audit?: AuditLog;
  /** The most bytes one resource read may bring (undefined: the host's default). */
  readonly maxReadBytes?: () => number | undefined;
  /** Passes a server's prompts and log messages during a gateway call to the client that made it (backendRelay.ts). */
  readonly relay?: BackendRelay;
  /** The tokens a tool result may put before a client's model unless its server's entry says otherwise; undefined (or none): results pass whole (resultBudget.ts). */
  readonly resultTokens?: () => number | undefined;
  /** How long a 2026-07-28 client's approval round stays answerable, in seconds (default: the time a person has for a form). */
  readonly approvalSeconds?: number;
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

/**
 * The gateway's view of the user's pinned tool definitions (trust on first use). The CLI keeps
 * them in a file of its state folder (`storedPins` over a DefinitionPins); VS Code hands over
 * its DefinitionReview (`changedParts`, `onDidAccept`).
 */
export interface GatewayPins {
  /**
   * What differs in `tool`, as its server sends it now, from the definition the user accepted
   * ("description", "input schema", ...), or undefined when nothing does. A tool seen for the first
   * time is pinned as it is (undefined). A tool with a change is withheld: listed as changed, never called.
   */
  changeOf(server: string, tool: Tool): readonly string[] | undefined;
  /** How the user accepts the change, said to the model in the tool error: "accept with `...`". */
  acceptHint(server: string, tool: string): string;
  /**
   * Hears when the user accepts a change in this process: the tool list is the same, but what a
   * client is shown of it is not, so the gateway tells its clients to list again.
   */
  onDidAccept?(listener: () => void): Disposable;
}
