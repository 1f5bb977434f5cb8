import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import { canonicalJson, changedParts, pinTool, type PinnedDefinition } from './toolPin';

/** The lockfile format this version writes and reads; a file of another version is refused, never guessed at. */
export const LOCKFILE_VERSION = 1;
/** The largest lockfile read: a bigger one is a problem, never parsed (a repository may carry anything). */
export const MAX_LOCKFILE_BYTES = 16 * 1024 * 1024;
/** How deep a definition may nest to be locked: the file is read by people, and written without a stack of its own. */
const MAX_LOCKED_DEPTH = 64;
/** The fields of a locked definition: exactly the ones its pin hash covers. */
const DEFINITION_KEYS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/** One tool as locked: its definition as a reviewer reads it, and the pin hash of that definition. */
export interface LockedTool {
  readonly hash: string;
  readonly definition: PinnedDefinition;
}

/** A lockfile: per server name, per tool name, the locked definition. Maps: a name such as `__proto__` is only a name. */
export interface Lockfile {
  readonly servers: ReadonlyMap<string, ReadonlyMap<string, LockedTool>>;
}

/** The lock of each server's tools as listed now; a definition nested too deep to be read in review is an error naming the tool. */
export function lockOf(servers: readonly { readonly name: string; readonly tools: readonly Tool[] }[]): Lockfile {
  const locked = new Map<string, Map<string, LockedTool>>();
  for (const server of servers) {
    const tools = new Map<string, LockedTool>();
    for (const tool of server.tools) {
      const definition = definitionOf(tool);
      if (deeperThan(definition, MAX_LOCKED_DEPTH)) throw new LockfileError(`"${server.name}" › "${tool.name}" nests deeper than ${MAX_LOCKED_DEPTH} levels, too deep to lock in a file people review.`);
      tools.set(tool.name, { hash: pinTool(tool).hash, definition });
    }
    locked.set(server.name, tools);
  }
  return { servers: locked };
}

/**
 * The file's text: keys sorted at every level (servers, then tools, by name), two spaces a level,
 * one entry a line, a newline at the end. The same tools always give the same bytes, so a diff in
 * review shows only what changed.
 */
export function lockfileText(lock: Lockfile): string {
  // Without a prototype, a server named __proto__ is a key like any other.
  const servers: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [server, tools] of lock.servers) servers[server] = { tools: Object.fromEntries(tools) };
  return `${sortedJson({ lockfileVersion: LOCKFILE_VERSION, servers }, '')}\n`;
}

/** A lockfile that cannot be used; its message names what is wrong and where. */
export class LockfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = this.constructor.name;
  }
}

/**
 * Reads a lockfile's text, strictly: the version, every server and tool, and each tool's hash,
 * which must be the hash of the definition written beside it (so the definition a reviewer reads
 * is the one checked, not a hash edited to match something else). Throws LockfileError.
 */
export function parseLockfile(text: string): Lockfile {
  if (text.length > MAX_LOCKFILE_BYTES) throw new LockfileError(`it is over ${MAX_LOCKFILE_BYTES / (1024 * 1024)} MiB`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new LockfileError(`it is not JSON (${(err as Error).message})`);
  }
  if (!isObject(value)) throw new LockfileError('it is not a JSON object');
  const version = value.lockfileVersion;
  if (version === undefined) throw new LockfileError('it has no "lockfileVersion": not a lockfile mcp-tool-host wrote');
  if (version !== LOCKFILE_VERSION) throw new LockfileError(`its "lockfileVersion" is ${shown(version)}; this version of mcp-tool-host reads version ${LOCKFILE_VERSION}`);
  for (const key of Object.keys(value)) if (key !== 'lockfileVersion' && key !== 'servers') throw new LockfileError(`it has an unknown key ${shown(key)}`);
  if (!isObject(value.servers)) throw new LockfileError('its "servers" is not an object');
  const servers = new Map<string, Map<string, LockedTool>>();
  for (const [server, entry] of Object.entries(value.servers)) {
    const where = `servers › ${shown(server)}`;
    if (!isObject(entry) || !isObject(entry.tools) || Object.keys(entry).length !== 1) throw new LockfileError(`${where} is not {"tools": {...}}`);
    const tools = new Map<string, LockedTool>();
    for (const [name, tool] of Object.entries(entry.tools)) tools.set(name, lockedTool(tool, `${where} › ${shown(name)}`, name));
    servers.set(server, tools);
  }
  return { servers };
}

function lockedTool(value: unknown, where: string, name: string): LockedTool {
  if (!isObject(value) || typeof value.hash !== 'string' || !isObject(value.definition) || Object.keys(value).length !== 2) throw new LockfileError(`${where} is not {"definition": {...}, "hash": "..."}`);
  const definition = value.definition;
  for (const key of Object.keys(definition)) if (!(DEFINITION_KEYS as readonly string[]).includes(key)) throw new LockfileError(`${where} has an unknown definition key ${shown(key)}`);
  if (definition.name !== name) throw new LockfileError(`${where} has the definition of ${shown(definition.name)}`);
  for (const key of ['title', 'description'] as const) if (definition[key] !== undefined && typeof definition[key] !== 'string') throw new LockfileError(`${where} has a ${key} that is not a string`);
  // Checked before it is hashed: hashing and comparing walk it by recursion, and no lockfile this tool writes nests deeper.
  if (deeperThan(definition, MAX_LOCKED_DEPTH)) throw new LockfileError(`${where} nests deeper than ${MAX_LOCKED_DEPTH} levels, deeper than any lockfile mcp-tool-host writes`);
  const hash = createHash('sha256').update(canonicalJson(definition)).digest('hex');
  if (hash !== value.hash) throw new LockfileError(`${where}: its hash is not the hash of its definition (edited by hand?); write it again with mcp-tool-host lock`);
  return { hash, definition: definition as unknown as PinnedDefinition };
}

