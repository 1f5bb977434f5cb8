import { createHash } from 'node:crypto';
import type { ArgumentRule, RuleEffect, RuleScope } from './argumentRules';
import { costOf, PathMemo, testCondition, type MatchPlace } from './ruleConditions';
import { globMatches, hasWildcard } from './ruleGlobs';
import { canonicalJson, changedParts, type PinnedDefinition, type ToolPin } from './toolPin';

/** The call a decision is about: which tool of which server (and launch), its arguments, and its definition now. */
export interface RuleCall {
  readonly server: string;
  /** The server's launch (`launchKey`): a rule's binding holds for it only, as a grant's does. */
  readonly launch?: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly pin: ToolPin;
}

/** Which definition of a tool each allow rule last allowed (see RuleBindings). */
export interface RuleBindingLookup {
  pinOf(key: string): ToolPin | undefined;
}

export type RuleDecision =
  /**
   * No rule speaks of this call: the annotations and grants decide, as without rules. `unsure`:
   * an allow rule would have spoken, but could not tell or not every value of a list matched
   * ("rule 'x' (user settings) does not allow it: /path ..."), for the prompt and the forecast.
   */
  | { readonly kind: 'none'; readonly unsure?: string }
  /** `bind`: the first call this rule allows for this tool; record `call.pin` under it (RuleBindings.bind). */
  | { readonly kind: 'allow'; readonly rule: ArgumentRule; readonly sentence: string; readonly bind?: string }
  /**
   * `suspended`: an allow rule would hold, but the tool changed since the rule last allowed it;
   * the user's approval binds the new definition under `rebind`.
   */
  | { readonly kind: 'ask'; readonly rule: ArgumentRule; readonly sentence: string; readonly suspended?: { readonly changed: readonly string[]; readonly before: PinnedDefinition; readonly rebind: string } }
  | { readonly kind: 'deny'; readonly rule: ArgumentRule; readonly sentence: string };

interface Match {
  readonly rule: ArgumentRule;
  readonly index: number;
  /** Why a restricting rule applied though a value was unread, or only some values of a list matched. */
  readonly note?: string;
}

/** An allow rule that did not hold only because it could not tell, or a list did not match whole. */
interface Missed {
  readonly missed: string;
}

const SCOPES: readonly RuleScope[] = ['policy', 'user', 'workspace'];
const STRICTNESS: Readonly<Record<RuleEffect, number>> = { allow: 0, ask: 1, deny: 2 };

/**
 * What the rules say of one call, and why, in a sentence.
 *
 * Within a scope a deny always wins; otherwise the most specific rule that matches wins: an exact
 * tool name beats a glob, then an exact server name beats a glob, then more conditions beat
 * fewer; on a tie an ask beats an allow, then the earlier rule in the list wins. Across scopes
 * (policy, user, workspace) the strictest answer holds, so the user cannot loosen a policy and a
 * workspace's asks and denies stand (a workspace has no allows). An allow is bound to the tool's
 * definition the first time it allows it: a different definition later makes the call ask.
 * `place` may be a function: it is called only when a rule reads a path (working it out stats
 * the launch's folders, which a call whose rules read no path should not pay).
 */
export function decideByRules(rules: readonly ArgumentRule[], call: RuleCall, place: MatchPlace | (() => MatchPlace), bindings: RuleBindingLookup): RuleDecision {
  const ruling = rulingOf(rules, call, place);
  if (ruling.kind !== 'allow') return ruling;
  const { rule, sentence, key } = ruling;
  const bound = bindings.pinOf(key);
  if (bound === undefined) return { kind: 'allow', rule, sentence, bind: key };
  if (bound.hash === call.pin.hash) return { kind: 'allow', rule, sentence };
  const changed = changedParts(bound.definition, call.pin.definition);
  return {
    kind: 'ask',
    rule,
    sentence: `needs approval: the tool's definition changed (${changed.join(', ') || 'details'}) since ${ruleWords(rule)} last allowed it`,
    suspended: { changed, before: bound.definition, rebind: key },
  };
}

