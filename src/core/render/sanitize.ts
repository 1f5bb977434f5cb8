// ANSI/VT escape sequences (CSI, OSC, and two-byte ESC forms).
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
// C0/C1 controls except tab and newline; zero-width and bidi override characters.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/**
 * Text from a server, made safe to show: no terminal escapes, control characters, zero-width
 * or bidirectional override characters (which can hide or reorder what the user reads).
 */
export function sanitizeText(text: string): string {
  return text.replace(ANSI, '').replace(/\r\n?/g, '\n').replace(CONTROL, '');
}

/** One line of server text (names, titles): newlines and tabs become spaces too. */
export function sanitizeLine(text: string): string {
  return sanitizeText(text).replace(/[\n\t]+/g, ' ');
}
