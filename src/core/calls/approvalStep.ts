import type { Tool } from '@modelcontextprotocol/client';
import type { GrantStore } from '../policy/grants';
import { approvalNeed, callVerdict } from '../policy/approvalPolicy';
import type { ArgumentRule } from '../policy/argumentRules';
import type { RuleBindings } from '../policy/ruleBindings';
import type { MatchPlace } from '../policy/ruleConditions';
import type { RuleDecision } from '../policy/ruleDecision';
import { changedParts, pinTool, type PinnedDefinition, type ToolPin } from '../policy/toolPin';
import { loadRules } from '../policy/load';
import type { EffectiveAnnotations } from '../tools/annotations';
import { badgeDescription } from '../tools/toolBadges';
import type { ApprovalDecision, Approver, CallOrigin } from './ports';
import type { SchemaProblem } from '../tools/schemaProblems';

export type ApprovalResult =
  | { readonly kind: 'allowed'; readonly args: Record<string, unknown>; readonly decision: string }
  /** `byRule`: a rule denied it (the decision names the rule), not the user. */
  | { readonly kind: 'denied'; readonly decision: string; readonly byRule?: boolean }
  | { readonly kind: 'invalid-arguments'; readonly problems: readonly SchemaProblem[] };

/** The argument rules a call is decided by, where their paths are read, and which definitions allow rules are bound to. */
export interface CallRules {
  readonly list: readonly ArgumentRule[];
  /** Where paths are read: called only when a rule reads a path (it loads the engine and stats the launch's folders). */
  readonly place: () => MatchPlace;
  readonly bindings: RuleBindings;
}

/**
 * How a tool differs from a lockfile that locks its server (the team's, in the workspace): a call of
 * it asks, whatever grants or allow rules say. `locked` is the definition locked, when the lockfile has the tool.
 */
export interface LockDrift {
  readonly parts: readonly string[];
  readonly locked?: PinnedDefinition;
  readonly lockfile: string;
}

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
  /** Without rules (or with none written), the annotations and grants decide alone. */
  readonly rules?: CallRules;
  /** Set when the tool differs from the lockfile that locks its server: the call asks. */
  readonly drift?: LockDrift;
}

/**
 * What the approve stage will do with a call before anyone is asked, and why: the pipeline acts
 * on it, and "What Would Happen" shows it. `sentence` is what the output channel and the audit
 * log record ("allowed by rule 'project files' (user settings) [read-only]").
 */
export type CallForecast =
  | { readonly kind: 'runs'; readonly sentence: string; readonly bind?: string }
  | { readonly kind: 'denied'; readonly sentence: string }
  | {
      readonly kind: 'asks';
      readonly sentence: string;
      readonly reasons: readonly string[];
      /** A rule's sentence to show in the prompt (an ask rule, or an allow rule that approve-all overrides). */
      readonly rule?: string;
      readonly changed?: { readonly parts: readonly string[]; readonly before: PinnedDefinition; readonly against?: string };
      /** An allow rule's binding to renew when the user allows a changed tool. */
      readonly rebind?: string;
      /** A grant would not hold against an ask rule, so none is offered. */
      readonly offerGrants: boolean;
      /** "Allow calls like this one...": only where a new allow rule of the user's could decide. */
      readonly offerRule: boolean;
    };

const DECISION_WORDS: Record<Exclude<ApprovalDecision, { kind: 'edit' | 'rule-added' | 'refused' }>, string> = {
  'allow-once': 'allowed once',
  'allow-tool-session': 'allowed: this tool for this session',
  'allow-tool-always': 'allowed: always allow this tool',
  'allow-server-session': 'allowed: this server for this session',
  deny: 'denied by user',
};

const NO_RULE: RuleDecision = { kind: 'none' };

/**
 * Rules first: a deny ends the call, an ask rule asks (no grant holds against it), an allow runs
 * it (unless the user approves every call). Without a rule that speaks of the call, the
 * annotations and grants decide (callVerdict), as they always did.
 */
