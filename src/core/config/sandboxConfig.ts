/**
 * A server's `sandbox` entry: what its process may read, write and reach. Parsed
 * here, applied by transport/sandbox.ts. Behind the folder's door (later.ts): only a
 * configuration that has a `sandbox` loads it, through loadConfigOptions().
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ArgumentFolders, SandboxSettings } from '../transport/sandbox';

export type { SandboxSettings } from '../transport/sandbox';

/** The sandbox of `"sandbox": true` and of the default-sandbox setting: VS Code's defaults (its working folder and npm's cache, npm's registry). */
export const DEFAULT_SANDBOX: SandboxSettings = {
  filesystem: { denyRead: [], allowWrite: ['.', '~/.npm'], denyWrite: [] },
  network: { allowedDomains: ['registry.npmjs.org'], deniedDomains: [] },
  allowUnsandboxed: false,
};

const TOP_KEYS = new Set(['filesystem', 'network', 'allowUnsandboxed']);
const FS_KEYS = new Set(['denyRead', 'allowWrite', 'denyWrite']);
const NET_KEYS = new Set(['allowedDomains', 'deniedDomains']);
/** A host name or a `*.` wildcard of one, optionally with a port: what the library's proxy matches. */
const DOMAIN = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i;

/**
 * Validates a `sandbox` value: `true` (the defaults), `false` (explicitly none), or
 * `{ filesystem: { denyRead, allowWrite, denyWrite }, network: "none" | { allowedDomains, deniedDomains }, allowUnsandboxed }`.
 * Each mistake fails with a sentence that names the key.
 */
export function parseSandbox(raw: unknown, fail: (message: string) => never): SandboxSettings | false {
  if (raw === false) return false;
  if (raw === true) return DEFAULT_SANDBOX;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('"sandbox" must be true, false, or an object with "filesystem", "network" and "allowUnsandboxed".');
  const e = raw as Record<string, unknown>;
  unknownKeys(e, TOP_KEYS, 'sandbox', fail);
  const fsRaw = e.filesystem ?? {};
  if (typeof fsRaw !== 'object' || fsRaw === null || Array.isArray(fsRaw)) return fail('"sandbox.filesystem" must be an object with "denyRead", "allowWrite" and "denyWrite" lists.');
  const fsEntry = fsRaw as Record<string, unknown>;
  unknownKeys(fsEntry, FS_KEYS, 'sandbox.filesystem', fail);
  const paths = (key: string) => stringList(fsEntry[key], `sandbox.filesystem.${key}`, fail, (p) => (p.trim() === '' ? 'an empty path' : /\0/.test(p) ? 'a NUL character' : p.trim() === '/' && key === 'allowWrite' ? '"/" (the whole machine: leave the server unsandboxed instead)' : undefined));
  let network: SandboxSettings['network'] = { allowedDomains: [], deniedDomains: [] };
  if (e.network !== undefined && e.network !== 'none') {
    if (typeof e.network !== 'object' || e.network === null || Array.isArray(e.network)) return fail('"sandbox.network" must be "none" or an object with "allowedDomains" (and "deniedDomains").');
    const net = e.network as Record<string, unknown>;
    unknownKeys(net, NET_KEYS, 'sandbox.network', fail);
    const domains = (key: string) => stringList(net[key], `sandbox.network.${key}`, fail, (d) => (d === '*' ? '"*" (every host: leave the network unsandboxed by not sandboxing the server)' : DOMAIN.test(d) ? undefined : `"${d}", which is not a host name (write "example.com" or "*.example.com", no scheme or path)`));
    network = { allowedDomains: domains('allowedDomains'), deniedDomains: domains('deniedDomains') };
  }
  if (e.allowUnsandboxed !== undefined && typeof e.allowUnsandboxed !== 'boolean') fail('"sandbox.allowUnsandboxed" must be true or false.');
  return {
    filesystem: { denyRead: paths('denyRead'), allowWrite: paths('allowWrite'), denyWrite: paths('denyWrite') },
    network,
    allowUnsandboxed: e.allowUnsandboxed === true,
  };
}

/**
 * VS Code's mcp.json: a server's `"sandboxEnabled": true` runs it under the file's top-level
 * `sandbox` (same shape as ours), to which VS Code adds the working folder and `~/.npm` as
 * writable and registry.npmjs.org as reachable. We read it the same way, so the file ports.
 */
export function fromVsCode(fileSandbox: unknown): unknown {
  const given = typeof fileSandbox === 'object' && fileSandbox !== null && !Array.isArray(fileSandbox) ? (fileSandbox as Record<string, Record<string, unknown> | undefined>) : {};
  const list = (v: unknown) => (Array.isArray(v) ? v : []);
  const union = (a: unknown, b: readonly string[]) => [...new Set([...list(a), ...b])];
  return {
    filesystem: { ...given.filesystem, allowWrite: union(given.filesystem?.allowWrite, DEFAULT_SANDBOX.filesystem.allowWrite) },
    network: { ...given.network, allowedDomains: union(given.network?.allowedDomains, DEFAULT_SANDBOX.network.allowedDomains) },
  };
}

