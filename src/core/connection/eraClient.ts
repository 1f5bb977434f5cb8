import type { Client, Tool } from '@modelcontextprotocol/client';
import { loadSdk } from '../packages/load';
import type { RawToolResult } from '../render/renderResult';
import type { ServerLog } from '../serverLog';
import type { ElicitationCompletions } from '../elicitation/urlElicitation';
import type { CallPrompts } from './callPrompts';
import type { CallInFlight } from './promptGate';
import type { RawRequestOptions, RawRequests, RawResponse, RequestParams } from './rawAnswers';
import type { ListingLimits } from './listingLimits';
import type { CallSignal } from '../callSignal';

/** How one `tools/call` may be cancelled, reports progress, and how long it may take (the pipeline sets these). */
export interface CallOptions {
  readonly signal?: CallSignal;
  readonly onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  readonly timeoutMs: number;
  readonly maxTotalTimeoutMs: number;
  /** The server runs this call as a task (2025-11-25 tasks): what identifies it, and how to cancel it. */
  readonly onTask?: (task: StartedTask) => void;
  /** A running task's status as the server reports it (each poll that tells something new). */
  readonly onTaskStatus?: (status: TaskStatus) => void;
  /** A 2026-07-28 server's input_required goes back to the caller instead of being answered here (RelayedInput). */
  readonly input?: RelayedInput;
  /** Keys for the request's `_meta` (a W3C `traceparent`, so the server's spans join the call's trace). */
  readonly meta?: Readonly<Record<string, string>>;
}

/**
 * A request whose 2026-07-28 `input_required` rounds the caller's own client answers (a gateway's
 * 2026-07-28 client): a round that asks comes back as the answer, unanswered (InputRound), and the
 * caller sends the request again with what its client answered. Rounds that carry only
 * `requestState` are still taken here. A task of a server's tasks extension is followed as always.
 */
export interface RelayedInput {
  /** What the caller's client answered the last round with, and the server's `requestState` as it sent it; none: nothing to send back. */
  readonly retry?: { readonly inputResponses?: Record<string, unknown>; readonly requestState?: string };
  /** The input kinds the caller's client declared (elicitation, sampling, roots): the server is told these, not the host's own. */
  readonly capabilities: Record<string, unknown>;
}

/** A 2026-07-28 round that asks, as the server sent it (RelayedInput). */
export interface InputRound {
  readonly inputRequests: Record<string, unknown>;
  readonly requestState?: unknown;
}

