// ANSI/VT escape sequences (CSI, OSC, and two-byte ESC forms).
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
// C0/C1 controls except tab and newline; zero-width and bidi override characters.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

// Unicode tag characters: invisible, yet models read them ("ASCII smuggling").
const TAGS = /[\u{E0000}-\u{E007F}]/gu;
/** Anything `sanitizeText` would remove or change (CR and ESC are controls too). */
const NEEDS_SANITIZING = new RegExp(`${CONTROL.source}|${TAGS.source}`, 'u');

/**
 * Text from a server, made safe to show: no terminal escapes, control characters, zero-width
 * or bidirectional override characters (which can hide or reorder what the user reads).
 */
export function sanitizeText(text: string): string {
  if (!NEEDS_SANITIZING.test(text)) return text; // most text: one scan instead of four replaces
  return text.replace(ANSI, '').replace(/\r\n?/g, '\n').replace(CONTROL, '').replace(TAGS, '');
}

/** One line of server text (names, titles): newlines and tabs become spaces too. */
export function sanitizeLine(text: string): string {
  return sanitizeText(text).replace(/[\n\t]+/g, ' ');
}

/** Text longer than this is sanitised in slices (~3 ms each here), the event loop free between them. */
export const SANITIZE_SLICE_CHARS = 1 << 20;

/**
 * `sanitizeText` for text of any size without stopping the host: a 50 MiB result takes ~100 ms
 * to sanitise, so it goes in slices cut after a newline, yielding to the event loop between them
 * (the event loop is never blocked for more than 50 ms: ARCHITECTURE.md "Limits"). Escape sequences do not span
 * lines, so the result is the same as `sanitizeText`'s; a slice with no newline at all is cut at
 * its length, and then an escape sequence split by the cut loses its ESC but no more.
 */
export async function sanitizeLargeText(text: string): Promise<string> {
  if (text.length <= SANITIZE_SLICE_CHARS) return sanitizeText(text);
  const parts: string[] = [];
  let changed = false;
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + SANITIZE_SLICE_CHARS);
    if (end < text.length) {
      const newline = text.lastIndexOf('\n', end - 1);
      if (newline > at) end = newline + 1;
      else if (text[end - 1] === '\r') end--; // keep a CRLF together
      else if (/[\ud800-\udbff]/.test(text[end - 1])) end--; // and a surrogate pair (a tag character must stay whole to be removed)
    }
    const slice = text.slice(at, end);
    const clean = sanitizeText(slice);
    changed ||= clean !== slice;
    parts.push(clean);
    at = end;
    if (at < text.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return changed ? parts.join('') : text; // nothing removed: no copy of the whole text
}
