// A module of the config's later part (dist/core.js): it imports no code of ours; what it needs is passed in.

/** A server entry's result budgets (serverConfig.ts's ServerDefinition has these two). */
export interface Budgets {
  readonly resultTokens?: number;
  readonly toolResultTokens?: Readonly<Record<string, number>>;
}

/** A server entry's `resultTokens` and `toolResultTokens`, checked (whole numbers of tokens); a broken one fails the entry. */
export function parseBudgets(resultTokens: unknown, toolResultTokens: unknown, fail: (m: string) => never): Budgets {
  return {
    ...(resultTokens !== undefined && { resultTokens: tokenCount('resultTokens', resultTokens, fail) }),
    ...(toolResultTokens !== undefined && { toolResultTokens: toolTokenCounts(toolResultTokens, fail) }),
  };
}

/**
 * The budgets of an entry past a bound every budget is held to (`min`, `max`: resultTokens.ts): said, not
 * changed without a word. `shown` writes a name as every surface shows it (sanitize.ts's shownName).
 */
export function budgetWarnings(server: string, def: Budgets, bounds: { readonly min: number; readonly max: number }, shown: (name: string) => string): string[] {
  const budgets = [...(def.resultTokens !== undefined ? [['resultTokens', def.resultTokens] as const] : []), ...Object.entries(def.toolResultTokens ?? {}).map(([tool, n]) => [`toolResultTokens.${shown(tool)}`, n] as const)];
  return budgets
    .filter(([, n]) => n < bounds.min || n > bounds.max)
    .map(([key, n]) => {
      const bound = n < bounds.min ? bounds.min : bounds.max;
      return `Server "${shown(server)}": "${key}" is ${n} tokens; a result budget is ${bound === bounds.min ? 'at least' : 'at most'} ${bound}, so ${bound} is used.`;
    });
}

function tokenCount(key: string, v: unknown, fail: (m: string) => never): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) fail(`"${key}" must be a whole number of tokens, 1 or more.`);
  return v as number;
}

function toolTokenCounts(raw: unknown, fail: (m: string) => never): Record<string, number> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('"toolResultTokens" must map tool names to numbers of tokens.');
  for (const [tool, v] of Object.entries(raw)) tokenCount(`toolResultTokens.${tool}`, v, fail);
  return raw as Record<string, number>;
}
