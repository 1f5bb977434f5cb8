import { parsePointer, type JsonPointer } from './jsonPointer';
import { compileRuleRegex, type RuleRegex } from './ruleRegex';
import { hasWildcard } from './ruleGlobs';
import { isRulePathAbsolute, unjudgedRuleFolder } from './rulePaths';

export type RuleEffect = 'allow' | 'ask' | 'deny';

/** Where a rule comes from, strongest first: an administrator's policy, the user, a workspace (which may only tighten). */
export type RuleScope = 'policy' | 'user' | 'workspace';

export const SCOPE_WORDS: Readonly<Record<RuleScope, string>> = { policy: 'policy', user: 'user settings', workspace: 'workspace settings' };

/** What a condition tests of the value its pointer names. */
export type RuleTest =
  | { readonly kind: 'equals'; readonly value: unknown }
  | { readonly kind: 'in'; readonly values: readonly unknown[] }
  | { readonly kind: 'prefix'; readonly prefix: string }
  | { readonly kind: 'under'; readonly folder: string }
  | { readonly kind: 'glob'; readonly glob: string }
  | { readonly kind: 'regex'; readonly regex: RuleRegex }
  | { readonly kind: 'range'; readonly min?: number; readonly max?: number };

export interface RuleCondition {
  /** As written (`/options/dryRun`), for messages. */
  readonly pointerText: string;
  readonly pointer: JsonPointer;
  readonly test: RuleTest;
}

export interface ArgumentRule {
  readonly name: string;
  /** A server name or a glob of names (`*`, `?`). */
  readonly server: string;
  /** A tool name or a glob of names. */
  readonly tool: string;
  /** All must hold (none: every call of the tool). */
  readonly when: readonly RuleCondition[];
  readonly effect: RuleEffect;
  readonly reason?: string;
  readonly scope: RuleScope;
  /** Where it was read, for the sentence that explains a decision: "user settings", "rules file rules.json". */
  readonly source: string;
  /**
   * Set when the rule as written had a problem but meant to restrict (deny or ask): it is kept as an
   * ask without conditions for its server and tool, so a typo never loosens anything.
   */
  readonly broken?: string;
  /** Its place (from 0) in the list it was read from, so the Rules and Approvals view can find the entry as written. */
  readonly position?: number;
}

/** One problem of one rule: the rule (by name or position), the field, and a sentence that says what is wrong. */
export interface RuleProblem {
  readonly rule: string;
  readonly field: string;
  /** The whole sentence: rule, field, what is wrong. */
  readonly message: string;
  /** The sentence without the rule (for a message already about the rule). */
  readonly detail: string;
}

export interface ParsedRules {
  readonly rules: readonly ArgumentRule[];
  readonly problems: readonly RuleProblem[];
}

const RULE_KEYS = new Set(['name', 'server', 'tool', 'when', 'effect', 'reason']);
const TEST_KEYS = ['equals', 'in', 'prefix', 'under', 'glob', 'regex', 'min', 'max'] as const;
const MAX_NAME = 100;
const MAX_REASON = 500;
const MAX_CONDITIONS = 32;
const MAX_RULES = 1000;

/**
 * Reads the rules of one scope (a setting's value, or a rules file's JSON): an array of
 * `{ name, server, tool, when?, effect, reason? }`. Every problem names its rule and field. A bad
 * allow is dropped; a bad deny or ask is kept as an ask for its tools (`broken`); an allow from a
 * workspace is refused (a repository may add asks and denies, never allows).
 */
export function parseRules(raw: unknown, scope: RuleScope, source: string = SCOPE_WORDS[scope]): ParsedRules {
  const problems: RuleProblem[] = [];
  if (raw === undefined || raw === null) return { rules: [], problems };
  const whole = (detail: string): RuleProblem => ({ rule: `rules (${source})`, field: '', detail, message: detail });
  if (!Array.isArray(raw)) return { rules: [], problems: [whole(`The rules in ${source} must be a list ([...]) of rules, not ${kindOf(raw)}.`)] };
  // Past the bound only the first rules are read (each call is matched against every rule).
  if (raw.length > MAX_RULES) problems.push(whole(`${capital(source)} has ${raw.length} rules; only the first ${MAX_RULES} are read.`));
  const rules: ArgumentRule[] = [];
  const names = new Set<string>();
  raw.slice(0, MAX_RULES).forEach((entry, index) => {
    const rule = parseRule(entry, index, scope, source, problems);
    if (!rule) return;
    if (names.has(rule.name)) {
      problems.push(problem(`rule '${rule.name}' (${source})`, 'name', `is used by an earlier rule too; give each rule its own name, since decisions are explained by name.`));
    }
    names.add(rule.name);
    rules.push(rule);
  });
  return { rules, problems };
}

