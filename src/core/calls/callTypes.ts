import type { Tool } from '@modelcontextprotocol/client';
import type { InputRound, RelayedInput } from '../connection/eraClient';
import type { GrantStore } from '../policy/grants';
import type { RateLimiter } from '../policy/rateLimiter';
import type { RuleBindings } from '../policy/ruleBindings';
import type { RuleSet } from '../policy/ruleSource';
import type { BinarySaver, RawToolResult, RenderedResult } from '../render/renderResult';
import type { Telemetry } from '../telemetry/telemetry';
import type { SchemaProblem } from '../tools/schemaProblems';
import type { LockDrift } from './approvalStep';
import type { CallFailure } from './callErrors';
import type { Approver, AuditLog, CallOrigin } from './ports';
import type { TaskBoard } from './taskBoard';
import type { CallSignal } from '../callSignal';

// What a call asks and how it ends, and how the pipeline is set up: the types CallPipeline (built at
// activation) and CallRunner (loaded with the first call) share, so neither needs the other's file.

export interface CallRequest {
  readonly server: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly origin: CallOrigin;
  readonly signal?: CallSignal;
  /** The server runs the call as a task: from here on the task board follows it (and Cancel Task cancels it). */
  readonly onTaskStarted?: () => void;
  /** Progress for the caller's own UI (a notification, a chat response), besides the sink. */
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Keep the result as the server sent it (`raw`, secrets masked) for the tool's own interface (MCP Apps), or a gateway's client. */
  readonly keepRaw?: boolean;
  /** Who decides this call if it asks, instead of the pipeline's own Approver (a gateway's client, asked through elicitation). */
  readonly approver?: Approver;
  /** A 2026-07-28 server's rounds that ask go back to the caller (outcome `input-required`): a gateway's 2026-07-28 client answers them. */
  readonly input?: RelayedInput;
  /** The W3C `traceparent` the caller's own request carried (a gateway's client): the call's span continues that trace. Unchecked here. */
  readonly traceparent?: string;
}

/** How a call ended; every surface reports exactly one of these. */
export type CallOutcome =
  /** `outputWarning`: the structured result breaks the tool's outputSchema (or is missing): flagged on every surface. */
  | { readonly kind: 'ok'; readonly result: RenderedResult; readonly durationMs: number; readonly outputWarning?: string; readonly raw?: RawToolResult }
  /** `raw`: the result as the server sent it, for the tool's own interface (MCP Apps) only; never shown as text. */
  | { readonly kind: 'tool-error'; readonly result: RenderedResult; readonly durationMs: number; readonly raw?: RawToolResult }
  | { readonly kind: 'invalid-arguments'; readonly problems: readonly SchemaProblem[] }
  /** `rule`: the rule that denied it, in words ("denied by rule 'no env files' (user settings): ..."); none when the user did. */
  | { readonly kind: 'denied'; readonly rule?: string }
  | { readonly kind: 'cancelled' }
  /** The server asks for input (a 2026-07-28 round, secrets masked) that the caller's own client answers (CallRequest.input). */
  | { readonly kind: 'input-required'; readonly round: InputRound; readonly durationMs: number }
  | CallFailure;

export interface CallPipelineOptions {
  readonly approveAll?: () => boolean;
  /** A sandboxed server without network counts as closed-world for its non-destructive tools (closedBySandbox). */
  readonly offlineSandboxClosed?: () => boolean;
  /** Where a call's images, audio and blobs are saved (`callId`: a call never removes its own files to make room). */
  readonly saveBinary?: (callId: string) => BinarySaver;
  readonly grants?: GrantStore;
  readonly audit?: AuditLog;
  readonly rateLimiter?: RateLimiter;
  /** Where calls that the server runs as tasks are tracked (the tree, the status bar, Fetch Result). */
  readonly tasks?: TaskBoard;
  /** The argument rules (policy, user, workspace) every call is decided by first. */
  readonly argumentRules?: RuleSet;
  /** Which tool definition each allow rule was bound to (kept beside the grants). */
  readonly ruleBindings?: RuleBindings;
  /** The folder `${workspaceFolder}` in rules names. */
  readonly workspaceFolder?: () => string | undefined;
  /** How a tool differs from a lockfile that locks its server (the workspace's), if it does: such a call asks. */
  readonly lockDrift?: (server: string, tool: Tool) => LockDrift | undefined;
  /** Where each call's span goes (asked at each call: telemetry may be turned on or off meanwhile); none when absent. */
  readonly telemetry?: () => Telemetry | undefined;
}
