import { sanitizeLine } from '../render/sanitize';

/** How a call failed once it was sent: the end of a CallOutcome (callPipeline.ts) that describeCallError gives. */
export type CallFailure =
  /**
   * The server answered with a JSON-RPC error (unknown tool, invalid params, internal error).
   * `requiredCapabilities`: the client capabilities a -32021 (missing client capability) names.
   */
  | { readonly kind: 'protocol-error'; readonly code: number; readonly message: string; readonly requiredCapabilities?: readonly string[] }
  | { readonly kind: 'timeout'; readonly message: string }
  /** `sent`: the call was sent (or on its way) when it failed, so the server may have run part of it. */
  | { readonly kind: 'failed'; readonly message: string; readonly sent?: true };

const JSON_RPC_NAMES: Record<number, string> = {
  [-32700]: 'parse error',
  [-32600]: 'invalid request',
  [-32601]: 'method not found',
  [-32602]: 'invalid params',
  [-32603]: 'internal error',
};

/**
 * Tells apart why a call failed: a JSON-RPC error from the server (protocol error, with its
 * code), a timeout (and which one), or anything else (connection lost, transport limits).
 */
export function describeCallError(err: unknown, limits: { timeoutSeconds: number; maxTotalSeconds: number }): CallFailure {
  const e = err as { code?: unknown; message?: unknown; data?: { timeout?: number; maxTotalTimeout?: number } } | undefined;
  const message = sanitizeLine(err instanceof Error ? err.message : String(err));
  if (e && typeof e.code === 'number' && e.code !== -32001 && e.code !== -32000) {
    const name = JSON_RPC_NAMES[e.code];
    const said = `${stripPrefix(message)}${dataText(e.data)}`;
    const required = e.code === MISSING_CAPABILITY ? capabilityNames(e.data) : [];
    return { kind: 'protocol-error', code: e.code, message: name ? `${name}: ${said}` : said, ...(required.length > 0 && { requiredCapabilities: required }) };
  }
  if (e?.code === 'REQUEST_TIMEOUT' || e?.code === -32001 || /timed out|timeout/i.test(message)) {
    const total = /maximum total timeout|maxTotalTimeout/i.test(message) || e?.data?.maxTotalTimeout !== undefined;
    return {
      kind: 'timeout',
      message: total
        ? `the call ran longer than ${limits.maxTotalSeconds} s in all (maxTotalTimeoutSeconds), progress or not.`
        : `no result or progress for ${limits.timeoutSeconds} s (timeoutSeconds; progress notifications reset it).`,
    };
  }
  return { kind: 'failed', message, sent: true };
}

/** MissingRequiredClientCapabilityError: the request needed a client capability it did not declare. */
export const MISSING_CAPABILITY = -32021;

/** The capabilities a -32021's `data.requiredCapabilities` names: the input kinds only (what a server sends is not trusted further). */
function capabilityNames(data: unknown): string[] {
  const required = typeof data === 'object' && data !== null ? (data as { requiredCapabilities?: unknown }).requiredCapabilities : undefined;
  if (typeof required !== 'object' || required === null || Array.isArray(required)) return [];
  return ['sampling', 'elicitation', 'roots'].filter((name) => Object.hasOwn(required, name));
}

/** What an error's `data` adds, on one line: `reason: ...` for an object, the text for a string; at most 500 characters. */
function dataText(data: unknown): string {
  if (data === undefined || data === null) return '';
  const text =
    typeof data === 'string' ? data
    : typeof data === 'object' && !Array.isArray(data) ? Object.entries(data).map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('; ')
    : JSON.stringify(data);
  const line = sanitizeLine(text ?? '').trim();
  if (!line) return '';
  return ` (${line.length > 500 ? `${line.slice(0, 499)}…` : line})`;
}

function stripPrefix(message: string): string {
  return message.replace(/^MCP error -?\d+: /, '');
}