export function forecastCall(ctx: Omit<ApprovalContext, 'validate' | 'origin'>, grants: GrantStore, pin: ToolPin = pinTool(ctx.tool)): CallForecast {
  const badges = `[${badgeDescription(ctx.annotations)}]`;
  const rules = ctx.rules;
  const ruled = rules && rules.list.length > 0 ? loadRules().decideByRules(rules.list, { server: ctx.server, launch: ctx.launch, tool: ctx.tool.name, args: ctx.args, pin }, rules.place, rules.bindings) : NO_RULE;
  if (ruled.kind === 'deny') return { kind: 'denied', sentence: `${ruled.sentence} ${badges}` };
  // A lockfile only adds a prompt: no grant or allow rule covers a tool that is not what the team locked.
  if (ctx.drift) {
    const drift = ctx.drift;
    const reasons = [driftReason(drift), ...(ruled.kind === 'ask' ? [ruled.sentence] : []), ...reasonsOf(approvalNeed(ctx.annotations, { approveAll: ctx.approveAll }))];
    return {
      kind: 'asks',
      sentence: `asks: ${reasons.join('; ')} ${badges}`,
      reasons,
      rule: ruled.kind === 'ask' ? ruled.sentence : undefined,
      changed: drift.locked && { parts: drift.parts, before: drift.locked, against: drift.lockfile },
      offerGrants: false,
      offerRule: false,
    };
  }
  if (ruled.kind === 'allow' && !ctx.approveAll) return { kind: 'runs', sentence: `${ruled.sentence} ${badges}`, bind: ruled.bind };
  if (ruled.kind === 'allow' || ruled.kind === 'ask') {
    const reasons = [...(ruled.kind === 'ask' ? [ruled.sentence] : []), ...reasonsOf(approvalNeed(ctx.annotations, { approveAll: ctx.approveAll }))];
    const suspended = ruled.kind === 'ask' ? ruled.suspended : undefined;
    return {
      kind: 'asks',
      sentence: `asks: ${reasons.join('; ')} ${badges}`,
      reasons,
      rule: ruled.sentence,
      changed: suspended && { parts: changedParts(suspended.before, pin.definition), before: suspended.before },
      rebind: suspended?.rebind,
      offerGrants: false,
      offerRule: false,
    };
  }
  const verdict = callVerdict(ctx.server, ctx.tool, ctx.annotations, { approveAll: () => ctx.approveAll, grants, launchOf: () => ctx.launch });
  if (verdict.kind === 'runs') return { kind: 'runs', sentence: verdict.because === 'granted' ? `covered by a grant (${verdict.scope}) ${badges}` : `not needed ${badges}` };
  // An allow rule that could not tell is why this asks at all: the prompt and the forecast say so.
  const reasons = ruled.kind === 'none' && ruled.unsure !== undefined ? [...verdict.reasons, ruled.unsure] : verdict.reasons;
  return {
    kind: 'asks',
    sentence: `asks: ${reasons.join('; ')} ${badges}`,
    reasons,
    changed: verdict.suspended && { parts: verdict.suspended.changed, before: verdict.suspended.before },
    offerGrants: true,
    offerRule: !ctx.approveAll && rules !== undefined,
  };
}

/**
 * The approval of a call that nobody needs to be asked about (a rule or grant decides, or its
 * annotations need no approval), as approveCall would give it; undefined when someone must be
 * asked. Most calls end here, in the caller's own turn (an await a call is not free).
 */
export function approvedWithoutAsking(ctx: Omit<ApprovalContext, 'validate' | 'origin'>, grants: GrantStore): ApprovalResult | undefined {
  const pin = pinTool(ctx.tool);
  return settledBy(forecastCall(ctx, grants, pin), ctx.args, pin, ctx.rules);
}

/** A forecast that asks no one, as the approval it is (`edited`: words for arguments the user edited); undefined when it asks. */
function settledBy(forecast: CallForecast, args: Record<string, unknown>, pin: ToolPin, rules: CallRules | undefined, edited = ''): ApprovalResult | undefined {
  if (forecast.kind === 'denied') return { kind: 'denied', decision: `${forecast.sentence}${edited}`, byRule: true };
  if (forecast.kind === 'asks') return undefined;
  if (forecast.bind) rules?.bindings.bind(forecast.bind, pin);
  return { kind: 'allowed', args, decision: forecast.sentence };
}

/**
 * The approve stage of the pipeline: decides from the rules, the effective annotations and the
 * user's grants whether to ask, asks (again after an edit of the arguments, which the rules
 * judge anew: a deny catches an edit), and records new grants and rule bindings.
 */
