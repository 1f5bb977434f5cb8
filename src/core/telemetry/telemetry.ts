import type { ServerConnection } from '../connection/serverConnection';

// What the host tells a tracing backend, as a port: calls, listings and server lifecycles. The
// OpenTelemetry side (otelExport.ts) is loaded only when telemetry is on; off, nothing here costs
// more than a call to a function that does nothing.

/** Which server a record is about, and how it is reached. */
export interface ServerFacts {
  /** The name in the configuration (not the name the server gives itself). */
  readonly server: string;
  readonly transport: 'stdio' | 'http';
  /** For an HTTP server: its URL (only its host and port are exported). */
  readonly url?: string;
  readonly protocolVersion?: string;
  /** An HTTP server's `Mcp-Session-Id` (exported only for a server whose content the user opted in to export). */
  readonly sessionId?: string;
}

/** One tool call, as the pipeline starts it (`connection`: the server's, when it is configured). */
export interface CallStart {
  readonly server: string;
  readonly connection: ServerConnection | undefined;
  readonly tool: string;
  readonly origin: string;
  /** A W3C `traceparent` the caller sent (a gateway's client): the call's span continues that trace. Checked before use: it comes from outside. */
  readonly parent?: string;
}

/** How the call ended, as the pipeline has it; the telemetry reads from it what it may export (callRecord.ts). */
export interface CallEnd {
  /** The call's outcome: its kind, and a JSON-RPC error's code, a failure's message, a result's text where it has them. */
  readonly outcome: { readonly kind: string; readonly code?: number; readonly message?: string; readonly result?: { readonly text: string } };
  readonly decision: string;
  /** The arguments sent (after any edit): exported only for a server in `exportsContentOf`, secrets masked. */
  readonly sentArgs: Record<string, unknown>;
  readonly secrets: readonly string[] | undefined;
}

export interface CallSpan {
  /** The W3C `traceparent` of this call's span, for the request's `_meta` (the server's spans join the trace). */
  readonly traceparent: string | undefined;
  end(end: CallEnd): void;
}

/** A request other than a tool call (resources, prompts, completions...), as the connection sends it. */
export interface RequestStart {
  readonly method: string;
  /** `prompts/get`, or a completion of a prompt's argument: the prompt's name (it names the span, as a tool's does). */
  readonly prompt?: string;
  /** `resources/read` and the like: exported only for a server whose content the user opted in to export (a URI can hold a path or a key). */
  readonly uri?: string;
}

export interface RequestSpan {
  /** The W3C `traceparent` of this request's span, for its `_meta`. */
  readonly traceparent: string | undefined;
  /** `error`: why the request failed (a JSON-RPC error carries its `code`). */
  end(error?: unknown): void;
}

/** start: launch to initialized (with `error`: the launch failed); crash and stop end a session that ran for `sessionMs`. */
export type LifecycleEvent = 'start' | 'crash' | 'stop';

export interface Telemetry {
  /** Never throws, nor does its span's `end`: telemetry never fails a call. */
  startCall(start: CallStart): CallSpan;
  /** Never throws, nor does its span's `end`. */
  startRequest(facts: ServerFacts, request: RequestStart): RequestSpan;
  /** One `tools/list` of a server (every page): how long, how many tools, or why it failed. */
  listing(facts: ServerFacts, record: { readonly durationMs: number; readonly tools?: number; readonly error?: string }): void;
  /** A server started (`durationMs`: from launch to running, or to a failed start with `error`), crashed (`error`) or stopped; `sessionMs`: how long it ran. */
  lifecycle(facts: ServerFacts, event: LifecycleEvent, record: { readonly durationMs?: number; readonly sessionMs?: number; readonly error?: string }): void;
  /** Sends what is queued, within a bound, and stops. */
  shutdown(): Promise<void>;
}

/** The span of a call when telemetry is off. */
export const NO_SPAN: CallSpan & RequestSpan = { traceparent: undefined, end: () => undefined };

/** Telemetry that is off: records nothing, sends nothing, adds nothing to a request. */
export const NO_TELEMETRY: Telemetry = {
  startCall: () => NO_SPAN,
  startRequest: () => NO_SPAN,
  listing: () => undefined,
  lifecycle: () => undefined,
  shutdown: async () => undefined,
};

