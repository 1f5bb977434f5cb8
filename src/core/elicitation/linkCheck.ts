/**
 * Which links a server may have the user open (elicitation in URL mode, a -32042 error's links),
 * and how to name where one leads. The URL is the server's, so it is hostile: only `https:` (and
 * `http:` to this machine) is offered, and nothing that hides where it leads. Where it leads is the
 * site, shown first: the registrable domain by the Public Suffix List (tldts), since a prompt's
 * title is cut at its end and `login.microsoftonline.com.<padding>.evil.xyz` reads as Microsoft.
 *
 * In the lazy bundle dist/links.js (the list is ~130 KB): loaded when a server first asks to open
 * a link, through loadLinks() (load.ts). Elsewhere import this module as a type only.
 */
import { domainToUnicode } from 'node:url';
import { getDomain } from 'tldts';
import type { OfferedUrl, RefusedUrl } from './urlElicitation';

/** The longest URL offered: a longer one hides its end (browsers cope with 2 KB everywhere). */
export const MAX_URL_CHARS = 2048;
/** The longest host name DNS has (RFC 1035), and its longest label: a longer one resolves nowhere, so it is only a disguise. */
export const MAX_HOST_CHARS = 253;
const MAX_LABEL_CHARS = 63;

/** Checks a URL a server wants opened: the URL to offer, with the site to show first, or why it is refused. */
export function checkUrl(raw: unknown): OfferedUrl | RefusedUrl {
  if (typeof raw !== 'string' || raw === '') return refused('the request has no URL', '');
  const shown = shownUrl(raw);
  if (raw.length > MAX_URL_CHARS) return refused(`the URL is ${raw.length} characters long (at most ${MAX_URL_CHARS}): its end could hide where it leads`, shown);
  // The URL parser drops tabs and line breaks silently; a URL with hidden characters is a disguise.
  if (/[\s\p{Cc}\p{Cf}]/u.test(raw)) return refused('the URL contains spaces or hidden characters', shown);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refused('it is not a valid URL', shown);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refused(`only https: links are opened, not ${url.protocol}`, shown);
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) return refused('an http: link is opened only to this machine (localhost); elsewhere it must be https:', shown);
  // https://good.com@evil.com leads to evil.com: a name before "@" is only there to mislead.
  if (url.username !== '' || url.password !== '') return refused(`the URL has a user name before its host ("${shownUrl(url.username)}@…"), which hides the real site, ${siteOf(url).site}`, shown);
  if (url.hostname === '') return refused('the URL has no host', shown);
  const hostname = url.hostname.replace(/\.$/, '');
  if (hostname.length > MAX_HOST_CHARS) return refused(`the host name is ${hostname.length} characters long (at most ${MAX_HOST_CHARS}): a name that long only hides where it leads`, shown);
  const longLabel = hostname.split('.').find((label) => label.length > MAX_LABEL_CHARS);
  if (longLabel) return refused(`a part of the host name is ${longLabel.length} characters long (at most ${MAX_LABEL_CHARS}): no such name exists`, shown);
  const punycode = hostname.split('.').some((label) => label.startsWith('xn--'));
  const { site, ip } = siteOf(url);
  return { kind: 'offered', url: url.href, domain: url.host, site, ip, punycode, ...(punycode && { unicode: domainToUnicode(hostname) }) };
}

/** True for the names of this machine: localhost, 127.0.0.0/8 and ::1. */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * Who a page belongs to: the registrable domain, with the private part of the list (`evil.github.io`
 * is the user's own site, not GitHub's), and a port that is not the default; an IP address as it is
 * (the parser normalised it: `0xC0.0.2.1` is `192.0.2.1`); a host that is itself a suffix, whole.
 */
function siteOf(url: URL): { site: string; ip: boolean } {
  const port = url.port === '' ? '' : `:${url.port}`;
  const hostname = url.hostname.replace(/\.$/, '');
  // An address of this machine names the user's own; any other address names nobody.
  if (hostname.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(hostname)) return { site: `${hostname}${port}`, ip: !isLoopback(hostname) };
  return { site: `${getDomain(hostname, { allowPrivateDomains: true }) ?? hostname}${port}`, ip: false };
}

function refused(why: string, shown: string): RefusedUrl {
  return { kind: 'refused', why, shown };
}

/** A URL as one visible line: hidden characters as escapes, cut at 200 characters. */
function shownUrl(raw: string): string {
  const visible = raw.replace(/[\s\p{Cc}\p{Cf}]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
  return visible.length > 200 ? `${visible.slice(0, 199)}…` : visible;
}
