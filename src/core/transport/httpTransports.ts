import { SSEClientTransport, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';

export type HttpKind = 'streamable-http' | 'sse';

/**
 * A transport to a remote server: Streamable HTTP first; the caller falls back to the older
 * HTTP+SSE transport when the endpoint does not take a Streamable HTTP POST. `headers` go with
 * every request, the SSE stream's GET included.
 */
export function createHttpTransport(kind: HttpKind, url: string, headers: Readonly<Record<string, string>>): Transport {
  const withHeaders: typeof fetch = (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [k, v] of Object.entries(headers)) merged.set(k, v);
    return fetch(input, { ...init, headers: merged });
  };
  return kind === 'streamable-http'
    ? new StreamableHTTPClientTransport(new URL(url), { fetch: withHeaders })
    : new SSEClientTransport(new URL(url), { fetch: withHeaders });
}

/** The HTTP status an SDK transport error carries, if any. */
export function httpStatus(err: unknown): number | undefined {
  const e = err as { status?: unknown; code?: unknown } | undefined;
  if (typeof e?.status === 'number') return e.status;
  if (typeof e?.code === 'number' && e.code >= 100 && e.code < 600) return e.code;
  return undefined;
}

/** Per the spec's backwards-compatibility section: 4xx to the POST means "try the SSE transport". */
export function shouldTrySse(err: unknown): boolean {
  const status = httpStatus(err);
  return status === 400 || status === 404 || status === 405;
}

/** One plain sentence for a failed HTTP connection: what happened and what to do. */
export function explainHttpFailure(err: unknown, url: string): string {
  const status = httpStatus(err);
  const message = err instanceof Error ? err.message : String(err);
  const cause = (err as { cause?: { code?: string } } | undefined)?.cause?.code;
  if (status === 401 || status === 403) {
    return `The server at ${url} answered ${status} ${status === 401 ? 'Unauthorized' : 'Forbidden'}: it needs credentials. Check the "headers" of this server (for example an Authorization header with a token).`;
  }
  if (status === 404) return `The server at ${url} answered 404 Not Found: check the URL's path (MCP endpoints are often /mcp or /sse).`;
  if (status !== undefined) return `The server at ${url} answered HTTP ${status}: ${message}`;
  if (cause === 'ECONNREFUSED' || /ECONNREFUSED|fetch failed|bad port/i.test(message)) {
    return `Could not connect to ${url}: the connection was refused or failed. Is the server running, and is the address right?`;
  }
  if (cause === 'ENOTFOUND') return `Could not connect to ${url}: the host name does not resolve.`;
  return `Could not connect to ${url}: ${message}`;
}
