// A tool's interface (MCP Apps, `io.modelcontextprotocol/ui`; docs/mcp-apps.md): which resource
// holds it, whether what the server sent is one, and the Content-Security-Policy it runs under.
// Everything here comes from the server and is checked as hostile input.
import type { ServerSpec } from '../config/serverConfig';
import { loadCsp } from './load';
import type { AppCsp, AppServerPlace, RefusedOrigin } from './cspOrigins';

/** The mime type of an interface resource (ext-apps RESOURCE_MIME_TYPE). */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The largest interface we render; the example apps are ~220 KB with everything inlined. */
export const MAX_APP_HTML_BYTES = 4 * 1024 * 1024;
/** How many domains one CSP list may name. */
const MAX_DOMAINS = 32;

export { appReferenceOf, type AppReference } from './appReference';
export type { AppCsp, AppServerPlace, RefusedOrigin } from './cspOrigins';

/** An interface ready to render: its HTML and the policy it declared, checked. */
export interface AppDocument {
  readonly uri: string;
  readonly html: string;
  /** What it declared, less what it may not name from where its server runs (cspOrigins.ts). */
  readonly csp: AppCsp;
  /** The policy, as a header value (the webview's and the frame's). */
  readonly policy: string;
  /** The origins it declared and may not name, with why: the user is told (refusedSentence). */
  readonly refused: readonly RefusedOrigin[];
  /** Where its server runs, which decided `refused`. */
  readonly place: AppServerPlace;
}

/** Why a resource cannot be rendered as an interface; the message is one plain sentence. */
export class AppResourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = this.constructor.name;
  }
}

type Content = { readonly uri?: unknown; readonly mimeType?: unknown; readonly text?: unknown; readonly blob?: unknown; readonly _meta?: unknown };

/**
 * Where a server runs, for what its interface may reach: a remote one elsewhere (its URL's origin
 * stays reachable), a sandboxed local one elsewhere too, an unsandboxed local one on this machine.
 * An unknown server counts as remote (the strictest).
 */
export function appServerPlace(spec: ServerSpec | undefined): AppServerPlace {
  if (spec === undefined) return { kind: 'elsewhere', why: 'remote' };
  if (spec.type === 'stdio') return spec.sandbox ? { kind: 'elsewhere', why: 'sandboxed' } : { kind: 'this-machine' };
  try {
    const url = new URL(spec.url);
    return { kind: 'elsewhere', why: 'remote', origin: `${url.protocol}//${url.host}` };
  } catch {
    return { kind: 'elsewhere', why: 'remote' };
  }
}

/**
 * The interface in a `resources/read` answer: the content item for `uri` (or the only one), HTML
 * with the MCP Apps mime type, as text, under MAX_APP_HTML_BYTES, and its CSP checked: for syntax
 * (a bad origin fails it), then for where its server runs (`place`: an origin it may not name is
 * left out and listed in `refused`; cspOrigins.ts).
 * @throws AppResourceError saying what is wrong.
 */
