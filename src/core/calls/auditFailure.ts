import { McpHostError } from '../errors';
import type { CallOutcome } from './callTypes';

/**
 * A call ended and its audit record could not be written (a full disk): the error carries the
 * outcome, so a surface still shows what the call did (it ran) beside the failure.
 */
export class AuditWriteError extends McpHostError {
  constructor(readonly outcome: CallOutcome, cause: unknown) {
    super(`its audit record could not be written (${(cause as NodeJS.ErrnoException).code ?? (cause instanceof Error ? cause.message : String(cause))})`, { cause });
  }
}
