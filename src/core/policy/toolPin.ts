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

/** A stable hash of the trusted parts of a tool definition (key order does not matter). */
export function pinTool(tool: Tool): ToolPin {
  const definition: PinnedDefinition = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
  };
  return { hash: createHash('sha256').update(canonicalJson(definition)).digest('hex'), definition };
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

/** JSON with object keys sorted at every level, so equal values always hash the same. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