export function appDocumentOf(uri: string, contents: readonly Content[], place: AppServerPlace): AppDocument {
  const item = contents.find((c) => c.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (!item) throw new AppResourceError(`The server's answer for ${uri} holds no content for it.`);
  const mime = typeof item.mimeType === 'string' ? item.mimeType.replace(/\s+/g, '').toLowerCase() : '';
  if (mime !== APP_MIME_TYPE && mime !== 'text/html') throw new AppResourceError(`The interface is not HTML (mime type "${String(item.mimeType).slice(0, 60)}").`);
  if (typeof item.text !== 'string') throw new AppResourceError('The interface was sent as binary content; only text HTML is rendered.');
  if (Buffer.byteLength(item.text, 'utf8') > MAX_APP_HTML_BYTES) throw new AppResourceError(`The interface is larger than ${MAX_APP_HTML_BYTES / (1024 * 1024)} MiB; it is not rendered.`);
  const ui = isRecord(item._meta) && isRecord(item._meta.ui) ? item._meta.ui : {};
  const { csp, refused } = loadCsp().screenCsp(appCspOf(ui.csp), place);
  return { uri, html: item.text, csp, policy: contentSecurityPolicy(csp), refused, place };
}

/**
 * Checks `_meta.ui.csp`: four optional lists of origins. A list that is not an array of strings, or
 * a domain that is not a plain origin, fails the interface (a policy quietly narrowed would break it
 * in ways nobody could explain; one quietly widened would be worse).
 */
export function appCspOf(raw: unknown): AppCsp {
  if (raw === undefined || raw === null) return { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
  if (!isRecord(raw)) throw new AppResourceError('The interface declares a CSP that is not an object.');
  const list = (key: string): readonly string[] => {
    const value = raw[key];
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new AppResourceError(`The interface's CSP ${key} is not a list.`);
    if (value.length > MAX_DOMAINS) throw new AppResourceError(`The interface's CSP ${key} names more than ${MAX_DOMAINS} domains.`);
    return value.map((d) => cspOrigin(key, d));
  };
  return { connectDomains: list('connectDomains'), resourceDomains: list('resourceDomains'), frameDomains: list('frameDomains'), baseUriDomains: list('baseUriDomains') };
}

// scheme://host[:port], host a DNS name (its leftmost label may be `*`), localhost or an IPv4
// address; nothing else: no path, query, quotes, `;`, `,`, spaces, keywords or bare schemes.
const ORIGIN = /^(https?|wss?):\/\/(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?\/?$/i;

function cspOrigin(key: string, domain: unknown): string {
  const shown = typeof domain === 'string' ? JSON.stringify(domain.slice(0, 80)) : typeof domain;
  // CSP's host grammar has no IPv6 literals (CSP3 host-char: letters, digits, "-"): say so plainly.
  if (typeof domain === 'string' && /^[a-z]+:\/\/\[/i.test(domain)) throw new AppResourceError(`The interface's CSP ${key} names ${shown}, an IPv6 address, which a CSP cannot name.`);
  if (typeof domain !== 'string' || domain.length > 260 || !ORIGIN.test(domain) || !parsesAsHost(domain)) {
    throw new AppResourceError(`The interface's CSP ${key} names ${shown}, which is not an origin like https://example.com.`);
  }
  return domain.replace(/\/$/, '').toLowerCase();
}

/** Whether the URL parser takes the host (1.2.3.4.5 and 0x1.0x100000000 look like names but are broken addresses). */
function parsesAsHost(origin: string): boolean {
  try {
    new URL(origin.replace('://*.', '://x.'));
    return true;
  } catch {
    return false;
  }
}

/**
 * The policy an interface runs under, from its declared domains only (the MCP Apps mapping):
 * nothing loads or connects anywhere undeclared, no plugins, no forms posting out, no workers
 * from elsewhere. Inline scripts and styles are allowed: apps ship as one self-contained file.
 */
export function contentSecurityPolicy(csp: AppCsp): string {
  const directive = (base: string, extra: readonly string[]) => [base, ...extra].join(' ').trim();
  const orNone = (list: readonly string[]) => (list.length ? list.join(' ') : "'none'");
  return [
    "default-src 'none'",
    directive("script-src 'unsafe-inline'", csp.resourceDomains),
    directive("style-src 'unsafe-inline'", csp.resourceDomains),
    directive('img-src data: blob:', csp.resourceDomains),
    directive('font-src data:', csp.resourceDomains),
    directive('media-src data: blob:', csp.resourceDomains),
    `connect-src ${orNone(csp.connectDomains)}`,
    `frame-src ${orNone(csp.frameDomains)}`,
    `base-uri ${csp.baseUriDomains.length ? csp.baseUriDomains.join(' ') : "'self'"}`,
    "form-action 'none'",
    "object-src 'none'",
  ].join('; ');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
