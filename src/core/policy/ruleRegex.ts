import { loadSdk } from '../packages/load';

/** A rule's regex, compiled for RE2: `test` is `undefined` when the text is too long to check within the bound. */
export interface RuleRegex {
  readonly source: string;
  test(text: string): boolean | undefined;
}

/** Larger patterns are refused (RE2 instructions; `.{0,1000}` is ~1,000). The same bound as schemas' patterns. */
const MAX_PATTERN_SIZE = 5_000;
/** The most one check may cost (characters × instructions, ~0.2 s at RE2's slowest). */
const MAX_STEPS = 10_000_000;

/**
 * Compiles a rule's regex on RE2 (re2js, loaded with the heavy bundle only when a rule has a
 * regex): matching is linear in the text, so neither a workspace's rule nor a model's argument
 * can stall the host. JavaScript syntax is translated; backreferences and lookaround are refused
 * (RE2 has none). The match is unanchored, as JavaScript's `test`: write `^...$` to match whole.
 */
export function compileRuleRegex(source: string): { readonly regex: RuleRegex } | { readonly problem: string } {
  const { RE2JS } = loadSdk();
  let compiled: InstanceType<typeof RE2JS>;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(source));
  } catch (err) {
    return { problem: `is not a regex the linear-time engine accepts (RE2: no backreferences or lookaround): ${(err as Error).message}` };
  }
  const size = compiled.programSize();
  if (size > MAX_PATTERN_SIZE) return { problem: `is too large (${size} RE2 instructions, over ${MAX_PATTERN_SIZE})` };
  return { regex: { source, test: (text) => (text.length * size > MAX_STEPS ? undefined : compiled.test(text)) } };
}
