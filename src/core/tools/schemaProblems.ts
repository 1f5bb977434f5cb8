import { loadTools } from './load';

/** Server text in a problem, on one line, hidden characters shown (plainMessages.ts; problems exist only once the validator, in the heavy bundle, ran). */
const oneLine = (text: string): string => loadTools().oneLine(text);

/**
 * What a schema check found wrong, as values: where (a JSON path) and what. `SchemaValidator`
 * builds them from ajv's errors, in plain words (plainMessages.ts); each surface formats them
 * where it shows them: `problemText` for logs, the CLI and chat (`/count: must be at most 10`),
 * `describeProblem` for a sentence next to the field it is about (`count must be at most 10`).
 */
export interface SchemaProblem {
  /** JSON path of the value the problem is about; `[]` is the checked value itself. */
  readonly path: readonly (string | number)[];
  /** The property a `missing` or `unexpected` problem names, inside `path`. */
  readonly property?: string;
  readonly kind: 'missing' | 'unexpected' | 'other';
  /**
   * What is wrong, in plain words that follow the value's name (`must be at most 10`). Built
   * once, so masking a server's secrets in it (callPipeline) covers every surface.
   */
  readonly message: string;
}

/** `/count: must be at most 10`, `(top level): missing required property "name"`. */
export function problemText(problem: SchemaProblem): string {
  const where = problem.path.length ? `/${problem.path.map((s) => oneLine(String(s)).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}` : '(top level)';
  switch (problem.kind) {
    case 'missing':
      return `${where}: missing required property "${oneLine(problem.property ?? '')}"`;
    case 'unexpected':
      return `${where}: unexpected property "${oneLine(problem.property ?? '')}"`;
    case 'other':
      return `${where}: ${problem.message}`;
  }
}

/** The top-level argument a problem belongs to, if any. */
export function problemField(problem: SchemaProblem): string | undefined {
  const first = problem.path[0];
  if (first !== undefined) return String(first);
  return problem.kind === 'other' ? undefined : problem.property;
}

/** One sentence that names the field and says why: `values[2] must be at least 0`, `name is required`. */
export function describeProblem(problem: SchemaProblem): string {
  const where = formatPath(problem.path);
  switch (problem.kind) {
    case 'missing':
      return `${formatPath([...problem.path, problem.property ?? ''])} is required`;
    case 'unexpected':
      return where ? `${where} has an unknown property "${oneLine(problem.property ?? '')}"` : `"${oneLine(problem.property ?? '')}" is not an argument of this tool`;
    case 'other':
      return where ? `${where} ${problem.message}` : `the arguments ${problem.message}`;
  }
}

/** The problems about one top-level field, described; empty when it has none. */
export function problemsOfField(problems: readonly SchemaProblem[], name: string): string[] {
  return problems.filter((p) => problemField(p) === name).map(describeProblem);
}

/** `a.b[2]`, `["odd key"]` for keys that are not identifiers; keys come from arguments, so on one line and cut. */
export function formatPath(path: readonly (string | number)[]): string {
  return path
    .map((s, i) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][\w$-]*$/.test(s) ? (i === 0 ? oneLine(s) : `.${oneLine(s)}`) : `[${oneLine(JSON.stringify(s))}]`))
    .join('');
}

/** The path segments of a JSON pointer (`/values/2` -> ['values', 2]). */
export function pointerPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}
