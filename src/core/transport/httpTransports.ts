import type { OAuthClientProvider, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { loadSdk } from '../packages/load';
import { loadTransport } from './load';
import { refuseOAuthRedirects } from './oauthRedirects';

/** What one message from the server may bring (see boundedFetch.ts), and where a dropped one is told. */
export interface MessageBound {
  readonly maxBytes: number;
  readonly onDropped: (sentence: string) => void;
}

export type HttpKind = 'streamable-http' | 'sse';

/** The SDK's HTTP transports: both take an OAuth provider and redeem a sign-in's code (`finishAuth`). */
export type HttpTransport = StreamableHTTPClientTransport | SSEClientTransport;

/**
 * A transport to a remote server: Streamable HTTP first; the caller falls back to the older
 * HTTP+SSE transport when the endpoint does not take a Streamable HTTP POST. `headers` go with
 * every request to the server's origin, the SSE stream's GET included, and never to another
 * origin (an authorization server the OAuth flow talks to). With `authProvider`, a 401 runs the
 * SDK's OAuth flow (see OAuthSignIn). Each answer and each event of a stream is bounded as it
 * arrives (`bound`): the SDK would hold a message whole before any limit could look at it. An
 * OAuth token or registration request is never redirected to another origin (oauthRedirects.ts).
 */
export function createHttpTransport(kind: HttpKind, url: string, headers: Readonly<Record<string, string>>, bound: MessageBound, authProvider?: OAuthClientProvider): HttpTransport {
  const withHeaders = loadTransport().boundedFetch(refuseOAuthRedirects(fetchWithHeaders(url, headers)), bound.maxBytes, bound.onDropped);
  const { SSEClientTransport, StreamableHTTPClientTransport } = loadSdk();
  return kind === 'streamable-http'
    ? new StreamableHTTPClientTransport(new URL(url), { fetch: withHeaders, authProvider })
    : new SSEClientTransport(new URL(url), { fetch: withHeaders, authProvider });
}

/** `fetch` that adds `headers` to requests for `url`'s origin only (the server's credentials stay with the server). */
export function fetchWithHeaders(url: string, headers: Readonly<Record<string, string>>): typeof fetch {
  const origin = new URL(url).origin;
  return (input, init) => {
    const target = input instanceof Request ? input.url : String(input);
    if (new URL(target, url).origin !== origin) return fetch(input, init);
    const merged = new Headers(init?.headers);
    for (const [k, v] of Object.entries(headers)) merged.set(k, v);
    return fetch(input, { ...init, headers: merged });
  };
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

/** One plain sentence for a failed HTTP connection: what happened and what to do (a failed sign-in says its own: serverFailures.ts). */
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
