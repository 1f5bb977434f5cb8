// The read tool a model gets beside a cut result: a page of it from an offset, or the lines that
// contain a text. Plain substring search, not a regular expression: a model's pattern run over
// 50 MiB by a backtracking engine can take exponential time, and a substring takes linear time.
import { cleanCut, fitText, safeEnd } from './resultBudget';
import type { KeptText, ResultStore } from './resultStore';

/** The read tool's name in `@mcp` (the language-model tool is `mcpToolHost_readResult`). */
export const READ_RESULT_TOOL_NAME = 'read_result';
const MAX_PATTERN_CHARS = 200;
const MAX_CONTEXT_LINES = 5;
export const DEFAULT_MATCHES = 20;
const MAX_MATCHES = 100;
/** A line of a search answer is shown up to this many characters around the match. */
const LINE_CHARS = 300;

/** The read tool's input, as a model sees it (package.json repeats it for the language-model tool). */
export const READ_RESULT_SCHEMA = {
  type: 'object',
  properties: {
    handle: { type: 'string', description: 'The handle a cut result named, for example "mcpres_…".' },
    offset: { type: 'integer', minimum: 0, description: 'Where to start, in characters from the start of the result (default 0). With "pattern": where the search starts.' },
    length: { type: 'integer', minimum: 1, description: 'How many characters to read (default: as many as the budget allows).' },
    pattern: { type: 'string', description: 'Instead of a page: find the lines that contain this text (plain text, not a regular expression; ASCII letters match either case).' },
    context: { type: 'integer', minimum: 0, maximum: MAX_CONTEXT_LINES, description: 'With "pattern": lines shown before and after each match (default 1).' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_MATCHES, description: `With "pattern": the most matches returned (default ${DEFAULT_MATCHES}).` },
  },
  required: ['handle'],
} as const;

