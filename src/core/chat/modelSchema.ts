import { sanitizeText } from '../render/sanitize';

/** Deeper than any real input schema; a decoy nested further is cut, not followed. */
const MAX_DEPTH = 64;

/**
 * A tool's input schema as a model may read it: every string (keys, descriptions, enum values,
 * patterns) sanitised like any server text, so no hidden instruction rides in on a tag or
 * zero-width character, and nesting past MAX_DEPTH dropped instead of recursed into.
 */
export function modelSchema(schema: unknown, depth = 0): unknown {
  if (typeof schema === 'string') return sanitizeText(schema);
  if (typeof schema !== 'object' || schema === null) return schema;
  if (depth >= MAX_DEPTH) return {};
  if (Array.isArray(schema)) return schema.map((item) => modelSchema(item, depth + 1));
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [sanitizeText(key), modelSchema(value, depth + 1)]));
}
