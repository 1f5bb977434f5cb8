import * as fs from 'node:fs';
import type { ArgumentRule, RuleProblem, RuleScope } from './argumentRules';
import { loadRules } from './load';
import { MAX_POLICY_FILE_BYTES as MAX_FILE_BYTES } from './policyFiles';

/** The rules of one place before they are parsed: a setting's value or a rules file's JSON. */
export interface RuleInput {
  readonly scope: RuleScope;
  /** Where they were read, as decisions name it: "user settings", "policy file /etc/mcp-tool-host/rules.json". */
  readonly source: string;
  readonly raw: unknown;
  /** Set when the place could not be read (a broken file): every call then asks, and this says why. */
  readonly problem?: string;
}

/** A rules file is read whole; larger ones are refused (a thousand rules fit in far less). */

/**
 * The rules in force, from every place they are kept, parsed at first use (the parser loads
 * dist/rules.js, which activation must not) and again when a place changes. `changed()` is
 * called for settings; files are checked by their size and time of change at each use.
 */
export class RuleSet {
  private _parsed: { readonly rules: readonly ArgumentRule[]; readonly problems: readonly RuleProblem[]; readonly stamp: string } | undefined;

  constructor(
    private readonly _read: () => readonly RuleInput[],
    private readonly _stamp: () => string = () => '',
    /** Hears the problems of each parse (the extension shows them; the CLI refuses to run). */
    private readonly _onProblems?: (problems: readonly RuleProblem[]) => void,
  ) {}

  /** Every rule in force, policy first; empty without parsing anything when no place has rules. */
  get rules(): readonly ArgumentRule[] {
    return this._current().rules;
  }

  /** What is wrong with the rules as written, one sentence each (shown once per change). */
  get problems(): readonly RuleProblem[] {
    return this._current().problems;
  }

  /** A place changed (settings): read and parse again at the next use. */
  changed(): void {
    this._parsed = undefined;
  }

  private _current() {
    const stamp = this._stamp();
    if (this._parsed && this._parsed.stamp === stamp) return this._parsed;
    const inputs = this._read();
    const rules: ArgumentRule[] = [];
    const problems: RuleProblem[] = [];
    for (const input of inputs) {
      if (input.problem !== undefined) {
        // A place that cannot be read restricts: every call asks until it is fixed.
        rules.push({ name: input.source, server: '*', tool: '*', when: [], effect: 'ask', scope: input.scope, source: input.source, broken: input.problem });
        problems.push({ rule: `rules (${input.source})`, field: '', detail: input.problem, message: `${input.problem} Every call asks until it is fixed.` });
        continue;
      }
      if (input.raw === undefined || (Array.isArray(input.raw) && input.raw.length === 0)) continue;
      const parsed = loadRules().parseRules(input.raw, input.scope, input.source);
      rules.push(...parsed.rules);
      problems.push(...parsed.problems);
    }
    this._parsed = { rules, problems, stamp };
    this._onProblems?.(problems);
    return this._parsed;
  }
}

/**
 * One rules file as an input: a JSON list of rules (or `{ "rules": [...] }`). A missing file has
 * no rules when `optional` (the policy file of a machine without one); otherwise, like a file
 * that cannot be read or parsed, it is a problem that makes every call ask.
 */
export function readRulesFile(file: string, scope: RuleScope, source: string, optional: boolean): RuleInput {
  let text: string;
  try {
    const size = fs.statSync(file).size;
    if (size > MAX_FILE_BYTES) return { scope, source, raw: undefined, problem: `The rules file ${file} is ${size} bytes, over the ${MAX_FILE_BYTES}-byte limit.` };
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && optional) return { scope, source, raw: undefined };
    return { scope, source, raw: undefined, problem: `The rules file ${file} could not be read (${code ?? (err as Error).message}).` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { scope, source, raw: undefined, problem: `The rules file ${file} is not valid JSON (${(err as Error).message}).` };
  }
  const object = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  // A policy file that only pins other things (the registry, the servers allowed) holds no rules, and is not a broken list of them.
  const raw = object && 'rules' in object ? object.rules : object && Object.keys(object).length > 0 && Object.keys(object).every((k) => OTHER_POLICY_KEYS.has(k)) ? undefined : value;
  return { scope, source, raw };
}

/** What a policy file may hold besides `rules`: the registry URL it pins, the servers it allows. */
const OTHER_POLICY_KEYS: ReadonlySet<string> = new Set(['registryUrl', 'allowedServers']);

/** What tells a file changed without reading it: size and time of change, per file ("" when missing). */
export function filesStamp(files: readonly string[]): string {
  return files
    .map((file) => {
      try {
        const s = fs.statSync(file);
        return `${s.size}:${s.mtimeMs}`;
      } catch {
        return '';
      }
    })
    .join('|');
}

/** The policy files as inputs (scope `policy`). */
export function policyInputs(files: readonly string[]): RuleInput[] {
  return files.map((file) => readRulesFile(file, 'policy', `policy file ${file}`, true));
}
