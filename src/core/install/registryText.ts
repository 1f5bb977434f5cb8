import { visibleLine } from '../render/sanitize';

/** Display bounds of a registry's text (the schema allows 100 for a description and a title). */
export const SHOWN_CHARS = { name: 200, title: 100, description: 300, version: 64, url: 300, label: 200, reason: 200 } as const;

/**
 * Text longer than this is not a description a registry checked (its schema allows 100): the
 * entry is shown cut, and nothing of it can be installed.
 */
export const MAX_DESCRIPTION_CHARS = 4096;

/**
 * A registry's text made safe to show on one line: cut to `max` characters (a `…` says so), then
 * every control, escape, direction or invisible character written as its `\uXXXX` escape, so
 * what a hostile entry hides is in plain sight instead of acting on the terminal or the reader.
 */
export function shown(value: string, max: number): string {
  if (value.length <= max) return visibleLine(value);
  // a surrogate pair is kept whole or left out, never halved
  const end = /[\ud800-\udbff]/.test(value[max - 1]) ? max - 1 : max;
  return `${visibleLine(value.slice(0, end))}…`;
}

// Terminal escapes and other C0/C1 controls (tab, newline and carriage return aside), direction
// overrides and isolates, and the invisible tag characters: no honest entry has a use for them.
// eslint-disable-next-line no-control-regex
const HIDING = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u{E0000}-\u{E007F}]/u;

/** What the text hides, said plainly, or undefined when it hides nothing. */
export function hiddenCharacters(value: string): string | undefined {
  const found = HIDING.exec(value);
  if (!found) return undefined;
  const code = found[0].codePointAt(0)!;
  const what = code === 0x1b ? 'a terminal escape sequence' : (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069) ? 'a text direction override' : code >= 0xe0000 ? 'invisible tag characters' : 'a control character';
  return `${what} (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
}