/** An answer of a relayed request that is a round to pass on, or undefined. */
export function inputRoundOf(answer: object): InputRound | undefined {
  const a = answer as { resultType?: unknown; inputRequests?: unknown; requestState?: unknown };
  if (a.resultType !== 'input_required' || typeof a.inputRequests !== 'object' || a.inputRequests === null || Array.isArray(a.inputRequests)) return undefined;
  return { inputRequests: a.inputRequests as Record<string, unknown>, requestState: a.requestState };
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

/** A resource's contents as `resources/read` returns them. */
export type ResourceContents = { uri: string; mimeType?: string; text?: string; blob?: string; _meta?: Record<string, unknown> }[];

/**
 * What differs between the protocol eras, one object per era (era2025Client.ts, era2026Client.ts),
 * chosen once when the handshake says which era the session speaks: the rest of the client never
 * asks which era it is in.
 */
export interface EraClient {
  readonly era: 'modern' | 'legacy';
  /** The server runs `tools/call` as tasks (2025-11-25: its capability; 2026-07-28: the tasks extension). */
  readonly offersTasks: boolean;
  /** How long the last listing stays fresh, as the server said; undefined: not said, or changes come pushed. */
  readonly listingTtlMs: number | undefined;
  listTools(): Promise<Tool[]>;
  callTool(tool: Tool, args: Record<string, unknown>, options: CallOptions, call: CallInFlight): Promise<RawToolResult>;
  resumeTask(reference: TaskReference, options: Pick<CallOptions, 'signal' | 'timeoutMs' | 'onTaskStatus'>, call: CallInFlight): Promise<RawToolResult>;
  taskStatus(reference: TaskReference, timeoutMs: number): Promise<TaskStatus>;
  /**
   * Any other request of the session (resources, prompts, completion, logging...), framed as its era
   * frames requests: its result object, or the error the SDK would throw for the server's answer.
   */
  request(method: string, params: Record<string, unknown> | undefined, options: PlainRequestOptions): Promise<Record<string, unknown>>;
  /** Asks the server to push list changes, where the era needs asking (2026-07-28 `subscriptions/listen`). */
  listenForChanges(): void;
  /**
   * The resources whose updates the server should send now (`notifications/resources/updated`):
   * 2025, `resources/subscribe` and `unsubscribe` for what changed; 2026-07-28, the listening
   * stream opened again with these URIs.
   */
  watchResources(uris: readonly string[]): Promise<void>;
  /**
   * The least severe log messages the server should send (RFC 5424 level names), for a server that
   * declares `logging`: 2025 `logging/setLevel`; 2026-07-28 the level sent with each request. False: not declared, nothing set.
   */
  setLogLevel(level: string): Promise<boolean>;
  /** The session ended: what the era holds open ends too. */
  close(): void;
}

/** How long a request other than a call may take, and what cancels it. */
export interface PlainRequestOptions {
  readonly timeoutMs: number;
  readonly signal?: CallSignal;
  /** Its 2026-07-28 input_required rounds go back to the caller (RelayedInput). */
  readonly input?: RelayedInput;
}

/** What both eras share of one session: the SDK client, the path past it, and how a call's prompts reach the user. */
export interface EraSession {
  readonly client: Client;
  readonly raw: RawRequests;
  readonly log: ServerLog;
  readonly limits: ListingLimits;
  readonly overHttp: boolean;
  readonly prompts: CallPrompts;
  readonly completions: ElicitationCompletions;
  /** Names this server for the Tasks package, stable across sessions. */
  readonly endpointId: string;
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** The capabilities the client declared (a fresh copy each time). */
  capabilities(): Record<string, unknown>;
  /** Registers a listener for the session's end. */
  onClose(listener: () => void): void;
}

/** How long a page of `tools/list` may take (the SDK's default request timeout). */
export const LIST_TIMEOUT_MS = 60_000;

/** A request past the SDK: its result object, or the error the SDK would throw for its answer. */
export function rawRequest(session: EraSession, method: string, params: RequestParams, options: RawRequestOptions): Promise<Record<string, unknown>> {
  return session.raw.request(method, params, options).then(resultObjectOf);
}

/** What the 2026-07-28 era adds to a request: its `_meta` envelope, Mcp-Param headers, an input_required round's answers. */
export interface WireExtras {
  readonly meta?: Record<string, unknown>;
  readonly headers?: Record<string, string>;
  readonly params?: Record<string, unknown>;
}

/**
 * A `tools/call` past the SDK: progress on a token of ours, the same timeouts as the SDK's. No
 * spreads where it can be helped: every call runs this (BENCHMARKS.md case 2).
 */
export function rawCall(session: EraSession, tool: Tool, args: Record<string, unknown>, options: CallOptions, call: CallInFlight, wire?: WireExtras): Promise<Record<string, unknown>> {
  // The era's envelope goes last: a caller's key never replaces one of the protocol's.
  const meta = options.meta ? { ...options.meta, ...wire?.meta } : wire?.meta;
  // Progress comes on the request's own id (rawAnswers.ts). Object.assign, not a spread: on Node 20
  // a literal that spreads an object and then sets a key takes ~1 µs and makes an object slow to
  // stringify (BENCHMARKS.md, tenth pass).
  const params = options.onprogress ? (id: string) => callParams(tool, args, meta ? Object.assign({}, meta, { progressToken: id }) : { progressToken: id }, wire) : callParams(tool, args, meta, wire);
  return rawRequest(session, 'tools/call', params, {
    timeoutMs: options.timeoutMs,
    maxTotalTimeoutMs: options.maxTotalTimeoutMs,
    resetTimeoutOnProgress: true,
    onProgress: options.onprogress,
    signal: options.signal,
    headers: wire?.headers,
    // The server may ask the user mid-call (elicitation/create): reading the form is not the server idling.
    answering: call,
  });
}

/** A `tools/call`'s params: the tool, its arguments, the `_meta` given, and what a round of the 2026-07-28 era adds. */
function callParams(tool: Tool, args: Record<string, unknown>, meta: Record<string, unknown> | undefined, wire: WireExtras | undefined): Record<string, unknown> {
  const params: Record<string, unknown> = meta ? { name: tool.name, arguments: args, _meta: meta } : { name: tool.name, arguments: args };
  if (wire?.params) Object.assign(params, wire.params);
  return params;
}

/**
 * A call's answer from `rawCall` (or rounds of it) as a tool result: `rawRequest` already failed
 * any answer that is not an object, all `resultOf` checks, so no `.then` (a promise and a turn a
 * call, BENCHMARKS.md case 2).
 */
export function asToolResult(answer: Promise<Record<string, unknown>>): Promise<RawToolResult> {
  return answer as Promise<RawToolResult>;
}

/** A raw answer's result object, or the error the SDK would throw for it. */
function resultObjectOf(answer: RawResponse): Record<string, unknown> {
  // loadSdk() only on an error: a require() on every call was ~5% of this path's CPU (BENCHMARKS.md row 2c).
  if (answer.kind === 'error') throw loadSdk().ProtocolError.fromError(answer.error.code, answer.error.message, answer.error.data);
  const result = answer.result;
  if (typeof result !== 'object' || result === null || Array.isArray(result)) throw loadSdk().ProtocolError.fromError(-32603, `The server answered with ${result === null ? 'null' : Array.isArray(result) ? 'a list' : `a ${typeof result}`} where a result object belongs`);
  return result as Record<string, unknown>;
}

/** A `tools/call` answer we can render: any object (renderResult.ts copes with odd content); anything else fails the call. */
export function resultOf(answer: unknown): RawToolResult {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) throw new Error('tools/call: the answer is not an object');
  return answer as RawToolResult;
}

/** The tool's declared task support, when it is one the spec names. */
export function taskSupportOf(tool: Tool): 'required' | 'optional' | 'forbidden' | undefined {
  const v = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
  return v === 'required' || v === 'optional' || v === 'forbidden' ? v : undefined;
}
