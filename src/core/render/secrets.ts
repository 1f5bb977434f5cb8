import type { ServerLog } from '../serverLog';

export const MASK = '••••••';

/** Replaces every known secret value in the text (secrets shorter than 4 characters are left: too common to mask safely). */
export function maskSecrets(text: string, secrets: readonly string[] | undefined): string {
  let out = text;
  for (const secret of secrets ?? []) if (secret && secret.length >= 4) out = out.split(secret).join(MASK);
  return out;
}

/** A server log that masks the server's secrets, whatever the server (or we) write: stderr included. */
export function maskingLog(log: ServerLog, secrets: () => readonly string[]): ServerLog {
  return {
    info: (m) => log.info(maskSecrets(m, secrets())),
    warn: (m) => log.warn(maskSecrets(m, secrets())),
    error: (m) => log.error(maskSecrets(m, secrets())),
    stderr: (m) => log.stderr(maskSecrets(m, secrets())),
  };
}