/** What the rules say of a call before an allow's binding is looked up: an allow names its binding's key. */
type Ruling = Exclude<RuleDecision, { kind: 'allow' }> | { readonly kind: 'allow'; readonly rule: ArgumentRule; readonly sentence: string; readonly key: string };

/**
 * The rulings of a list of rules none of which has a condition (null: the list has one): the
 * arguments cannot change them, so each is worked out once per server, launch and tool (the list
 * is made anew when rules change). Maps by part, not one string key: a key built a call cost more
 * than the ruling it saved.
 */
const plainRulings = new WeakMap<readonly ArgumentRule[], { readonly byServer: Map<string, Map<string | undefined, Map<string, Ruling>>>; kept: number } | null>();
/** A list of rules for every tool of a huge catalogue keeps at most this many rulings. */
const MAX_RULINGS = 4096;

function rulingOf(rules: readonly ArgumentRule[], call: RuleCall, place: MatchPlace | (() => MatchPlace)): Ruling {
  let plain = plainRulings.get(rules);
  if (plain === undefined) plainRulings.set(rules, (plain = rules.every((rule) => rule.when.length === 0) ? { byServer: new Map(), kept: 0 } : null));
  if (plain === null) return freshRuling(rules, call, place);
  let byLaunch = plain.byServer.get(call.server);
  if (!byLaunch) plain.byServer.set(call.server, (byLaunch = new Map()));
  let byTool = byLaunch.get(call.launch);
  if (!byTool) byLaunch.set(call.launch, (byTool = new Map()));
  let ruling = byTool.get(call.tool);
  if (!ruling) {
    if (plain.kept >= MAX_RULINGS) {
      plain.byServer.clear();
      plain.kept = 0;
      return rulingOf(rules, call, place);
    }
    byTool.set(call.tool, (ruling = freshRuling(rules, call, place)));
    plain.kept++;
  }
  return ruling;
}

function freshRuling(rules: readonly ArgumentRule[], call: RuleCall, place: MatchPlace | (() => MatchPlace)): Ruling {
  const memo = new PathMemo(place);
  const answers = rules.map((rule, index) => matchOf(rule, index, call, memo));
  const matches = answers.filter((m): m is Match => m !== undefined && 'rule' in m);
  let winner: Match | undefined;
  for (const scope of SCOPES) {
    const own = winnerOf(matches.filter((m) => m.rule.scope === scope));
    if (own && (!winner || STRICTNESS[own.rule.effect] > STRICTNESS[winner.rule.effect])) winner = own;
  }
  if (!winner) {
    const missed = answers.find((m): m is Missed => m !== undefined && 'missed' in m);
    return missed ? { kind: 'none', unsure: missed.missed } : { kind: 'none' };
  }
  const rule = winner.rule;
  const outweighs = matches.find((m) => m.rule.effect !== rule.effect && STRICTNESS[m.rule.effect] < STRICTNESS[rule.effect]);
  const notes = [
    rule.reason,
    winner.note,
    rule.broken && `the rule has a problem, so it asks: ${rule.broken}`,
    outweighs && `it outweighs ${ruleWords(outweighs.rule)}`,
  ].filter((n): n is string => typeof n === 'string' && n !== '');
  const tail = notes.length > 0 ? `: ${notes.join('; ')}` : '';
  if (rule.effect === 'deny') return { kind: 'deny', rule, sentence: `denied by ${ruleWords(rule)}${tail}` };
  if (rule.effect === 'ask') return { kind: 'ask', rule, sentence: `needs approval by ${ruleWords(rule)}${tail}` };
  return { kind: 'allow', rule, sentence: `allowed by ${ruleWords(rule)}${tail}`, key: bindingKey(rule, call) };
}

/** "rule 'project files' (user settings)", "policy rule 'no pushes to main'" */
export function ruleWords(rule: ArgumentRule): string {
  if (rule.scope === 'policy') return `policy rule '${rule.name}'${rule.source === 'policy' ? '' : ` (${rule.source})`}`;
  return `rule '${rule.name}' (${rule.source})`;
}

