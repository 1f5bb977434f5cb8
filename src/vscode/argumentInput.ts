import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { displayName } from '../core/tools/annotations';
import { sanitizeLine } from '../core/render/sanitize';

type Validate = (args: Record<string, unknown>) => string[];

/**
 * Asks for a tool's arguments as JSON, pre-filled with a skeleton from the input schema and
 * validated live; returns undefined when the user cancels. A tool that takes no properties is
 * called without asking.
 */
export async function askArguments(tool: Tool, previous: Record<string, unknown> | undefined, validate: Validate): Promise<Record<string, unknown> | undefined> {
  const properties = (tool.inputSchema?.properties ?? {}) as Record<string, unknown>;
  if (Object.keys(properties).length === 0) return {};
  const value = JSON.stringify(previous ?? skeleton(tool));
  const input = await vscode.window.showInputBox({
    title: `Arguments for ${sanitizeLine(displayName(tool))}`,
    prompt: `JSON object. ${describeFields(tool)}`,
    value,
    ignoreFocusOut: true,
    validateInput: (text) => {
      const parsed = parseObject(text);
      if (typeof parsed === 'string') return parsed;
      const problems = validate(parsed);
      return problems.length ? problems.join('; ') : undefined;
    },
  });
  if (input === undefined) return undefined;
  const parsed = parseObject(input);
  return typeof parsed === 'string' ? undefined : parsed;
}

function parseObject(text: string): Record<string, unknown> | string {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : 'Enter a JSON object, like {"name": "value"}.';
  } catch (err) {
    return `Not valid JSON: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/** `{ required fields with their default or an empty value of their type }`. */
function skeleton(tool: Tool): Record<string, unknown> {
  const schema = tool.inputSchema ?? {};
  const properties = (schema.properties ?? {}) as Record<string, { type?: string; default?: unknown }>;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(properties)) {
    if (prop.default !== undefined) out[name] = prop.default;
    else if (required.has(name)) out[name] = emptyOf(prop.type);
  }
  return out;
}

function emptyOf(type: string | undefined): unknown {
  switch (type) {
    case 'string': return '';
    case 'number': case 'integer': return 0;
    case 'boolean': return false;
    case 'array': return [];
    case 'object': return {};
    default: return null;
  }
}

function describeFields(tool: Tool): string {
  const properties = (tool.inputSchema?.properties ?? {}) as Record<string, { type?: string }>;
  const required = new Set(Array.isArray(tool.inputSchema?.required) ? tool.inputSchema.required : []);
  return 'Fields: ' + Object.entries(properties).map(([n, p]) => `${sanitizeLine(n)}${required.has(n) ? '*' : ''}: ${p.type ?? 'any'}`).join(', ');
}
