import type { ServerLog } from '../serverLog';
import { sanitizeText } from './sanitize';

export const MASK = '••••••';

/** Replaces every known secret value in the text (secrets shorter than 4 characters are left: too common to mask safely). */
export function maskSecrets(text: string, secrets: readonly string[] | undefined): string {
  let out = text;
  for (const secret of secrets ?? []) if (secret && secret.length >= 4) out = out.split(secret).join(MASK);
  return out;
}

/**
 * Server text made safe to show and free of the server's secrets, in that order: a secret split
 * by a zero-width or escape character is whole again once sanitised, and only then masked.
 */
export function safeText(text: string, secrets: readonly string[] | undefined): string {
  return maskSecrets(sanitizeText(text), secrets);
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
