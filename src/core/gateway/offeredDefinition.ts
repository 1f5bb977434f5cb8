import type { Tool } from '@modelcontextprotocol/client';
import type { EffectiveAnnotations } from '../tools/annotations';
import { modelSchema } from '../chat/modelSchema';
import { sanitizeLine, sanitizeText } from '../render/sanitize';
import { weightOf } from '../jsonWeight';

/** A title is a label: one line, this long at most. */
const MAX_TITLE_CHARS = 200;
/** What a tool does, not a manual: a longer description is cut here. */
const MAX_DESCRIPTION_CHARS = 8 * 1024;
/** A schema heavier than this is replaced by an open object schema (the pipeline still checks the real one). */
const MAX_SCHEMA_BYTES = 128 * 1024;

/** The definition a client of the gateway sees; `name` is the gateway's name for it. */
export interface GatewayToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema?: { type: 'object'; [key: string]: unknown };
  annotations: { title?: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

/**
 * A backend tool as the gateway forwards it. Everything in it came from a server: text is
 * sanitised and cut as our own listings do, schemas sanitised and bounded, and the annotations
 * are the effective ones (an untrusted server's hints at their worst), so a client that trusts
 * hints is told no more than our own policy believes.
 */
export function offeredDefinition(name: string, server: string, tool: Tool, annotations: EffectiveAnnotations): GatewayToolDefinition {
  const rawTitle = tool.title ?? tool.annotations?.title;
  const title = typeof rawTitle === 'string' ? cut(sanitizeLine(rawTitle), MAX_TITLE_CHARS) : undefined;
  const description = typeof tool.description === 'string' ? cut(sanitizeText(tool.description), MAX_DESCRIPTION_CHARS) : undefined;
  const outputSchema = objectSchema(tool.outputSchema);
  return {
    name,
    ...(title !== undefined && { title }),
    description: `${description ?? ''}${description ? '\n\n' : ''}(tool "${sanitizeLine(tool.name)}" of server "${sanitizeLine(server)}", through MCP Tool Host)`,
    inputSchema: objectSchema(tool.inputSchema) ?? { type: 'object' },
    ...(outputSchema && { outputSchema }),
    annotations: {
      ...(title !== undefined && { title }),
      readOnlyHint: annotations.readOnly.value,
      destructiveHint: annotations.destructive.value,
      idempotentHint: annotations.idempotent.value,
      openWorldHint: annotations.openWorld.value,
    },
  };
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A schema of type object, sanitised, within the weight limit; anything else is undefined. */
function objectSchema(schema: unknown): GatewayToolDefinition['inputSchema'] | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || (schema as { type?: unknown }).type !== 'object') return undefined;
  const weight = weightOf(schema);
  if (weight === undefined || weight > MAX_SCHEMA_BYTES) return undefined;
  return { ...(modelSchema(schema) as Record<string, unknown>), type: 'object' };
}
