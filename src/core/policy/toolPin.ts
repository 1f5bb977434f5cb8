import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';

/** The parts of a tool definition a user's trust rests on (name, title, description, schemas, annotations). */
export interface PinnedDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly annotations?: unknown;
}

export interface ToolPin {
  readonly hash: string;
  readonly definition: PinnedDefinition;
}

/** How deep a pinned definition is kept as it is; below, a subtree is kept as its hash. */
const KEPT_DEPTH = 64;

/**
 * A stable hash of the trusted parts of a tool definition (key order does not matter). The kept
 * definition (shown in "Show Changes", stored with grants and pins) keeps schemas 64 levels
 * deep and each deeper subtree as its hash: a decoy nested 100,000 levels deep still pins, still
 * shows a change, and cannot break storing the pins of the other tools.
 */
export function pinTool(tool: Tool): ToolPin {
  let pin = pins.get(tool);
  if (!pin) pins.set(tool, (pin = pinOf(tool)));
  return pin;
}

/** A listing's tool objects are never changed (a new listing is new objects): each is hashed once, not at every call. */
const pins = new WeakMap<Tool, ToolPin>();

function pinOf(tool: Tool): ToolPin {
  const full = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
  };
  const definition: PinnedDefinition = {
    ...full,
    inputSchema: keptPart(full.inputSchema, 0),
    outputSchema: keptPart(full.outputSchema, 0),
    annotations: keptPart(full.annotations, 0),
  };
  return { hash: createHash('sha256').update(canonicalJson(full)).digest('hex'), definition };
}

function keptPart(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= KEPT_DEPTH) return `(nested deeper than ${KEPT_DEPTH} levels; sha256 ${createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 16)})`;
  if (Array.isArray(value)) return value.map((v) => keptPart(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, keptPart(v, depth + 1)]));
}

/**
 * `canonicalJson` of an object whose values are all strings, numbers, booleans or nulls and whose
 * keys are already in order (most calls' arguments: every call's audit line hashes them), written
 * in one pass; undefined for any other (the general walk). Each value is read once, as there.
 */
function flatCanonical(value: object): string | undefined {
  const keys = Object.keys(value);
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (i > 0 && !(keys[i - 1] < key)) return undefined;
    const v: unknown = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return undefined;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(v)}`;
  }
  return `${out}}`;
}

/** Which trusted parts differ between two pinned definitions, in words a user reads. */
export function changedParts(before: PinnedDefinition, after: PinnedDefinition): string[] {
  const parts: [keyof PinnedDefinition, string][] = [
    ['title', 'title'],
    ['description', 'description'],
    ['inputSchema', 'input schema'],
    ['outputSchema', 'output schema'],
    ['annotations', 'annotations'],
  ];
  return parts.filter(([key]) => canonicalJson(before[key]) !== canonicalJson(after[key])).map(([, label]) => label);
}

/**
 * JSON with object keys sorted at every level, so equal values always hash the same. Written
 * with its own stack, not recursion: a server's value may nest deeper than the call stack.
 */
export function canonicalJson(value: unknown): string {
  const flat = typeof value === 'object' && value !== null && !Array.isArray(value) ? flatCanonical(value) : undefined;
  if (flat !== undefined) return flat;
  const out: string[] = [];
  const todo: ({ readonly text: string } | { readonly value: unknown })[] = [{ value }];
  for (let task = todo.pop(); task !== undefined; task = todo.pop()) {
    if ('text' in task) {
      out.push(task.text);
      continue;
    }
    const v = task.value;
    if (v === undefined) out.push('null');
    else if (v === null || typeof v !== 'object') out.push(JSON.stringify(v));
    else {
      const array = Array.isArray(v);
      const entries = array ? v.map((item): [string | undefined, unknown] => [undefined, item]) : Object.entries(v).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      // Pushed in reverse: the stack hands them back in order.
      todo.push({ text: array ? ']' : '}' });
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i];
        todo.push({ value: item });
        if (key !== undefined) todo.push({ text: `${JSON.stringify(key)}:` });
        if (i > 0) todo.push({ text: ',' });
      }
      todo.push({ text: array ? '[' : '{' });
    }
  }
  return out.join('');
}