function parseRule(entry: unknown, index: number, scope: RuleScope, source: string, problems: RuleProblem[]): ArgumentRule | undefined {
  const position = `rule ${index + 1} (${source})`;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    problems.push(problem(position, '', `must be an object { name, server, tool, effect, when?, reason? }, not ${kindOf(entry)}.`));
    return undefined;
  }
  const e = entry as Record<string, unknown>;
  const nameProblem = textProblem(e.name, MAX_NAME);
  const label = nameProblem === undefined ? `rule '${e.name as string}' (${source})` : position;
  const before = problems.length;
  const add = (field: string, message: string) => problems.push(problem(label, field, message));
  if (nameProblem !== undefined) add('name', nameProblem);
  for (const key of Object.keys(e)) if (!RULE_KEYS.has(key)) add(key, `is not a field of a rule (the fields are ${[...RULE_KEYS].join(', ')}).`);
  const server = nameGlob(e.server, 'server', add);
  const tool = nameGlob(e.tool, 'tool', add);
  const effect = e.effect;
  const effectOk = effect === 'allow' || effect === 'ask' || effect === 'deny';
  if (!effectOk) add('effect', `must be "allow", "ask" or "deny", not ${shown(effect)}.`);
  else if (effect === 'allow' && scope === 'workspace') add('effect', 'is "allow", but a workspace may only add "ask" and "deny" rules; put allow rules in your user settings.');
  if (e.reason !== undefined) {
    const reasonProblem = textProblem(e.reason, MAX_REASON);
    if (reasonProblem !== undefined) add('reason', reasonProblem);
  }
  const when = parseConditions(e.when, add);
  const name = nameProblem === undefined ? (e.name as string) : `rule ${index + 1}`;
  const reason = typeof e.reason === 'string' && textProblem(e.reason, MAX_REASON) === undefined ? e.reason : undefined;
  if (problems.length === before && server !== undefined && tool !== undefined && effectOk) {
    return { name, server, tool, when, effect, scope, source, ...(reason !== undefined && { reason }), position: index };
  }
  // Broken: keep it as an ask when it meant to restrict and its tools are known, so a typo never loosens.
  const restricting = effect === 'deny' || effect === 'ask' || (!effectOk && effect !== undefined);
  if (!restricting || server === undefined || tool === undefined) return undefined;
  return { name, server, tool, when: [], effect: 'ask', scope, source, broken: problems.slice(before).map((p) => p.detail).join(' '), position: index };
}

function parseConditions(raw: unknown, add: (field: string, message: string) => void): RuleCondition[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    add('when', `must be a list of conditions such as [{ "pointer": "/path", "under": "~/project" }], not ${kindOf(raw)}.`);
    return [];
  }
  if (raw.length > MAX_CONDITIONS) {
    add('when', `has ${raw.length} conditions; at most ${MAX_CONDITIONS}.`);
    return [];
  }
  const out: RuleCondition[] = [];
  raw.forEach((c, i) => {
    const condition = parseCondition(c, (field, message) => add(`when[${i}]${field === '' ? '' : `.${field}`}`, message));
    if (condition) out.push(condition);
  });
  return out;
}

function parseCondition(raw: unknown, add: (field: string, message: string) => void): RuleCondition | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    add('', `must be an object such as { "pointer": "/path", "under": "~/project" }, not ${kindOf(raw)}.`);
    return undefined;
  }
  const c = raw as Record<string, unknown>;
  let ok = true;
  const fail = (field: string, message: string) => {
    ok = false;
    add(field, message);
  };
  for (const key of Object.keys(c)) {
    if (key !== 'pointer' && !(TEST_KEYS as readonly string[]).includes(key)) fail(key, `is not a field of a condition (the fields are pointer, ${TEST_KEYS.join(', ')}).`);
  }
  let pointer: JsonPointer = [];
  if (typeof c.pointer !== 'string') fail('pointer', `must be a JSON pointer to an argument such as "/path" or "/options/dryRun", not ${shown(c.pointer)}.`);
  else {
    const parsed = parsePointer(c.pointer);
    if ('problem' in parsed) fail('pointer', `${shown(c.pointer)} ${parsed.problem}.`);
    else pointer = parsed.tokens;
  }
  // min and max are one test, a range.
  const kinds = new Set(TEST_KEYS.filter((k) => k in c).map((k) => (k === 'min' || k === 'max' ? 'range' : k)));
  if (kinds.size === 0) fail('', `has no test: give one of ${TEST_KEYS.join(', ')} (min and max together make a range).`);
  else if (kinds.size > 1) fail('', `has ${[...kinds].join(' and ')}: give one test per condition (write two conditions to test both).`);
  const test = kinds.size === 1 ? parseTest([...kinds][0], c, fail) : undefined;
  return ok && test ? { pointerText: c.pointer as string, pointer, test } : undefined;
}