export async function approveCall(ctx: ApprovalContext, approver: Approver, grants: GrantStore): Promise<ApprovalResult> {
  // Words for a decision the user took: a call the rules let run never needs them.
  const badges = () => `[${badgeDescription(ctx.annotations)}]`;
  const pin = pinTool(ctx.tool);
  const destructive = ctx.annotations.destructive.value;
  let args = ctx.args;
  let asked: Extract<CallForecast, { kind: 'asks' }> | undefined;
  for (;;) {
    const edited = args !== ctx.args ? ' (arguments edited)' : '';
    const forecast = forecastCall({ ...ctx, args }, grants, pin);
    // Once the user was asked, edited arguments are shown again even when a rule or grant would let them run; a deny still ends the call.
    const settled = !asked || forecast.kind === 'denied' ? settledBy(forecast, args, pin, ctx.rules, edited) : undefined;
    if (settled) return settled;
    // The user is looking at this call: edited arguments a rule or grant would let run are asked about again.
    if (forecast.kind === 'asks') asked = forecast;
    const ask = asked!;
    const decision = await approver.approve({
      server: ctx.server,
      tool: ctx.tool,
      args,
      annotations: ctx.annotations,
      reasons: ask.reasons,
      rule: ask.rule,
      origin: ctx.origin,
      changed: ask.changed,
      offerServerGrant: ask.offerGrants && !destructive,
      offerToolGrants: ask.offerGrants,
      offerRule: ask.offerRule,
      place: ask.offerRule ? ctx.rules?.place : undefined,
    });
    if (typeof decision === 'object' && decision.kind === 'edit') {
      const problems = ctx.validate(decision.args);
      if (problems.length > 0) return { kind: 'invalid-arguments', problems };
      args = decision.args;
      continue;
    }
    if (decision === 'deny') return { kind: 'denied', decision: `${DECISION_WORDS.deny}${edited} ${badges()}` };
    if (typeof decision === 'object' && decision.kind === 'refused') return { kind: 'denied', decision: `denied, nobody asked: ${decision.why}${edited} ${badges()}` };
    if (decision === 'allow-server-session' && destructive) return { kind: 'denied', decision: `denied: a server-wide grant cannot cover a destructive tool ${badges()}` };
    if (ask.rebind) ctx.rules?.bindings.bind(ask.rebind, pin);
    if (typeof decision === 'object') {
      bindSavedRule(decision.rule, { ...ctx, args }, pin);
      return { kind: 'allowed', args, decision: `allowed once; saved as ${decision.saved}${edited} ${badges()}` };
    }
    // A grant offered nowhere (an ask rule holds) is not recorded: the call is allowed once.
    if (decision !== 'allow-once' && ask.offerGrants) grants.add(scopeOf(decision), ctx.server, ctx.launch, ctx.tool.name, pin);
    const words = decision !== 'allow-once' && !ask.offerGrants ? `${DECISION_WORDS['allow-once']} (${ask.rule ?? 'a rule'} holds over grants)` : DECISION_WORDS[decision];
    return { kind: 'allowed', args, decision: `${words}${edited} ${badges()}` };
  }
}

/**
 * A rule the user just saved from the prompt is bound to the definition they were looking at,
 * so a tool changed before its next call still asks (the rule would otherwise bind the new one).
 */
function bindSavedRule(raw: unknown, ctx: ApprovalContext, pin: ToolPin): void {
  if (!ctx.rules) return;
  const engine = loadRules();
  const saved = engine.decideByRules(engine.parseRules([raw], 'user').rules, { server: ctx.server, launch: ctx.launch, tool: ctx.tool.name, args: ctx.args, pin }, ctx.rules.place, ctx.rules.bindings);
  if (saved.kind === 'allow' && saved.bind) ctx.rules.bindings.bind(saved.bind, pin);
}

function driftReason(drift: LockDrift): string {
  return drift.locked ? `is of a tool that differs from the lockfile ${drift.lockfile} (${drift.parts.join(', ')})` : `is of a tool not in the lockfile ${drift.lockfile}, which locks its server`;
}

function reasonsOf(need: ReturnType<typeof approvalNeed>): readonly string[] {
  return need.kind === 'required' ? need.reasons : [];
}

function scopeOf(decision: 'allow-tool-session' | 'allow-tool-always' | 'allow-server-session') {
  return decision === 'allow-tool-session' ? 'tool-session' : decision === 'allow-tool-always' ? 'tool-always' : 'server-session';
}
