/**
 * Reading the problems `SchemaValidator` reports (`/count: must be <= 10`,
 * `(top level): missing required property "name"`) back into where they are and what they
 * say, so a prompt can show each next to its field and an editor can mark the right spot.
 */
export interface ArgumentProblem {
  /** JSON path of the value the problem is about; `[]` is the arguments object itself. */
  readonly path: readonly (string | number)[];
  /** The property a `required` or `additionalProperties` problem names, inside `path`. */
  readonly property?: string;
  readonly kind: 'missing' | 'unexpected' | 'other';
  /** What is wrong, in ajv's words (`must be <= 10`). */
  readonly message: string;
}

const TOP = '(top level)';

export function parseProblem(problem: string): ArgumentProblem {
  const split = problem.startsWith(`${TOP}: `) ? TOP.length : problem.startsWith('/') ? problem.indexOf(': ') : -1;
  if (split < 0) return { path: [], kind: 'other', message: problem };
  const where = problem.slice(0, split);
  const message = problem.slice(split + 2);
  const path = where === TOP ? [] : where.slice(1).split('/').map(unescapePointer).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  const missing = /^missing required property "(.*)"$/.exec(message);
  if (missing) return { path, property: missing[1], kind: 'missing', message };
  const unexpected = /^unexpected property "(.*)"$/.exec(message);
  if (unexpected) return { path, property: unexpected[1], kind: 'unexpected', message };
  return { path, kind: 'other', message };
}

/** The top-level argument a problem belongs to, if any. */
export function problemField(problem: ArgumentProblem): string | undefined {
  const first = problem.path[0];
  if (first !== undefined) return String(first);
  return problem.kind === 'other' ? undefined : problem.property;
}

/** One sentence that names the field and says why: `values[2] must be >= 0`, `name is required`. */
export function describeProblem(problem: ArgumentProblem): string {
  const where = formatPath(problem.path);
  switch (problem.kind) {
    case 'missing':
      return `${formatPath([...problem.path, problem.property ?? ''])} is required`;
    case 'unexpected':
      return where ? `${where} has an unknown property "${problem.property}"` : `"${problem.property}" is not an argument of this tool`;
    case 'other':
      return where ? `${where} ${problem.message}` : `the arguments ${problem.message}`;
  }
}

/** The problems about one top-level field, described; empty when it has none. */
export function problemsOfField(problems: readonly string[], name: string): string[] {
  return problems.map(parseProblem).filter((p) => problemField(p) === name).map(describeProblem);
}

/** `a.b[2]`, `["odd key"]` for keys that are not identifiers. */
export function formatPath(path: readonly (string | number)[]): string {
  return path
    .map((s, i) => (typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][\w$-]*$/.test(s) ? (i === 0 ? s : `.${s}`) : `[${JSON.stringify(s)}]`))
    .join('');
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
