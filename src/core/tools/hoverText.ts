/**
 * Server text for a hover (a tool's or a server's tooltip), as Markdown that wraps between words.
 * VS Code's `MarkdownString.appendText` writes every space as `&nbsp;`, so a long description
 * became one unbreakable line that the hover could only wrap inside a word ("a" / "pply").
 */

// Every character Markdown (or the HTML it allows) might read as syntax; `&` starts an entity.
const MARKDOWN_SYNTAX = /[\\`*_{}[\]()#+\-.!|<>~&]/g;

/**
 * Text as literal Markdown: syntax escaped, spaces kept as spaces (runs of them made one, as
 * Markdown shows them anyway), each line a paragraph as `appendText` makes it, leading spaces
 * dropped so an indented line never turns into a code block.
 */
export function hoverMarkdown(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim().replace(MARKDOWN_SYNTAX, (c) => `\\${c}`))
    .join('\n\n');
}

/** How far back from the limit a cut looks for a space before it cuts inside a (very long) word. */
const MAX_WORD_CHARS = 40;

/**
 * The start of a text, at most `max` characters, cut at a space or newline so no word is split
 * (only a "word" longer than 40 characters, a URL say, is cut inside); `left` is how many
 * characters were left out (0: the text is whole).
 */
export function cutAtSpace(text: string, max: number): { text: string; left: number } {
  if (text.length <= max) return { text, left: 0 };
  let end = max;
  // A space (or newline) at `max` itself means the first `max` characters end with a whole word.
  for (let at = max; at > 0 && at >= max - MAX_WORD_CHARS; at--) {
    if (/\s/.test(text[at])) {
      end = at;
      break;
    }
  }
  if (end === max && /[\ud800-\udbff]/.test(text[end - 1])) end--; // keep a surrogate pair whole
  const kept = text.slice(0, end).trimEnd();
  return { text: kept, left: text.length - kept.length };
}
