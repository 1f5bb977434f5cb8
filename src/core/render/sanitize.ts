// ANSI/VT escape sequences (CSI, OSC, and two-byte ESC forms).
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
// C0/C1 controls except tab and newline; zero-width and bidi override characters.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

// Unicode tag characters: invisible, yet models read them ("ASCII smuggling"); so are the
// Hangul and Mongolian fillers, the soft hyphen and the Arabic letter mark (a direction mark).
const TAGS = /[\u{E0000}-\u{E007F}\u00ad\u061c\u115f\u1160\u180e\u3164\uffa0]/gu;
// Variation selectors spell hidden bytes after a visible character ("emoji smuggling"). Only the
// text/emoji presentation selectors mean anything to a reader, and only one, right after a character.
const SELECTORS = /[\ufe00-\ufe0f\u{E0100}-\u{E01EF}]+/gu;
const PRESENTATION = /^[\ufe0e\ufe0f]/u;
// Line and paragraph separators break lines in editors and terminals: they are newlines.
const SEPARATORS = /[\u2028\u2029]/g;
/** Anything `sanitizeText` would remove or change (CR and ESC are controls too). */
const NEEDS_SANITIZING = new RegExp(`${CONTROL.source}|${TAGS.source}|${SELECTORS.source}|${SEPARATORS.source}`, 'u');

/**
 * Text from a server, made safe to show: no terminal escapes, control characters, zero-width
 * or bidirectional override characters (which can hide or reorder what the user reads).
 */
export function sanitizeText(text: string): string {
  if (!NEEDS_SANITIZING.test(text)) return text; // most text: one scan instead of four replaces
  return text
    .replace(ANSI, '')
    .replace(/\r\n?/g, '\n')
    .replace(SEPARATORS, '\n')
    .replace(CONTROL, '')
    .replace(TAGS, '')
    .replace(SELECTORS, keepPresentation);
}

/** A run of selectors keeps its first only when that is a presentation selector after a character. */
function keepPresentation(run: string, offset: number, text: string): string {
  const after = offset > 0 ? text[offset - 1] : '\n';
  return after !== '\n' && PRESENTATION.test(run) ? run[0] : '';
}

/** One line of server text (names, titles): newlines and tabs become spaces too. */
export function sanitizeLine(text: string): string {
  if (!NEEDS_LINE_SANITIZING.test(text)) return text; // most names: one scan, no copy
  return sanitizeText(text).replace(/[\n\t]+/g, ' ');
}
/** Anything `sanitizeLine` would remove or change. */
const NEEDS_LINE_SANITIZING = new RegExp(`${NEEDS_SANITIZING.source}|[\\n\\t]`, 'u');

/** Text longer than this is sanitised in slices (~3 ms each here), the event loop free between them. */
export const SANITIZE_SLICE_CHARS = 1 << 20;

/**
 * `sanitizeText` for text of any size, in pieces, without stopping the host: a 50 MiB result takes
 * ~100 ms to sanitise, so it goes in slices cut after a newline, yielding to the event loop between
 * them (the event loop is never blocked for more than 50 ms: ARCHITECTURE.md "Limits"). Escape
 * sequences do not span lines, so the result is the same as `sanitizeText`'s; a slice with no
 * newline at all is cut at its length, and then an escape sequence split by the cut loses its ESC
 * but no more. The answer stays in pieces too: joining 50 MiB is itself one long task.
 */
export async function sanitizeInPieces(pieces: readonly string[]): Promise<string[]> {
  let total = 0;
  for (const piece of pieces) total += piece.length;
  if (total <= SANITIZE_SLICE_CHARS) return pieces.map(sanitizeText);
  const clean: string[] = [];
  for (const text of pieces) {
    for (let at = 0; at < text.length; ) {
      // The task that brought a text this long already spent its time on copying it here: the first slice waits too.
      await new Promise<void>((resolve) => setImmediate(resolve));
      const end = sliceEnd(text, at);
      clean.push(sanitizeText(text.slice(at, end)));
      at = end;
    }
  }
  return clean;
}

/** Where a slice from `at` ends: after its last newline, or at its length, keeping a CRLF and a surrogate pair whole. */
function sliceEnd(text: string, at: number): number {
  const end = Math.min(text.length, at + SANITIZE_SLICE_CHARS);
  if (end === text.length) return end;
  const newline = text.lastIndexOf('\n', end - 1);
  if (newline > at) return newline + 1;
  // a CR kept with its LF; a surrogate pair kept whole (a tag character must stay whole to be removed)
  return text[end - 1] === '\r' || /[\ud800-\udbff]/.test(text[end - 1]) ? end - 1 : end;
}