/**
 * How specific a rule is, compared in order: exact tool, exact server, number of conditions.
 * (A rule about one tool says more than one about a family, whatever its conditions.)
 */
export function specificity(rule: ArgumentRule): readonly [number, number, number] {
  return [hasWildcard(rule.tool) ? 0 : 1, hasWildcard(rule.server) ? 0 : 1, rule.when.length];
}

/**
 * Where an allow rule's binding is kept: the rule as written (editing it is a new rule), the server,
 * its launch and the tool. Hashed, so a persisted key shows no arguments or paths.
 */
export function bindingKey(rule: ArgumentRule, call: RuleCall): string {
  // Every call an allow rule lets through needs its key: hashed once per rule object and tool, not per call.
  let keys = bindingKeys.get(rule);
  if (!keys) bindingKeys.set(rule, (keys = new Map()));
  const which = JSON.stringify([call.server, call.launch ?? null, call.tool]);
  let key = keys.get(which);
  if (key === undefined) {
    if (keys.size >= MAX_KEYS_PER_RULE) keys.clear();
    key = hashedBindingKey(rule, call);
    keys.set(which, key);
  }
  return key;
}

/** The binding keys worked out so far, per rule (a reloaded rule is a new object: its keys are worked out anew). */
const bindingKeys = new WeakMap<ArgumentRule, Map<string, string>>();
/** A rule for every tool of a huge catalogue keeps at most this many keys. */
const MAX_KEYS_PER_RULE = 4096;

function hashedBindingKey(rule: ArgumentRule, call: RuleCall): string {
  const written = { scope: rule.scope, source: rule.source, name: rule.name, server: rule.server, tool: rule.tool, effect: rule.effect, when: rule.when.map((c) => [c.pointerText, c.test.kind === 'regex' ? { kind: 'regex', source: c.test.regex.source } : c.test]) };
  return createHash('sha256').update(canonicalJson({ rule: written, server: call.server, launch: call.launch ?? null, tool: call.tool })).digest('hex');
}

/**
 * Does the rule speak of the call? A condition that is `unsure` or `some` (a list of which some
 * values match) makes a restricting rule apply, saying why, and an allow rule not hold: then the
 * first such condition is kept to say why the allow did not (`Missed`), unless another says `no`.
 */
function matchOf(rule: ArgumentRule, index: number, call: RuleCall, memo: PathMemo): Match | Missed | undefined {
  if (!globMatches(rule.server, call.server) || !globMatches(rule.tool, call.tool)) return undefined;
  let note: string | undefined;
  for (const condition of [...rule.when].sort((a, b) => costOf(a) - costOf(b))) {
    const result = testCondition(condition, call.args, memo);
    if (result.kind === 'no') return undefined;
    if (result.kind === 'yes' || note !== undefined) continue;
    const pointer = condition.pointerText;
    if (rule.effect === 'allow') note = result.kind === 'some' ? `${pointer} ${result.miss}: an allow holds only when every value does` : `${pointer} ${result.why}`;
    else note = result.kind === 'some' ? `${pointer} ${result.match}: a deny or ask holds when any value of a list does` : `${pointer} ${result.why}, and a rule that restricts applies when it cannot tell`;
  }
  if (rule.effect === 'allow' && note !== undefined) return { missed: `${ruleWords(rule)} does not allow it: ${note}` };
  return { rule, index, note };
}

function winnerOf(matches: readonly Match[]): Match | undefined {
  const denies = matches.filter((m) => m.rule.effect === 'deny');
  const pool = denies.length > 0 ? denies : matches;
  return [...pool].sort(compareMatches)[0];
}

/** Most specific first; then ask before allow; then the earlier rule. */
function compareMatches(a: Match, b: Match): number {
  const sa = specificity(a.rule);
  const sb = specificity(b.rule);
  for (let i = 0; i < sa.length; i++) if (sa[i] !== sb[i]) return sb[i] - sa[i];
  if (a.rule.effect !== b.rule.effect) return STRICTNESS[b.rule.effect] - STRICTNESS[a.rule.effect];
  return a.index - b.index;
}
