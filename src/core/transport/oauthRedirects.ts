/** The `name` of the error a refused redirect of an OAuth request throws (the sign-in tells it by name: it may come from another bundle's copy of this file). */
export const OAUTH_REDIRECT_REFUSED = 'OAuthRedirectRefused';

/**
 * `fetch` that never follows a redirect of an OAuth token or registration request to another
 * origin, and fails it with a sentence that says so. A token request carries the authorization
 * code and its PKCE verifier, a refresh token or a client secret; a 307 or 308 would send that
 * body, unchanged, wherever the endpoint points. The SDK already leaves such redirects unfollowed,
 * then reports the bare 307 as an unreadable OAuth error; this makes the refusal hold whatever
 * the caller asked (`redirect: 'manual'` for these requests) and makes it readable. A redirect
 * within the origin is left to the caller, and MCP messages pass untouched.
 */
export function refuseOAuthRedirects(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const kind = oauthRequestKind(init);
    if (!kind) return inner(input, init);
    const response = await inner(input, { ...init, redirect: 'manual' });
    const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
    if (location === null) return response;
    const from = new URL(input instanceof Request ? input.url : String(input));
    const to = URL.canParse(location, from.href) ? new URL(location, from) : undefined;
    if (to?.origin === from.origin) return response;
    await response.body?.cancel().catch(() => undefined);
    const error = new Error(`its ${kind} endpoint ${from.origin}${from.pathname} redirected the request to another origin${to ? ` (${to.origin})` : ''}: not followed, nothing was sent there. Tell the server's operator.`);
    error.name = OAUTH_REDIRECT_REFUSED;
    throw error;
  };
}

/**
 * Which OAuth request `init` is: a token request is a form (every grant, RFC 6749 §3.2); a dynamic
 * registration is JSON client metadata with `redirect_uris` (RFC 7591 §2), never a JSON-RPC message.
 */
function oauthRequestKind(init: RequestInit | undefined): 'token' | 'registration' | undefined {
  if ((init?.method ?? 'GET').toUpperCase() !== 'POST') return undefined;
  const body = init?.body;
  if (body instanceof URLSearchParams) return 'token';
  if (typeof body !== 'string' || body.includes('"jsonrpc"')) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null && Array.isArray((parsed as { redirect_uris?: unknown }).redirect_uris) ? 'registration' : undefined;
  } catch {
    return undefined;
  }
}
