import type { CallOutcome } from './callTypes';

/**
 * A call ended and its audit record could not be written (a full disk): the error carries the
 * outcome, so a surface still shows what the call did (it ran) beside the failure. An Error, not
 * an McpHostError: errors.ts would then be in a lazy bundle beside dist/extension.js's copy.
 */
export class AuditWriteError extends Error {
  constructor(readonly outcome: CallOutcome, cause: unknown) {
    super(`its audit record could not be written (${(cause as NodeJS.ErrnoException).code ?? (cause instanceof Error ? cause.message : String(cause))})`, { cause });
    this.name = 'AuditWriteError';
  }
}
