/**
 * The URIs a gateway client reads resources by. A server's URI is kept as it is when no other
 * offered server lists (or templates) the same; every resource can also be read as
 * `mcp-tool-host://<server prefix>/<the server's URI, verbatim>`, which is how a URI two servers
 * share is offered (docs/gateway.md). The prefix is the server's tool prefix (from the
 * configuration, never from what a server sends), so a server cannot name a URI that reads
 * through another: a URI of its own in our scheme is itself offered wrapped.
 */
export const WRAP_SCHEME = 'mcp-tool-host://';

/** `uri` of the server with this prefix, in the form that always names that server. */
export function wrappedUri(prefix: string, uri: string): string {
  return `${WRAP_SCHEME}${prefix}/${uri}`;
}

/** The server prefix and its own URI of a wrapped URI; undefined for any other. */
export function unwrapUri(uri: string): { readonly prefix: string; readonly uri: string } | undefined {
  if (!uri.toLowerCase().startsWith(WRAP_SCHEME)) return undefined;
  const rest = uri.slice(WRAP_SCHEME.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return undefined;
  return { prefix: rest.slice(0, slash), uri: rest.slice(slash + 1) };
}

/** A URI (or template) a server may keep as it is: not one in our own scheme. */
export const mayStayPlain = (uri: string) => !uri.toLowerCase().startsWith(WRAP_SCHEME);

/**
 * Whether `uri` could be an expansion of the RFC 6570 `template`: its literal text in order, each
 * expression standing for any text. Loose on purpose: it only picks which server a URI goes to
 * (the server itself decides what the URI means), and a URI two servers could take is refused.
 */
export function templateMatches(template: string, uri: string): boolean {
  const parts = template.split(/\{[^}]*\}/);
  if (parts.length === 1) return template === uri;
  if (!uri.startsWith(parts[0]) || !uri.endsWith(parts[parts.length - 1])) return false;
  let at = parts[0].length;
  const end = uri.length - parts[parts.length - 1].length;
  if (end < at) return false;
  for (const part of parts.slice(1, -1)) {
    const found = uri.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}