/**
 * The default-sandbox setting applied (mcpToolHost.sandbox.stdioByDefault): every stdio server
 * without a `sandbox` gets DEFAULT_SANDBOX. A workspace server may not opt out: its `false` and
 * its `allowUnsandboxed` do not count (each such case adds a warning).
 */
export function withDefaultSandbox<D extends { readonly name: string; readonly source: string; readonly spec: { readonly type: string; readonly sandbox?: SandboxSettings | false } }>(servers: readonly D[], warnings: string[]): D[] {
  return servers.map((def) => {
    const box = def.spec.sandbox;
    if (def.spec.type !== 'stdio' || (def.source === 'user' && box !== undefined) || (box && !box.allowUnsandboxed)) return def;
    if (box !== undefined) warnings.push(`Server "${def.name}": a workspace definition may not run it unsandboxed while mcpToolHost.sandbox.stdioByDefault is on.`);
    return { ...def, spec: { ...def.spec, sandbox: box ? { ...box, allowUnsandboxed: false } : { ...DEFAULT_SANDBOX, bySetting: true } } };
  });
}

/**
 * The folders a sandboxed server may write because its own arguments name them (a
 * filesystem server is given its folder as an argument): each argument (or the value after
 * `--flag=`) that is an absolute or `~/` path of an existing folder. The user's own server may
 * write any of them but `/`; a workspace's server only those inside a workspace folder (links
 * followed), so a repository cannot widen its sandbox to the user's home by naming it.
 */
export function argumentFolders(args: readonly string[], source: string, workspaceFolders: readonly { readonly path: string }[], home: string | undefined): ArgumentFolders {
  const writable: string[] = [];
  const readOnly: { folder: string; why: string }[] = [];
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return undefined;
    }
  };
  const roots = workspaceFolders.map((f) => real(f.path)).filter((p): p is string => !!p);
  for (const arg of args) {
    const value = /^--?[\w-]+=/.test(arg) ? arg.slice(arg.indexOf('=') + 1) : arg;
    const named = /^~(\/|$)/.test(value) && home ? path.join(home, value.slice(1)) : value;
    if (!path.isAbsolute(named)) continue;
    const folder = real(named);
    if (!folder || !fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory() || writable.includes(folder) || readOnly.some((r) => r.folder === folder)) continue;
    if (folder === path.parse(folder).root) readOnly.push({ folder, why: 'the whole machine' });
    else if (source !== 'user' && !roots.some((r) => folder === r || folder.startsWith(r.endsWith(path.sep) ? r : r + path.sep))) readOnly.push({ folder, why: "outside the workspace: a workspace's server may write only inside it" });
    else writable.push(folder);
  }
  return { writable, readOnly };
}

/** One line per kind of access, for the tree's tooltip, Run Doctor and the log. */
export function describeSandbox(s: SandboxSettings): string[] {
  const list = (items: readonly string[], none: string) => (items.length ? items.join(', ') : none);
  const lines = [
    `writes: ${list(s.filesystem.allowWrite, 'nowhere')}${s.filesystem.denyWrite.length ? ` (except ${s.filesystem.denyWrite.join(', ')})` : ''}`,
    s.argumentFolders
      ? `writes the folders its arguments name: ${list(s.argumentFolders.writable, 'none')}${s.argumentFolders.readOnly.map((r) => `; not ${r.folder} (${r.why})`).join('')}`
      : "writes the folders its arguments name (a workspace's server: only those inside the workspace)",
    `reads: everything${s.filesystem.denyRead.length ? ` except ${s.filesystem.denyRead.join(', ')}` : ''}`,
    `network: ${list(s.network.allowedDomains, 'none')}${s.network.deniedDomains.length ? ` (never ${s.network.deniedDomains.join(', ')})` : ''}`,
  ];
  if (s.allowUnsandboxed) lines.push('runs unsandboxed where the machine cannot sandbox');
  return lines;
}

function unknownKeys(entry: Record<string, unknown>, known: ReadonlySet<string>, where: string, fail: (m: string) => never): void {
  const unknown = Object.keys(entry).filter((k) => !known.has(k));
  if (unknown.length) fail(`"${where}" has unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')} (known: ${[...known].map((k) => `"${k}"`).join(', ')}).`);
}

function stringList(raw: unknown, where: string, fail: (m: string) => never, problem: (item: string) => string | undefined): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string')) return fail(`"${where}" must be a list of strings.`);
  for (const item of raw as string[]) {
    const why = problem(item);
    if (why) fail(`"${where}" holds ${why}.`);
  }
  return raw as string[];
}
