import { createHash } from 'node:crypto';

/** What MCP allows in a tool name (spec 2025-11-25, "Tool names"), and how long it may be. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
export const MAX_TOOL_NAME = 128;

/** A server name used as it is: no `_` (the separator), so the prefix always ends at the first `_`. */
const PLAIN_SERVER = /^[A-Za-z0-9-]{1,48}$/;
const PLAIN_TOOL = /^[A-Za-z0-9_.-]+$/;

const hash = (text: string, digits: number) => createHash('sha256').update(text).digest('hex').slice(0, digits);
const cleanServer = (s: string) => s.replace(/[^A-Za-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'server';
const cleanTool = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '_') || 'tool';

/**
 * Each configured server's prefix, decided by the server names alone (the user's configuration, never
 * what a server sends): a plain name as it is, any other cleaned and followed by a hash of the
 * original. Prefixes hold no `_` and differ even case-insensitively, so no tool of one server can
 * ever be named like a tool of another, whatever it renames itself to and in whatever order tools arrive.
 */
export function serverPrefixes(servers: readonly string[]): Map<string, string> {
  const first = new Map(servers.map((s) => [s, PLAIN_SERVER.test(s) ? s : `${cleanServer(s).slice(0, 39)}-${hash(s, 8)}`]));
  const count = new Map<string, number>();
  for (const p of first.values()) count.set(p.toLowerCase(), (count.get(p.toLowerCase()) ?? 0) + 1);
  // Two that still meet (names differing only in case, say) both take a longer hash of their own name.
  return new Map([...first].map(([s, p]) => [s, count.get(p.toLowerCase())! > 1 ? `${cleanServer(s).slice(0, 31)}-${hash(s, 16)}` : p]));
}

/**
 * The name a client sees for `tool` of `server`: `<prefix>_<tool>` (docs/gateway.md). A tool name
 * MCP does not allow, or one too long, is cleaned, cut and ends in a hash of server and tool; should
 * that meet a plain name among the server's own `tools`, the plain one keeps it (the cut one takes a
 * longer hash), so the answer does not depend on the order the tools are listed in.
 */
export function gatewayToolName(prefix: string, tool: string, tools: readonly string[]): string {
  const room = MAX_TOOL_NAME - prefix.length - 1;
  if (PLAIN_TOOL.test(tool) && tool.length <= room) return `${prefix}_${tool}`;
  const cut = (digits: number) => `${prefix}_${cleanTool(tool).slice(0, room - digits - 1)}_${hash(`${prefix}\u0000${tool}`, digits)}`;
  const short = cut(8);
  const taken = tools.some((t) => t !== tool && PLAIN_TOOL.test(t) && `${prefix}_${t}` === short);
  return taken ? cut(24) : short;
}
