import type { Node, ParseError } from 'jsonc-parser';
import { loadJsonc } from '../packages/load';
import { describeProblem, type SchemaProblem } from './schemaProblems';

/** A stretch of the editor's text (offsets in UTF-16 code units, as editors count). */
export interface TextSpan {
  readonly offset: number;
  readonly length: number;
}

/** The text of an arguments editor, read: the object, or where and why it is not one. */
export type ParsedArguments =
  | { readonly ok: true; readonly value: Record<string, unknown> }
  | { readonly ok: false; readonly message: string; readonly span: TextSpan };

/** A schema problem placed in the editor's text. */
export interface PlacedProblem extends TextSpan {
  /** Which field and why: `values[2] must be at least 0`. */
  readonly message: string;
}

/** Strict JSON (what a server receives), which must be an object; errors say line, column and what. */
export function parseArgumentsText(text: string): ParsedArguments {
  const errors: ParseError[] = [];
  const tree = loadJsonc().parseTree(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
  const [first] = errors;
  if (first) {
    const what = loadJsonc().printParseErrorCode(first.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
    return { ok: false, message: `Not valid JSON at ${lineColumn(text, first.offset)}: ${what}.`, span: { offset: first.offset, length: Math.max(1, first.length) } };
  }
  if (!tree || tree.type !== 'object') {
    return { ok: false, message: 'The arguments must be a JSON object, like {"name": "value"}.', span: { offset: tree?.offset ?? 0, length: Math.max(1, tree?.length ?? 1) } };
  }
  // The text is strict JSON by now; JSON.parse gives plain objects (jsonc-parser's have no prototype).
  return { ok: true, value: JSON.parse(text) as Record<string, unknown> };
}

/**
 * Places each problem on the value it is about: a wrong value on the value, an unknown property
 * on its name, a missing one on the opening brace of the object that lacks it. A path that is
 * not in the text (a list too short) falls back to the nearest enclosing value.
 */
export function placeProblems(text: string, problems: readonly SchemaProblem[]): PlacedProblem[] {
  const tree = loadJsonc().parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!tree) return [];
  return problems.map((problem) => {
    const node = nearest(tree, problem.path);
    const message = describeProblem(problem);
    if (problem.kind === 'unexpected' && node.type === 'object') {
      const key = node.children?.find((p) => p.children?.[0]?.value === problem.property)?.children?.[0];
      if (key) return { offset: key.offset, length: key.length, message };
    }
    if (problem.kind === 'missing' || node.type === 'object' || node.type === 'array') return { offset: node.offset, length: 1, message };
    return { offset: node.offset, length: node.length, message };
  });
}

function nearest(tree: Node, path: readonly (string | number)[]): Node {
  for (let n = path.length; n > 0; n--) {
    const node = loadJsonc().findNodeAtLocation(tree, path.slice(0, n) as (string | number)[]);
    if (node) return node;
  }
  return tree;
}

/** `line 3, column 5` (both from 1) for an offset into text. */
export function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return `line ${line}, column ${column}`;
}

/**
 * Where the caret goes when the editor opens: inside the first empty string (ready to type),
 * else selecting the first value; undefined for an empty object.
 */
export function firstValueSpan(text: string): TextSpan | undefined {
  const tree = loadJsonc().parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const values = (tree?.type === 'object' ? tree.children ?? [] : []).map((p) => p.children?.[1]).filter((n): n is Node => n !== undefined);
  const empty = values.find((n) => n.type === 'string' && n.value === '');
  if (empty) return { offset: empty.offset + 1, length: 0 };
  const [first] = values;
  return first ? { offset: first.offset, length: first.length } : undefined;
}
