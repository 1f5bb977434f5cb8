import type { Tool } from '@modelcontextprotocol/client';
import type { EffectiveAnnotations } from '../tools/annotations';
import type { PinnedDefinition } from '../policy/toolPin';
import type { MatchPlace } from '../policy/ruleConditions';

/**
 * Which surface asked for the call; `app` is a tool's own interface (MCP Apps, docs/mcp-apps.md); `lm-tool` a chat's
 * language model through our language-model tools; `gateway` an MCP client of `mcp-tool-host serve` (docs/gateway.md).
 */
export type CallOrigin = 'tree' | 'palette' | 'chat' | 'cli' | 'api' | 'app' | 'lm-tool' | 'gateway';

/** What an Approver is asked to decide: one call, exactly as it would be sent, and why it asks. */
export interface ApprovalRequest {
  readonly server: string;
  readonly tool: Tool;
  /** The arguments that will be sent (after an edit, the edited ones). */
  readonly args: Record<string, unknown>;
  readonly annotations: EffectiveAnnotations;
  /** Why the call asks, in words (`callVerdict`): "may change or delete data (destructive)". */
  readonly reasons: readonly string[];
  /** The argument rule that decided to ask (or that "approve every call" overrode), in words. */
  readonly rule?: string;
  readonly origin: CallOrigin;
  /**
   * Set when a grant was suspended because the server changed the tool since it was given, or when
   * the tool differs from a lockfile (`against`: the lockfile, whose definition is `before`).
   */
  readonly changed?: { readonly parts: readonly string[]; readonly before: PinnedDefinition; readonly against?: string };
  /** "Allow this server for the session" is never offered for a destructive tool. */
  readonly offerServerGrant: boolean;
  /** No grant is offered when an ask rule holds (a grant would not outweigh it). */
  readonly offerToolGrants: boolean;
  /** "Allow calls like this one...": offered where a new allow rule of the user's could decide such calls. */
  readonly offerRule: boolean;
  /** Where the rules read this call's paths (set with `offerRule`): a proposed rule's folder is read the same way. */
  readonly place?: () => MatchPlace;
}

/** The user's answer; `edit` carries arguments the user changed (they are checked and asked about again). */
export type ApprovalDecision =
  | 'allow-once'
  | 'allow-tool-session'
  | 'allow-tool-always'
  | 'allow-server-session'
  | 'deny'
  | { readonly kind: 'edit'; readonly args: Record<string, unknown> }
  /**
   * The user saved an allow rule for calls like this one (`rule`, as written to user settings;
   * `saved`: "rule 'x like this' (user settings)"): this call runs, and binds the rule to the tool's definition.
   */
  | { readonly kind: 'rule-added'; readonly saved: string; readonly rule: unknown }
  /** Nobody could be asked (no terminal, a client without elicitation) or asking failed: denied, and `why` is recorded, not "denied by user". */
  | { readonly kind: 'refused'; readonly why: string };

/** Asks the user (quick-pick, TTY prompt, or a scripted answer in tests). Escape means deny. */
export interface Approver {
  approve(request: ApprovalRequest): Promise<ApprovalDecision>;
}

export interface CallHeader {
  readonly callId: string;
  readonly server: string;
  readonly tool: string;
  readonly origin: CallOrigin;
  readonly args: Record<string, unknown>;
  readonly startedAt: Date;
}

/** Where a call's story goes as it happens (the output channel, a terminal, a chat response). */
export interface CallSink {
  begin(header: CallHeader): void;
  line(callId: string, text: string): void;
  progress(callId: string, progress: { progress: number; total?: number; message?: string }): void;
  /** Also hears the lines of a call the server runs as a task (its status as it changes); they go to `line` too. */
  task?(callId: string, text: string): void;
  /**
   * The summary in pieces, to be written one after another (`summaryParts`): a result's text stays
   * a piece of its own, since joining or prefixing 50 MiB copies it whole in one task. May be
   * async: a sink that writes a large result in chunks resolves when it is written.
   */
  end(callId: string, summary: readonly string[]): void | Promise<void>;
}

/** One line of the audit log: what ran, who asked, what was decided, how it ended. Never arguments or secrets. */
export interface AuditRecord {
  readonly time: string;
  readonly callId: string;
  readonly origin: CallOrigin;
  readonly server: string;
  readonly tool: string;
  /** sha256 of the canonical arguments (first 16 hex digits): tells calls apart without storing them. */
  readonly argsHash: string;
  readonly decision: string;
  readonly durationMs?: number;
  readonly outcome: string;
}

export interface AuditLog {
  append(record: AuditRecord): void;
}
