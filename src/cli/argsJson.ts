import { CliError } from './args';

/** The arguments of --args: a JSON object (none: `{}`); anything else is a CliError (exit 2) saying what is wrong. */
export function parseArgsJson(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CliError(`--args is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CliError('--args must be a JSON object, as in --args \'{"name":"x"}\'.');
  return value as Record<string, unknown>;
}
