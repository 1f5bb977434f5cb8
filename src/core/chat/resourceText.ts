// A resource as a model reads it: through `#mcpResource` in any chat, or attached to an `@mcp`
// request. The text is the core's (sanitised, secrets masked), cut to a cap; what is not text is
// named with its size.
import type { ReadOutcome, ResourcePart } from '../offers/offerTypes';
import { MAX_RESULT_CHARS_FOR_MODEL } from './callReport';
import { byteSize } from './promptText';
import { LM_READ_RESOURCE_TOOL } from './lmToolNames';
import type { Parsed } from './lmTools';
import { visibleLine } from '../render/sanitize';

export type ReadInput = { readonly server: string; readonly uri?: string };

/** `{server, uri?}` from a model: without `uri`, the server's resources are listed. */
export function parseReadInput(input: unknown): Parsed<ReadInput> {
  const value = typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : undefined;
  if (!value || typeof value.server !== 'string' || value.server === '') {
    return { ok: false, error: `Not read: ${LM_READ_RESOURCE_TOOL} needs "server", a non-empty string (and "uri", or none to list the server's resources).` };
  }
  if (value.uri !== undefined && (typeof value.uri !== 'string' || value.uri === '')) return { ok: false, error: 'Not read: "uri" must be a non-empty string.' };
  return { ok: true, value: { server: value.server, uri: value.uri as string | undefined } };
}

/** The parts of a read as one text: text parts in full, others named. */
export function partsText(parts: readonly ResourcePart[]): string {
  return parts
    .map((p) => (p.kind === 'text' ? p.text : `[binary ${visibleLine(p.uri)} (${visibleLine(p.mimeType ?? 'no type')}, ${byteSize(p.bytes.length)}): not included]`))
    .join('\n\n');
}

/** Text cut to `max` characters, saying how much was left out. */
export function cutText(text: string, max: number): { readonly text: string; readonly cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  const end = /[\ud800-\udbff]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return { text: `${text.slice(0, end)}\n[... ${text.length - end} more characters not included: the resource is larger than a model may read at once]`, cut: true };
}

/** What the model reads back from `#mcpResource`: the resource's text, capped like a tool's result, or why not. */
export function readResultText(server: string, uri: string, outcome: ReadOutcome): string {
  if (outcome.kind === 'denied') return `Not read: the user denied reading ${uri} from "${server}". ${outcome.message}`;
  if (outcome.kind === 'failed') return `Could not read ${uri} from "${server}": ${outcome.message}`;
  return cutText(partsText(outcome.parts), MAX_RESULT_CHARS_FOR_MODEL).text;
}
