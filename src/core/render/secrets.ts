import type { ServerLog } from '../serverLog';
import { NOTHING_HIDDEN, sanitizeText } from './sanitize';

export const MASK = '••••••';

/** How deep `maskDeep` reads a value: a server's request is a few levels deep, one deeper is refused, not passed on unread. */
export const MAX_MASK_DEPTH = 64;

/**
 * Replaces every known secret value in the text (secrets shorter than 4 characters are left: too
 * common to mask safely), also one that characters a reader does not see split: text that holds a
 * secret once `sanitizeText` took those out is masked as sanitised, losing them (docs/security.md
 * "Secrets stay secret"). Raw text needs this (a gateway passes results on as the server sent
 * them); text to show is sanitised first (safeText).
 */
export function maskSecrets(text: string, secrets: readonly string[] | undefined): string {
  const out = maskWhole(text, secrets);
  // Most text costs one scan more than masking: no secrets, or nothing in it that could hide one.
  if (out === undefined || !mayHide(out, secrets ?? [])) return out ?? text;
  const clean = sanitizeText(out);
  if (clean === out || !(secrets ?? []).some((secret) => maskable(secret) && clean.includes(secret))) return out;
  return maskWhole(clean, secrets) ?? clean;
}

/**
 * Whether sanitising the text could make a secret whole: it holds a character sanitising takes out,
 * or a carriage return (sanitised, a newline) where a secret spans lines.
 */
function mayHide(text: string, secrets: readonly string[]): boolean {
  if (!NOTHING_HIDDEN.test(text)) return true;
  return text.includes('\r') && secrets.some((secret) => maskable(secret) && secret.includes('\n'));
}

/** The text with each secret's whole occurrences masked; undefined when there is no secret to mask. */
function maskWhole(text: string, secrets: readonly string[] | undefined): string | undefined {
  let out: string | undefined;
  for (const secret of secrets ?? []) if (maskable(secret)) out = (out ?? text).split(secret).join(MASK);
  return out;
}

const maskable = (secret: string): boolean => !!secret && secret.length >= 4;

/**
 * A copy of `value` (JSON a server sent) with `maskSecrets` applied to every string in it, keys
 * included; the value itself when there is no secret to mask. Undefined when it nests deeper than
 * `maxDepth`: what was not read cannot be said to be free of secrets, so the caller refuses it.
 */
export function maskDeep<T>(value: T, secrets: readonly string[] | undefined, maxDepth = MAX_MASK_DEPTH): T | undefined {
  if (!secrets?.some(maskable)) return value;
  const masked = maskedValue(value, secrets, maxDepth);
  return masked === TOO_DEEP ? undefined : (masked as T);
}

const TOO_DEEP = Symbol('too deep');

function maskedValue(value: unknown, secrets: readonly string[], depthLeft: number): unknown {
  if (typeof value === 'string') return maskSecrets(value, secrets);
  if (typeof value !== 'object' || value === null) return value;
  if (depthLeft <= 0) return TOO_DEEP;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const item of value) {
      const masked = maskedValue(item, secrets, depthLeft - 1);
      if (masked === TOO_DEEP) return TOO_DEEP;
      items.push(masked);
    }
    return items;
  }
  const entries: [string, unknown][] = [];
  for (const [key, item] of Object.entries(value)) {
    const masked = maskedValue(item, secrets, depthLeft - 1);
    if (masked === TOO_DEEP) return TOO_DEEP;
    entries.push([maskSecrets(key, secrets), masked]);
  }
  // fromEntries defines each key as a property of its own: a key "__proto__" stays a key.
  return Object.fromEntries(entries);
}

/**
 * Server text made safe to show and free of the server's secrets, in that order: a secret split
 * by a zero-width or escape character is whole again once sanitised, and only then masked.
 */
export function safeText(text: string, secrets: readonly string[] | undefined): string {
  // Sanitised text holds nothing sanitising would take out (it is its own sanitised text): its secrets are whole.
  const clean = sanitizeText(text);
  return maskWhole(clean, secrets) ?? clean;
}

/** A server log that sanitises and masks whatever the server (or we) write: stderr included. */
export function maskingLog(log: ServerLog, secrets: () => readonly string[]): ServerLog {
  return {
    info: (m) => log.info(safeText(m, secrets())),
    warn: (m) => log.warn(safeText(m, secrets())),
    error: (m) => log.error(safeText(m, secrets())),
    stderr: (m) => log.stderr(safeText(m, secrets())),
  };
}
