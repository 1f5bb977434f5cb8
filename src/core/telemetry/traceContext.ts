import type { SpanContext } from '@opentelemetry/api';

/** TraceFlags.SAMPLED: the one flag version 00 defines (the others are dropped). */
const SAMPLED = 1;

/** A W3C traceparent of version 00: version, trace id, parent id, flags; lowercase hex, nothing more. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const TRACEPARENT_LENGTH = 55;

/**
 * The remote parent a caller's `traceparent` names, or none. It comes from outside (a gateway's client):
 * anything but a well-formed version-00 value (another type, too long, upper case, all-zero ids) is
 * ignored, and the call starts a trace of its own.
 */
export function remoteParent(traceparent: unknown): SpanContext | undefined {
  // The length first: a megabyte of text is never handed to the pattern.
  if (typeof traceparent !== 'string' || traceparent.length !== TRACEPARENT_LENGTH) return undefined;
  const parts = TRACEPARENT.exec(traceparent);
  if (!parts) return undefined;
  const [, traceId, spanId, flags] = parts;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: parseInt(flags, 16) & SAMPLED, isRemote: true };
}

/** A failed request as a span tells it: `error.type` (the JSON-RPC code, `cancelled`, else `_OTHER`), the code, the text. */
export function requestError(error: unknown): { readonly type: string; readonly code?: string; readonly message: string } {
  const { code, name, message } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; name?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  if (typeof code === 'number' && Number.isInteger(code)) return { type: String(code), code: String(code), message: text };
  return { type: name === 'AbortError' ? 'cancelled' : '_OTHER', message: text };
}