/** How a tool stands against a lockfile. */
export type ToolDrift =
  | { readonly tool: string; readonly change: 'added'; readonly now: PinnedDefinition }
  | { readonly tool: string; readonly change: 'removed'; readonly locked: PinnedDefinition }
  | { readonly tool: string; readonly change: 'changed'; readonly parts: readonly string[]; readonly locked: PinnedDefinition; readonly now: PinnedDefinition };

/** How a server stands against a lockfile: its tools' drift, or that only one side has it. */
export type ServerDrift =
  | { readonly server: string; readonly state: 'match' | 'drift'; readonly tools: readonly ToolDrift[] }
  | { readonly server: string; readonly state: 'not-locked' | 'not-configured' }
  | { readonly server: string; readonly state: 'failed'; readonly error: string };

/**
 * Every server of the lockfile and of `live` (each server's tools as listed now, or why it has
 * none), sorted by name: a server on one side only is drift too.
 */
export function compareLock(lock: Lockfile, live: ReadonlyMap<string, readonly Tool[] | { readonly error: string }>): ServerDrift[] {
  const names = [...new Set([...lock.servers.keys(), ...live.keys()])].sort(byCodeUnit);
  return names.map((server): ServerDrift => {
    const locked = lock.servers.get(server);
    const now = live.get(server);
    if (now === undefined) return { server, state: 'not-configured' };
    if (!Array.isArray(now)) return { server, state: 'failed', error: (now as { error: string }).error };
    if (locked === undefined) return { server, state: 'not-locked' };
    const tools = toolDrift(locked, now as readonly Tool[]);
    return { server, state: tools.length === 0 ? 'match' : 'drift', tools };
  });
}

function toolDrift(locked: ReadonlyMap<string, LockedTool>, tools: readonly Tool[]): ToolDrift[] {
  const drift: ToolDrift[] = [];
  const seen = new Set<string>();
  for (const tool of tools) {
    seen.add(tool.name);
    const before = locked.get(tool.name);
    const now = definitionOf(tool);
    if (!before) drift.push({ tool: tool.name, change: 'added', now });
    else if (before.hash !== pinTool(tool).hash) drift.push({ tool: tool.name, change: 'changed', parts: partsOrWhole(changedParts(before.definition, now)), locked: before.definition, now });
  }
  for (const [name, before] of locked) if (!seen.has(name)) drift.push({ tool: name, change: 'removed', locked: before.definition });
  return drift.sort((a, b) => byCodeUnit(a.tool, b.tool));
}

/**
 * How one tool a server lists now differs from a lockfile that locks its server, or undefined when
 * it does not (or the lockfile does not speak of the server). For the editor, which asks before such a call.
 */
export function driftOfTool(lock: Lockfile, server: string, tool: Tool): { readonly parts: readonly string[]; readonly locked?: PinnedDefinition } | undefined {
  const tools = lock.servers.get(server);
  if (!tools) return undefined;
  const before = tools.get(tool.name);
  if (!before) return { parts: ['not in the lockfile'] };
  if (before.hash === pinTool(tool).hash) return undefined;
  return { parts: partsOrWhole(changedParts(before.definition, pinTool(tool).definition)), locked: before.definition };
}

/** The definition as locked: the fields the pin hash covers, whole (not cut at a depth, as a stored pin is). */
function definitionOf(tool: Tool): PinnedDefinition {
  const full: Record<string, unknown> = {};
  for (const key of DEFINITION_KEYS) if (tool[key] !== undefined) full[key] = tool[key];
  return full as unknown as PinnedDefinition;
}

const partsOrWhole = (parts: readonly string[]) => (parts.length > 0 ? parts : ['definition']);

/** JSON with keys sorted as canonicalJson sorts them, indented; only for values known to nest at most MAX_LOCKED_DEPTH. */
function sortedJson(value: unknown, indent: string): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const inner = `${indent}  `;
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[\n${value.map((v) => `${inner}${sortedJson(v, inner)}`).join(',\n')}\n${indent}]`;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => byCodeUnit(a, b));
  return entries.length === 0 ? '{}' : `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${sortedJson(v, inner)}`).join(',\n')}\n${indent}}`;
}

/** Whether a value nests deeper than `max`, found with a stack of our own (a server's schema may nest past the call stack). */
function deeperThan(value: unknown, max: number): boolean {
  const todo: [unknown, number][] = [[value, 0]];
  for (let next = todo.pop(); next; next = todo.pop()) {
    const [v, depth] = next;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) todo.push([child, depth + 1]);
  }
  return false;
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A value from the file in a message: JSON, cut short (the file may be anyone's). */
const shown = (v: unknown) => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
};
