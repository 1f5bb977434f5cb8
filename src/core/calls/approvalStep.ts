import type { Tool } from '@modelcontextprotocol/client';
import type { GrantStore } from '../policy/grants';
import { callVerdict } from '../policy/approvalPolicy';
import { pinTool } from '../policy/toolPin';
import type { EffectiveAnnotations } from '../tools/annotations';
import { badgeDescription } from '../tools/toolBadges';
import type { ApprovalDecision, Approver, CallOrigin } from './ports';
import type { SchemaProblem } from '../tools/schemaProblems';

export type ApprovalResult =
  | { readonly kind: 'allowed'; readonly args: Record<string, unknown>; readonly decision: string }
  | { readonly kind: 'denied'; readonly decision: string }
  | { readonly kind: 'invalid-arguments'; readonly problems: readonly SchemaProblem[] };

export interface ApprovalContext {
  readonly server: string;
  /** The server's launch (`launchKey`): grants are given and honoured for it only. */
  readonly launch: string | undefined;
  readonly tool: Tool;
  readonly args: Record<string, unknown>;
  readonly annotations: EffectiveAnnotations;
  readonly origin: CallOrigin;
  readonly approveAll: boolean;
  readonly validate: (args: Record<string, unknown>) => readonly SchemaProblem[];
}

const DECISION_WORDS: Record<Exclude<ApprovalDecision, { kind: 'edit' }>, string> = {
  'allow-once': 'allowed once',
  'allow-tool-session': 'allowed: this tool for this session',
  'allow-tool-always': 'allowed: always allow this tool',
  'allow-server-session': 'allowed: this server for this session',
  deny: 'denied by user',
};

/**
 * The approve stage of the pipeline: decides from the effective annotations and the user's
 * grants whether to ask, asks (again after an edit of the arguments), and records new grants.
 */
export async function approveCall(ctx: ApprovalContext, approver: Approver, grants: GrantStore): Promise<ApprovalResult> {
  const badges = `[${badgeDescription(ctx.annotations)}]`;
  const verdict = callVerdict(ctx.server, ctx.tool, ctx.annotations, { approveAll: () => ctx.approveAll, grants, launchOf: () => ctx.launch });
  if (verdict.kind === 'runs') {
    return { kind: 'allowed', args: ctx.args, decision: verdict.because === 'granted' ? `covered by a grant (${verdict.scope}) ${badges}` : `not needed ${badges}` };
  }
  const destructive = ctx.annotations.destructive.value;
  let args = ctx.args;
  for (;;) {
    const decision = await approver.approve({
      server: ctx.server,
      tool: ctx.tool,
      args,
      annotations: ctx.annotations,
      reasons: verdict.reasons,
      origin: ctx.origin,
      changed: verdict.suspended ? { parts: verdict.suspended.changed, before: verdict.suspended.before } : undefined,
      offerServerGrant: !destructive,
    });
    if (typeof decision === 'object') {
      const problems = ctx.validate(decision.args);
      if (problems.length > 0) return { kind: 'invalid-arguments', problems };
      args = decision.args;
      continue;
    }
    if (decision === 'deny') return { kind: 'denied', decision: `${DECISION_WORDS.deny} ${badges}` };
    if (decision === 'allow-server-session' && destructive) return { kind: 'denied', decision: `denied: a server-wide grant cannot cover a destructive tool ${badges}` };
    if (decision !== 'allow-once') grants.add(scopeOf(decision), ctx.server, ctx.launch, ctx.tool.name, pinTool(ctx.tool));
    const edited = args !== ctx.args ? ' (arguments edited)' : '';
    return { kind: 'allowed', args, decision: `${DECISION_WORDS[decision]}${edited} ${badges}` };
  }
}

function scopeOf(decision: 'allow-tool-session' | 'allow-tool-always' | 'allow-server-session') {
  return decision === 'allow-tool-session' ? 'tool-session' : decision === 'allow-tool-always' ? 'tool-always' : 'server-session';
}
