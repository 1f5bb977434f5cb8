/** A setting's value in each scope, as VS Code's `inspect` gives it. */
export interface ScopedValues {
  readonly defaultValue?: unknown;
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

/** How one safety setting reads: which values are valid, and which of two is the safer. */
export interface SafetyRule<T> {
  readonly fallback: T;
  valid(value: unknown): value is T;
  safer(a: T, b: T): T;
}

/**
 * The value of a safety setting (approve every call, rate limits, message cap): the user's own
 * value (or the default), made safer by a workspace's, never looser. A repository's
 * `.vscode/settings.json` can ask for more caution; it cannot switch caution off.
 */
export function saferOf<T>(values: ScopedValues | undefined, rule: SafetyRule<T>): T {
  const own = [values?.globalValue, values?.defaultValue].find(rule.valid) ?? rule.fallback;
  return [values?.workspaceValue, values?.workspaceFolderValue].filter(rule.valid).reduce(rule.safer, own);
}

/** A boolean where `true` is the safer value (approve every call). */
export const onIsSafer: SafetyRule<boolean> = {
  fallback: false,
  valid: (v): v is boolean => typeof v === 'boolean',
  safer: (a, b) => a || b,
};

/** A number where the smaller is the safer (a limit), never below `minimum`. */
export function smallerIsSafer(fallback: number, minimum: number): SafetyRule<number> {
  return {
    fallback,
    valid: (v): v is number => typeof v === 'number' && Number.isFinite(v) && v >= minimum,
    safer: (a, b) => Math.min(a, b),
  };
}
