import { maskSecrets } from '../render/secrets';
import type { CallEnd } from './telemetry';

/** A span carries at most this much of the arguments or the result: a 50 MiB result is not a span attribute. */
const MAX_CONTENT_CHARS = 16 * 1024;

/** What a call's span says of how it ended. */
export interface CallRecord {
  readonly outcome: string;
  readonly decision: string;
  /** The semantic conventions' `error.type`: set when the call was sent and did not succeed. */
  readonly errorType?: string;
  /** The JSON-RPC error code, for `rpc.response.status_code`. */
  readonly statusCode?: string;
  readonly errorMessage?: string;
  readonly arguments?: string;
  readonly result?: string;
}

/**
 * How a call ended, for its span. The arguments, the result and the error's text (a server's
 * error may quote the arguments) go only when the user opted in for the server (`content`), secrets masked.
 */
export function callRecord(end: CallEnd, content: boolean): CallRecord {
  const { outcome } = end;
  const errorType = errorTypeOf(outcome.kind, outcome.code);
  const base = { outcome: outcome.kind, decision: end.decision, ...(errorType !== undefined && { errorType }), ...(outcome.code !== undefined && { statusCode: String(outcome.code) }) };
  if (!content) return base;
  return {
    ...base,
    arguments: capped(maskedJson(end.sentArgs, end.secrets)),
    // The outcome's text and message are masked already (the pipeline masks every outcome).
    ...(outcome.result !== undefined && { result: capped(maskSecrets(outcome.result.text, end.secrets)) }),
    ...(outcome.message !== undefined && { errorMessage: capped(maskSecrets(outcome.message, end.secrets)) }),
  };
}

/** `error.type`: the JSON-RPC code, `tool_error` for an isError result; none for a call never sent (denied, invalid). */
function errorTypeOf(kind: string, code: number | undefined): string | undefined {
  switch (kind) {
    case 'tool-error':
      return 'tool_error';
    case 'protocol-error':
      return String(code);
    case 'timeout':
    case 'cancelled':
      return kind;
    case 'failed':
      return '_OTHER';
    default:
      return undefined;
  }
}

/** Each string masked before it is quoted: JSON escaping would hide a secret that holds a quote or a backslash. */
function maskedJson(value: unknown, secrets: readonly string[] | undefined): string {
  try {
    return maskSecrets(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? maskSecrets(v, secrets) : v)), secrets);
  } catch {
    return '(arguments that cannot be written as JSON)';
  }
}

export function capped(text: string): string {
  return text.length <= MAX_CONTENT_CHARS ? text : `${text.slice(0, MAX_CONTENT_CHARS)}… (${text.length - MAX_CONTENT_CHARS} more characters not exported)`;
}
