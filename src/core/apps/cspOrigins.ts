// What the CSP of a tool's interface (MCP Apps) may name, by where its server runs. The
// interface runs on the user's machine, so an origin it may reach is one the user's machine can
// reach: for a remote (or sandboxed) server, that is more than the server itself could reach, and
// those origins are refused. A local, unsandboxed server runs as the user on this machine and
// reaches its loopback and network already: its interface may name them (a local server pointing
// its interface at its own port is the common case). A wildcard over a whole public suffix
// (`*.com`, `*.co.uk`, `*.github.io`) is never one site, and is refused for every server.
//
// Part of the link check's lazy bundle (eslint.config.mjs LINK_MODULES, dist/links.js): the public
// suffix list (tldts) loads when an interface opens or a link is asked for, never at activation.
import { parse } from 'tldts';

/** What the CSP of an interface may name (`_meta.ui.csp` of its resource content). */
export interface AppCsp {
  readonly connectDomains: readonly string[];
  readonly resourceDomains: readonly string[];
  readonly frameDomains: readonly string[];
  readonly baseUriDomains: readonly string[];
}

/** Where an interface's server runs, as far as what the interface may reach goes. */
export type AppServerPlace =
  /** A local (stdio) server, not sandboxed: it reaches what this machine reaches. */
  | { readonly kind: 'this-machine' }
  /** A remote server (its URL's `origin`, which its interface may always reach), or a sandboxed local one. */
  | { readonly kind: 'elsewhere'; readonly why: 'remote' | 'sandboxed'; readonly origin?: string };

/** An origin the interface's CSP named and the host left out, and why (a few words: "loopback"). */
export interface RefusedOrigin {
  /** As the server wrote it. */
  readonly origin: string;
  readonly why: string;
}

/**
 * The CSP an interface of a server at `place` runs under: the declared one less the origins it may
 * not name (each named, with why, in `refused`). Hosts written as numbers (`http://2130706433`,
 * `0x7f.1`) are kept in their dotted form, so the policy means what it was checked as.
 */
export function screenCsp(csp: AppCsp, place: AppServerPlace): { readonly csp: AppCsp; readonly refused: readonly RefusedOrigin[] } {
  const refused: RefusedOrigin[] = [];
  const screen = (list: readonly string[]) =>
    list.flatMap((origin) => {
      const verdict = judge(origin, place);
      if ('why' in verdict) {
        if (!refused.some((r) => r.origin === origin)) refused.push({ origin, why: verdict.why });
        return [];
      }
      return [verdict.origin];
    });
  return { csp: { connectDomains: screen(csp.connectDomains), resourceDomains: screen(csp.resourceDomains), frameDomains: screen(csp.frameDomains), baseUriDomains: screen(csp.baseUriDomains) }, refused };
}

/** The one line that names what was refused (the log shows it once per interface opened). */
export function refusedSentence(refused: readonly RefusedOrigin[], place: AppServerPlace): string {
  const because = place.kind === 'this-machine' ? '' : place.why === 'remote' ? ' (its server is remote, and the interface runs on this machine)' : ' (its server runs in a sandbox, and the interface does not)';
  return `refused in the interface's CSP${because}: ${refused.map((r) => `${r.origin} (${r.why})`).join(', ')}`;
}

/** One origin: kept (in its canonical form) or refused with why. */
function judge(origin: string, place: AppServerPlace): { readonly origin: string } | { readonly why: string } {
  const [, scheme, wildcard, written, port = ''] = /^([a-z]+):\/\/(\*\.)?([^:/]+)(:\d+)?$/.exec(origin) ?? [];
  if (!scheme) return { why: 'not an origin' };
  // The URL parser reads 2130706433, 0x7f.1 and 0177.1 as the addresses browsers reach.
  const host = wildcard ? written : new URL(`${scheme}://${written}`).hostname;
  const canonical = `${scheme}://${wildcard ?? ''}${host}${port}`;
  const shown = (why: string) => ({ why: canonical === origin ? why : `= ${canonical}: ${why}` });
  // (A wildcard over an address, `*.0.0.1`, never gets here: the URL parser refuses x.0.0.1 in appCspOf.)
  const local = isIpv4(host) ? addressClass(host) : nameClass(host);
  if (wildcard && local === undefined && isPublicSuffix(host)) return { why: `every site under the public suffix ${host}` };
  if (place.kind === 'this-machine') return { origin: canonical };
  if (place.origin !== undefined && !wildcard && sameOrigin(scheme, host, port, place.origin)) return { origin: canonical };
  if (local !== undefined) return shown(local);
  // A name can resolve to anything, this machine included (DNS rebinding): TLS binds it to a
  // certificate for that name, which no service on this machine holds.
  if (!isIpv4(host) && (scheme === 'http' || scheme === 'ws')) return shown(`${scheme}: to a name, which could resolve to this machine; use ${scheme === 'http' ? 'https' : 'wss'}`);
  return { origin: canonical };
}

/** Whether `scheme://host:port` is the server's own origin (http and ws alike, https and wss alike). */
function sameOrigin(scheme: string, host: string, port: string, own: string): boolean {
  let server: URL;
  try {
    server = new URL(own);
  } catch {
    return false;
  }
  const secure = scheme === 'https' || scheme === 'wss';
  const portOf = (p: string, tls: boolean) => p.replace(/^:/, '') || (tls ? '443' : '80');
  return secure === (server.protocol === 'https:') && host === server.hostname && portOf(port, secure) === portOf(server.port, secure);
}

const isIpv4 = (host: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(host);

/** IPv4 ranges that are not the public internet, with what they are. */
const RANGES: readonly [string, number, string][] = [
  ['0.0.0.0', 8, '0.0.0.0, this machine'],
  ['127.0.0.0', 8, 'loopback'],
  ['10.0.0.0', 8, 'private network'],
  ['172.16.0.0', 12, 'private network'],
  ['192.168.0.0', 16, 'private network'],
  ['100.64.0.0', 10, 'shared address space, carrier-grade NAT'],
  ['169.254.0.0', 16, 'link-local, where clouds serve instance metadata'],
  ['192.0.0.0', 24, 'reserved address'],
  ['198.18.0.0', 15, 'reserved address'],
  ['224.0.0.0', 4, 'multicast address'],
  ['240.0.0.0', 4, 'reserved address'],
];

function addressClass(ip: string): string | undefined {
  const value = toNumber(ip);
  for (const [base, bits, what] of RANGES) {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    if (((value & mask) >>> 0) === toNumber(base)) return what;
  }
  return undefined;
}

const toNumber = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);

/** What a name is when only this machine or its network can resolve it; undefined for a public name. */
function nameClass(host: string): string | undefined {
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (host === 'home.arpa' || host.endsWith('.home.arpa')) return 'a home network name, home.arpa';
  if (host.endsWith('.arpa') || host === 'arpa') return 'an infrastructure name, .arpa';
  const parsed = parse(host, { allowPrivateDomains: true });
  // No suffix the public suffix list knows (`router`, `nas.local`, `db.internal`, `x.lan`): local DNS or mDNS only.
  if (!parsed.isIcann && !parsed.isPrivate) return 'a name only the local network resolves';
  return undefined;
}

/** Whether `host` is itself a public suffix: an ICANN one (com, co.uk) or one where anyone gets a site (github.io). */
function isPublicSuffix(host: string): boolean {
  const parsed = parse(host, { allowPrivateDomains: true });
  return parsed.domain === null && parsed.publicSuffix === host;
}