function parseTest(kind: string, c: Record<string, unknown>, fail: (field: string, message: string) => void): RuleTest | undefined {
  switch (kind) {
    // A list argument is read value by value, so no value a test compares is a list.
    case 'equals':
      if (Array.isArray(c.equals)) return void fail('equals', `is a list, but a list argument is read value by value: use "in": ${shown(c.equals)} for "any of these values".`);
      return { kind, value: c.equals };
    case 'in': {
      if (!Array.isArray(c.in) || c.in.length === 0) return void fail('in', `must be a non-empty list of the values allowed, not ${shown(c.in)}.`);
      const list = c.in.find((v) => Array.isArray(v));
      if (list !== undefined) return void fail('in', `holds a list (${shown(list)}), but a list argument is read value by value, so no value is a list: list its values one by one.`);
      return { kind, values: c.in };
    }
    case 'prefix':
      if (typeof c.prefix !== 'string' || c.prefix === '') return void fail('prefix', `must be a non-empty text, not ${shown(c.prefix)} (for paths use "under", which compares real paths).`);
      return { kind, prefix: c.prefix };
    case 'under':
    case 'glob': {
      const text = c[kind];
      if (typeof text !== 'string' || text === '') return void fail(kind, `must be a path, not ${shown(text)}.`);
      if (text.includes('\0')) return void fail(kind, 'contains a NUL character.');
      // "**/*.env" (as in .gitignore) means at any depth from the root: "/**/*.env".
      const anywhere = kind === 'glob' && /^\*\*[\\/]/.test(text);
      if (!anywhere && !isRulePathAbsolute(text)) return void fail(kind, `must be absolute (start with /, a drive, ~${kind === 'glob' ? ', ${workspaceFolder} or **/' : ' or ${workspaceFolder}'}), not ${shown(text)}: a relative folder would mean a different place for each server.`);
      // The folder a glob starts from: its segments before the first wildcard.
      const unjudged = unjudgedRuleFolder(text, kind === 'glob' ? text.split(/(?<=[\\/])(?=[^\\/]*[*?])/)[0] : text);
      if (unjudged !== undefined) return void fail(kind, `${unjudged}: no rule can judge such a path (a call that sends one is never allowed by a rule, and a deny or ask on a path applies to it).`);
      if (kind === 'under' && hasWildcard(text)) return void fail(kind, `is a folder and takes no wildcards (* ?); use "glob" for ${shown(text)}.`);
      if (kind === 'glob' && text.split(/[\\/]/).includes('..')) return void fail(kind, `may not contain ".." segments: ${shown(text)}.`);
      return kind === 'under' ? { kind, folder: text } : { kind, glob: anywhere ? `/${text}` : text };
    }
    case 'regex': {
      if (typeof c.regex !== 'string' || c.regex === '') return void fail('regex', `must be a non-empty regex text, not ${shown(c.regex)}.`);
      const compiled = compileRuleRegex(c.regex);
      if ('problem' in compiled) return void fail('regex', `${shown(c.regex)} ${compiled.problem}.`);
      return { kind, regex: compiled.regex };
    }
    case 'range': {
      const min = c.min;
      const max = c.max;
      let ok = true;
      for (const [field, v] of [['min', min], ['max', max]] as const) {
        if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) {
          fail(field, `must be a finite number, not ${shown(v)}.`);
          ok = false;
        }
      }
      if (ok && typeof min === 'number' && typeof max === 'number' && min > max) return void fail('min', `(${min}) is greater than max (${max}): no number is in that range.`);
      return ok ? { kind, ...(min !== undefined && { min: min as number }), ...(max !== undefined && { max: max as number }) } : undefined;
    }
  }
  return undefined;
}

function nameGlob(value: unknown, field: 'server' | 'tool', add: (field: string, message: string) => void): string | undefined {
  const problemText = textProblem(value, MAX_NAME);
  if (problemText !== undefined) {
    add(field, `${problemText} Use "*" for any ${field}.`);
    return undefined;
  }
  return value as string;
}

/** Names, globs and reasons are shown to the user: one line of printable text. */
function textProblem(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return `must be a non-empty text, not ${shown(value)}.`;
  if (value.length > max) return `is ${value.length} characters long; at most ${max}.`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/.test(value)) return 'contains control or invisible characters; use plain text.';
  return undefined;
}

function problem(rule: string, field: string, message: string): RuleProblem {
  const detail = field === '' ? message : `"${field}" ${message}`;
  return { rule, field, detail, message: field === '' ? `${capital(rule)} ${message}` : `${capital(rule)}: ${detail}` };
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${shown(value)}`;
}

/** A value quoted for a message, cut at 60 characters. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
