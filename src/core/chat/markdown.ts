import { headOf, totalLength } from '../render/longText';
import { sanitizeLine, sanitizeText, shownArguments } from '../render/sanitize';

/**
 * Server text (a name, a title, a description) as literal Markdown on one line: sanitised, and
 * every character Markdown or the chat's HTML subset would interpret escaped, so a server can
 * neither format, link nor hide anything in the answer.
 */
export function mdText(text: string): string {
  return sanitizeLine(text).replace(/[\\`*_{}[\]()#+\-.!|<>~&:]/g, (c) => `\\${c}`);
}

/** Server text as inline code: a fence longer than any run of backticks inside it. */
export function mdCode(text: string): string {
  const clean = sanitizeLine(text);
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = clean.startsWith('`') || clean.endsWith('`') || clean === '' ? ' ' : '';
  return `${fence}${pad}${clean}${pad}${fence}`;
}

/** Server text as a fenced block (results), fenced longer than any run of backticks inside. */
export function mdBlock(text: string, language = ''): string {
  const clean = sanitizeText(text);
  const longest = Math.max(2, ...(clean.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${clean}\n${fence}`;
}

/**
 * Server text as a quote of literal lines: each line escaped as mdText escapes it, its breaks and
 * leading spaces kept. Long lines wrap, where a fenced block scrolls them out of sight: what a
 * prompt hides at the end of a long line is on screen.
 */
export function mdQuote(text: string): string {
  return sanitizeText(text)
    .split('\n')
    .map((line) => `> ${mdText(line).replace(/^ +/, (spaces) => '\u00a0'.repeat(spaces.length))}`)
    .join('  \n');
}

/** Arguments on one short line for a progress message: `{"name":"x"}` (`shownArguments`: hidden characters as escapes), cut with an ellipsis. */
export function shortArgs(args: unknown, max = 80): string {
  return shownArguments(args, max);
}

/** Text cut to `max` characters, with a note saying how much was left out and where it is. */
export function cutForModel(result: { readonly text: string; readonly pieces?: readonly string[] }, max: number, whereFull: string): string {
  // From the pieces when there are some: a long result's text is a rope, and slicing it would copy all of it first.
  const length = result.pieces ? totalLength(result.pieces) : result.text.length;
  if (length <= max) return result.text;
  const head = result.pieces ? headOf(result.pieces, max).join('') : result.text.slice(0, max);
  return `${head}\n[... ${length - max} more characters not shown; the whole result is in ${whereFull}]`;
}
