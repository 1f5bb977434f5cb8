import { specTypeSchemas } from '@modelcontextprotocol/server';

/** A result fit to answer a tools/call with (its JSON), or why it is not (the SDK schema's issues). */
export type CheckedResult = { readonly ok: true; readonly json: string } | { readonly ok: false; readonly issues: string };

/**
 * The tools/call result the SDK's server would send for `result`, checked against its schema
 * (CallToolResult): JSON of what the schema passes, or its issues. The plainest result (text
 * blocks only, each exactly `type` then `text`, and at most structuredContent and a boolean
 * isError beside the content) passes that schema unchanged, so it is written without the
 * schema's walk; any other goes through the schema (resultCheck.test.ts holds the two equal).
 */
export function checkedResult(result: unknown): CheckedResult {
  if (plainTextResult(result)) return { ok: true, json: JSON.stringify(result) };
  const checked = specTypeSchemas.CallToolResult['~standard'].validate(result);
  if ('then' in checked) throw new Error('The result schema is not synchronous.');
  if (checked.issues) return { ok: false, issues: checked.issues.map((i) => i.message).join('; ') };
  return { ok: true, json: JSON.stringify(checked.value) };
}

const RESULT_KEYS: ReadonlySet<string> = new Set(['content', 'structuredContent', 'isError']);

/** Whether `result` is a plain object of RESULT_KEYS alone, in that order, its content text blocks of `type` and `text` alone. */
function plainTextResult(result: unknown): boolean {
  if (!isPlain(result)) return false;
  const keys = Object.keys(result);
  // The schema writes its keys in its own order (content, structuredContent, isError): the same order here, so the JSON is the same.
  if (keys[0] !== 'content') return false;
  for (let i = 1; i < keys.length; i++) if (!RESULT_KEYS.has(keys[i]) || (i === 2 && keys[1] !== 'structuredContent')) return false;
  if (result.isError !== undefined && typeof result.isError !== 'boolean') return false;
  const content = result.content;
  if (!Array.isArray(content)) return false;
  for (let i = 0; i < content.length; i++) {
    const block: unknown = content[i];
    if (!isPlain(block) || block.type !== 'text' || typeof block.text !== 'string') return false;
    const blockKeys = Object.keys(block);
    if (blockKeys.length !== 2 || blockKeys[0] !== 'type') return false;
  }
  return true;
}

/** An object made by JSON.parse or a literal: no array, no class instance, no getter the schema would run. */
function isPlain(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
