import type { Tool } from '@modelcontextprotocol/client';
import { effectiveAnnotations, type EffectiveAnnotations } from '../tools/annotations';
import type { GrantCheck, GrantScope } from './grants';
import { pinTool, type ToolPin } from './toolPin';

/** The reason when only the user's "approve every call" setting asks (it reads alone, not after "it"). */
export const APPROVE_ALL_REASON = 'every call needs approval (setting mcpToolHost.approveAllCalls)';

export type ApprovalNeed =
  | { readonly kind: 'none' }
  | { readonly kind: 'required'; readonly reasons: readonly string[] };

/**
 * Whether a call needs the user's approval before anything is sent: when the tool is
 * effectively destructive or reaches the open world, or when the user asked to approve every call.
 * (`effectiveAnnotations` already makes a read-only tool non-destructive.)
 */
export function approvalNeed(annotations: EffectiveAnnotations, options: { approveAll?: boolean } = {}): ApprovalNeed {
  const reasons: string[] = [];
  if (annotations.destructive.value) reasons.push('may change or delete data (destructive)');
  if (annotations.openWorld.value) reasons.push('may reach the outside world (open-world)');
  if (reasons.length === 0 && options.approveAll) reasons.push(APPROVE_ALL_REASON);
  return reasons.length > 0 ? { kind: 'required', reasons } : { kind: 'none' };
}

/** What a verdict consults of the user's standing approvals (the GrantStore). */
export interface GrantLookup {
  check(server: string, launch: string | undefined, tool: string, pin: ToolPin, destructive: boolean): GrantCheck;
}

/**
 * The user's rules a verdict applies: "approve every call", and the grants given so far, which
 * hold only for the launch they were given under (`launchOf` a server names it: `launchKey`).
 */
export type ApprovalRules = {
  approveAll(): boolean;
  /** The annotations a call of this tool is judged by (the pipeline's: a sandbox may close its world); undefined for an unknown server. */
  annotationsOf?(server: string, tool: Tool): EffectiveAnnotations | undefined;
} & (
  | { readonly grants?: undefined }
  | { readonly grants: GrantLookup; launchOf(server: string): string | undefined }
);

/**
 * The annotations every surface shows and judges a tool by: the ones its calls are decided by
 * (`ApprovalRules.annotationsOf`), or, without a pipeline, the tool's own as trusted or not.
 */
export function toolAnnotations(rules: ApprovalRules | undefined, server: string, tool: Tool, trustAnnotations: boolean): EffectiveAnnotations {
  return rules?.annotationsOf?.(server, tool) ?? effectiveAnnotations(tool, trustAnnotations);
}

/** Will a call ask first, and why. */
export type CallVerdict =
  | { readonly kind: 'runs'; readonly because: 'not-needed' }
  | { readonly kind: 'runs'; readonly because: 'granted'; readonly scope: GrantScope }
  | {
      readonly kind: 'asks';
      readonly reasons: readonly string[];
      /** A grant exists for an earlier definition of the tool: what changed since. */
      readonly suspended?: Extract<GrantCheck, { kind: 'suspended' }>;
    };

/**
 * The one answer to "will calling this tool ask, and why": the pipeline acts on it, and the
 * tooltip, picker and chat show it. A grant is looked up only when a call would otherwise ask.
 */
export function callVerdict(server: string, tool: Tool, annotations: EffectiveAnnotations, rules: ApprovalRules): CallVerdict {
  const need = approvalNeed(annotations, { approveAll: rules.approveAll() });
  if (need.kind === 'none') return { kind: 'runs', because: 'not-needed' };
  const grant = rules.grants?.check(server, rules.launchOf(server), tool.name, pinTool(tool), annotations.destructive.value);
  if (grant?.kind === 'granted') return { kind: 'runs', because: 'granted', scope: grant.grant.scope };
  return { kind: 'asks', reasons: need.reasons, suspended: grant?.kind === 'suspended' ? grant : undefined };
}

const GRANT_WORDS: Readonly<Record<GrantScope, string>> = {
  'tool-always': 'you always allow this tool',
  'tool-session': 'you allowed this tool for this session',
  'server-session': 'you allowed this server for this session',
};

/**
 * A verdict in words: `headline` (to stress, when there is one) then `text`. "Runs without
 * asking for approval." / "Asks before each call: it may reach the outside world (open-world)."
 */
export function verdictSentence(v: CallVerdict): { readonly headline?: string; readonly text: string } {
  if (v.kind === 'runs') {
    return { text: v.because === 'not-needed' ? 'Runs without asking for approval.' : `Runs without asking: ${GRANT_WORDS[v.scope]} (Manage Approvals to change).` };
  }
  const asks = v.reasons[0] === APPROVE_ALL_REASON ? `Asks before each call: ${APPROVE_ALL_REASON}.` : `Asks before each call: it ${v.reasons.join(' and ')}.`;
  if (!v.suspended) return { text: asks };
  return { headline: 'Definition changed', text: `since you approved it (${v.suspended.changed.join(', ') || 'details'}): the approval is suspended. ${asks}` };
}