export function readResultDefinition(name: string): { name: string; description: string; inputSchema: Record<string, unknown> } {
  return {
    name,
    description: 'Read more of a tool result the host cut to fit its token budget: a page from an offset, or the lines that contain a text. Use the handle the cut result named.',
    inputSchema: READ_RESULT_SCHEMA as unknown as Record<string, unknown>,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const wholeIn = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const n = (v: number) => v.toLocaleString('en-US');

/**
 * Answers one read: a page or a search of the kept result, within `budget(server, tool)` tokens.
 * Every mistake is a sentence the model can act on (a forged or expired handle, an offset past
 * the end, a negative length), never an exception.
 */
export function readResult(store: ResultStore, input: unknown, budget: (server: string, tool: string) => number, count: (text: string) => number, toolName: string, client?: string): string {
  if (!isObject(input)) return `Not read: ${toolName} needs an object with "handle" and either "offset" or "pattern".`;
  const found = store.get(input.handle, client);
  if (!found.ok) return found.error;
  const kept = found.kept;
  const tokens = budget(kept.server, kept.tool);
  const offset = input.offset ?? 0;
  if (!wholeIn(offset, 0, kept.length)) return `Not read: "offset" must be a whole number from 0 to ${kept.length} (the result's length in characters).`;
  if (input.pattern !== undefined) {
    if (typeof input.pattern !== 'string' || input.pattern === '' || input.pattern.length > MAX_PATTERN_CHARS) return `Not searched: "pattern" must be text of 1 to ${MAX_PATTERN_CHARS} characters.`;
    const context = input.context ?? 1;
    if (!wholeIn(context, 0, MAX_CONTEXT_LINES)) return `Not searched: "context" must be a whole number from 0 to ${MAX_CONTEXT_LINES}.`;
    const limit = input.limit ?? DEFAULT_MATCHES;
    if (!wholeIn(limit, 1, MAX_MATCHES)) return `Not searched: "limit" must be a whole number from 1 to ${MAX_MATCHES}.`;
    return searchText(kept, input.handle as string, input.pattern, { from: offset, context, limit }, tokens, count, toolName);
  }
  if (input.length !== undefined && !wholeIn(input.length, 1, Number.MAX_SAFE_INTEGER)) return 'Not read: "length" must be a whole number of characters, 1 or more.';
  return page(kept, input.handle as string, offset, input.length as number | undefined, tokens, count, toolName);
}

function page(kept: KeptText, handle: string, offset: number, length: number | undefined, budget: number, count: (text: string) => number, toolName: string): string {
  if (offset === kept.length) return `Nothing after offset ${n(offset)}: that is the end of the result (${n(kept.length)} characters).`;
  // An offset between the halves of a surrogate pair starts at the pair.
  const start = offset > 0 && safeEnd(kept.slice(offset - 1, offset + 1), 1) === 0 ? offset - 1 : offset;
  const end = Math.min(kept.length, start + (length ?? Number.MAX_SAFE_INTEGER), start + budget * 8);
  const fit = fitText([kept.slice(start, end)], budget, count);
  const to = start + fit.head.length;
  const rest = to < kept.length ? `[Characters ${n(start)} to ${n(to)} of ${n(kept.length)}. To read on, call ${toolName} with {"handle": "${handle}", "offset": ${to}}.]` : `[Characters ${n(start)} to ${n(to)} of ${n(kept.length)}: the end of the result.]`;
  return `${fit.head}\n${rest}`;
}

/** A text folded for a search that ignores the case of ASCII letters and keeps every offset. */
function fold(text: string): string {
  const lower = text.toLowerCase();
  return lower.length === text.length ? lower : text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

function searchText(kept: KeptText, handle: string, pattern: string, options: { from: number; context: number; limit: number }, budget: number, count: (text: string) => number, toolName: string): string {
  const needle = fold(pattern);
  const matches: number[] = [];
  let next = options.from;
  let more = false;
  let carry = '';
  search: for (const chunk of kept.chunks()) {
    if (chunk.start + chunk.text.length <= next) continue;
    const windowStart = chunk.start - carry.length;
    const hay = fold(carry + chunk.text);
    for (let at = hay.indexOf(needle, Math.max(0, next - windowStart)); at >= 0; at = hay.indexOf(needle, Math.max(0, next - windowStart))) {
      const p = windowStart + at;
      if (matches.length === options.limit) {
        more = true;
        break search;
      }
      matches.push(p);
      next = lineEnd(kept, p) + 1; // one entry per line
    }
    carry = chunk.text.slice(Math.max(0, chunk.text.length - (needle.length - 1)));
  }
  if (matches.length === 0) return `No line contains "${pattern}" after offset ${n(options.from)} of the result (${n(kept.length)} characters).`;
  const blocks: string[] = [];
  let line = 1 + kept.newlines(0, matches[0]);
  let counted = matches[0];
  for (const p of matches) {
    line += kept.newlines(counted, p);
    counted = p;
    blocks.push(matchBlock(kept, p, line, options.context));
  }
  const resume = more ? ` More matches follow: call ${toolName} with {"handle": "${handle}", "pattern": ${JSON.stringify(pattern)}, "offset": ${next}}.` : '';
  const text = `${matches.length} line(s) contain "${pattern}" (offsets in characters).${resume}\n\n${blocks.join('\n\n')}`;
  const fit = fitText([text], budget, count);
  return fit.cut ? `${fit.head}\n[More matches than the budget of ${n(budget)} tokens shows: search again with a "limit" or "context" smaller, or an "offset" further on.]` : fit.head;
}

/** The offset of the line break that ends the line at `p` (or the result's length), looking at most LINE_CHARS ahead. */
function lineEnd(kept: KeptText, p: number): number {
  const ahead = kept.slice(p, p + LINE_CHARS);
  const at = ahead.indexOf('\n');
  return at >= 0 ? p + at : p + ahead.length;
}

function matchBlock(kept: KeptText, p: number, line: number, context: number): string {
  const behind = kept.slice(Math.max(0, p - LINE_CHARS), p);
  const startAt = behind.lastIndexOf('\n');
  const lineStart = startAt >= 0 ? p - behind.length + startAt + 1 : Math.max(0, p - LINE_CHARS);
  const end = lineEnd(kept, p);
  const shown = (from: number, to: number, whole: boolean) => `${whole ? '' : '…'}${kept.slice(from, to)}${to < kept.length && kept.slice(to, to + 1) !== '\n' ? '…' : ''}`;
  const out: string[] = [];
  if (context > 0 && lineStart > 0) {
    const before = kept.slice(Math.max(0, lineStart - 1 - context * LINE_CHARS), lineStart - 1).split('\n').slice(-context);
    before.forEach((text, i) => out.push(`  ${line - before.length + i}| ${cleanCut(text, LINE_CHARS)}`));
  }
  out.push(`> ${line}| ${shown(lineStart, end, startAt >= 0 || lineStart === 0)}   (offset ${p})`);
  if (context > 0 && end < kept.length) {
    const after = kept.slice(end + 1, end + 1 + context * LINE_CHARS).split('\n').slice(0, context);
    after.forEach((text, i) => out.push(`  ${line + 1 + i}| ${cleanCut(text, LINE_CHARS)}`));
  }
  return out.join('\n');
}
