import { visibleJson } from '../core/render/sanitize';
import { CliError, Exit, HELP_HINT, type ExitCode } from './args';

/** Says why a command failed (stderr, or the JSON with --json) and gives its exit code. */
export function failure(err: unknown, json: boolean): ExitCode {
  const code = err instanceof CliError ? err.code : Exit.connection;
  const message = err instanceof Error ? err.message : String(err);
  if (json) console.log(visibleJson({ error: { code, message } }, 2));
  // A usage error is one line and where the help is: the whole help would bury the line that is wrong.
  else console.error(err instanceof CliError ? `${message}${err.pointsToHelp ? `\n${HELP_HINT}` : ''}` : `error: ${message}`);
  return code;
}