// And what it leaves that still shows as nothing, or as a plain space: format and default-ignorable
// characters (a combining grapheme joiner, interlinear annotations), private-use, unassigned and lone
// surrogate code points, and every space but the space.
const UNSEEN = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/u;
// Everything sanitizeText removes or reads as a newline, and all that shows as nothing (tab and newline are JSON's to escape).
const INVISIBLE = new RegExp(`${CONTROL.source}|${TAGS.source}|${SELECTORS.source}|${SEPARATORS.source}|${UNSEEN.source}`, 'gu');

/**
 * JSON of a value as it will be sent, with every invisible, direction or control character
 * written as its `\uXXXX` escape: the same value to a parser, but a reader sees each one.
 * Arguments come from the user, a model or an edit; this is how the approval prompt shows them.
 */
export function visibleJson(value: unknown, indent?: number): string {
  const json = JSON.stringify(value, null, indent);
  return PLAINLY_VISIBLE.test(json) ? json : json.replace(INVISIBLE, escapeUnits);
}

// Printable ASCII, Latin-1's visible letters and signs, and the visible punctuation, arrows and shapes hold nothing
// INVISIBLE matches (sanitize.test walks every one): most text, an audit line's "·" too, is told so by one scan, not the
// Unicode property classes (~2.4 µs of a gateway call's audit line).
const PLAIN = '\\x20-\\x7e\\u00a1-\\u00ac\\u00ae-\\u00ff\\u2010-\\u2027\\u2030-\\u205e\\u2190-\\u21ff\\u2500-\\u25ff';
const PLAINLY_VISIBLE = new RegExp(`^[${PLAIN}]*$`);

/**
 * Text of those characters, tabs and line ends alone holds nothing `sanitizeText` takes out, so nothing
 * that can split a secret (maskSecrets.test checks every character against sanitizeText): one scan.
 */
export const NOTHING_HIDDEN = new RegExp(`^[\\t\\n\\r${PLAIN}]*$`);

/**
 * One line of text as it really is: every invisible, direction or control character written as
 * its `\\uXXXX` escape, newlines and tabs as `\\n` and `\\t`. For what will run (a command line a
 * workspace wrote), where removing a character would hide it.
 */
export function visibleLine(text: string): string {
  if (PLAINLY_VISIBLE.test(text)) return text;
  return text.replace(INVISIBLE, escapeUnits).replace(/\n/g, '\\n').replace(/\t/g, '\\t');
}

/**
 * Text of many lines as it really is, for what a model will be sent (a prompt's messages): every
 * invisible, direction or control character written as its `\\uXXXX` escape, newlines and tabs
 * kept. Shown and sent alike, so an instruction hidden in invisible characters is in plain sight.
 */
export function visibleText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(INVISIBLE, escapeUnits);
}

/**
 * A name a call is addressed by (a tool's, a server's), as every surface shows it: `visibleLine`
 * with each backslash doubled, so two names never read alike (not one that differs by an invisible
 * or direction character, nor one that spells the escape out). Prose (titles, descriptions) is
 * sanitised instead (`sanitizeLine`).
 */
export function shownName(name: string): string {
  return visibleLine(name.replace(/\\/g, '\\\\'));
}

/** A tool as a row, a prompt or a title names it: its title, sanitised (prose), or without one its name as `shownName` writes it. */
export function shownTitle(tool: { readonly name: string; readonly title?: string; readonly annotations?: { readonly title?: string } }): string {
  const title = tool.title || tool.annotations?.title;
  return title ? sanitizeLine(title) : shownName(tool.name);
}

/**
 * Arguments as every surface shows them (the approval prompt, the output channel, chat, the CLI):
 * `visibleJson` on one line, so what a reader sees is what is sent (a model or an interface may
 * choose arguments that hide or reorder text); past `max` characters, cut and ended with "…".
 */
export function shownArguments(args: unknown, max = Infinity): string {
  let json: string;
  try {
    json = visibleJson(args);
  } catch {
    return '(arguments cannot be printed)';
  }
  if (json.length <= max) return json;
  const end = Math.max(0, max - 1);
  return `${json.slice(0, /[\ud800-\udbff]/.test(json[end - 1] ?? '') ? end - 1 : end)}…`;
}

/** Each UTF-16 code unit as `\\uXXXX` (a character outside the basic plane is a surrogate pair). */
function escapeUnits(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += `\\u${text.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`;
  return out;
}
