import * as fs from 'node:fs';
import type { Tool } from '@modelcontextprotocol/client';
import { defaultLockfile, readLockfile, writeLockfile } from '../core/policy/lockfileFile';
import { compareLock, lockfileText, lockOf, LockfileError, type ServerDrift, type ToolDrift } from '../core/policy/toolLock';
import { canonicalJson, type PinnedDefinition } from '../core/policy/toolPin';
import { sanitizeLine, shownName, visibleJson, visibleLine } from '../core/render/sanitize';
import { formatCommandLine } from '../core/transport/commandLine';
import { CliError, Exit, type ExitCode } from './args';
import type { CliHost } from './host';
import { lineDiff } from './pinsCommands';

/** Past this many lines a side, a part is not diffed line by line (it is still named as changed). */
const MAX_DIFF_LINES = 4_000;

/** Each server of the run started and listed: its tools, or why it has none (did not start, listing failed). */
async function liveTools(host: CliHost): Promise<Map<string, readonly Tool[] | { readonly error: string }>> {
  const connections = host.pool.connections;
  await Promise.all(connections.map((c) => c.start()));
  await Promise.all(connections.map((c) => c.listed()));
  return new Map(connections.map((c) => {
    const error = c.state.kind === 'error' ? c.state.message : c.state.kind !== 'running' ? `it is ${c.state.kind}` : c.facts.listingError;
    return [c.name, error === undefined ? c.tools : { error }];
  }));
}

/**
 * `lock`: starts every configured server, lists its tools and writes the lockfile (`out`, or
 * defaultLockfile beside the config). A server that does not start (or cannot list its tools) is
 * an error naming it and nothing is written: a lockfile without it would be drift at once.
 */
export async function lockCommand(host: CliHost, options: { configFile: string; out?: string; json: boolean }): Promise<ExitCode> {
  const file = options.out ?? defaultLockfile(options.configFile);
  const live = await liveTools(host);
  const failed = [...live].filter((entry): entry is [string, { error: string }] => !Array.isArray(entry[1]));
  if (failed.length > 0) {
    const which = failed.map(([name, why]) => `"${shownName(name)}" (${sanitizeLine(why.error)})`).join(', ');
    throw new CliError(`No lockfile written: ${which} did not list its tools, and a lockfile holds every configured server. Fix it, or take it out of ${options.configFile}.`, Exit.connection);
  }
  let text: string;
  try {
    text = lockfileText(lockOf([...live].map(([name, tools]) => ({ name, tools: tools as readonly Tool[] }))));
  } catch (err) {
    if (err instanceof LockfileError) throw new CliError(`No lockfile written: ${sanitizeLine(err.message)}`, Exit.connection);
    throw err;
  }
  const unchanged = fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text;
  if (!unchanged) writeLockfile(file, text);
  const servers = [...live].map(([server, tools]) => ({ server, tools: (tools as readonly Tool[]).length })).sort((a, b) => (a.server < b.server ? -1 : a.server > b.server ? 1 : 0));
  if (options.json) console.log(visibleJson({ lockfile: file, changed: !unchanged, servers }, 2));
  else {
    const toolCount = servers.reduce((n, s) => n + s.tools, 0);
    console.log(`${unchanged ? 'Unchanged' : 'Wrote'} ${file}: ${toolCount} tool${toolCount === 1 ? '' : 's'} of ${servers.length} server${servers.length === 1 ? '' : 's'} (${servers.map((s) => shownName(s.server)).join(', ')}).`);
  }
  return Exit.ok;
}

/**
 * `verify`: the configured servers' tools against the lockfile. Exit 0 when every server matches;
 * 5 (drift) when a tool was added, removed or changed, or a server is on one side only; 4 when a
 * server did not start (it could not be checked); 2 when the lockfile is missing or not usable.
 */
export async function verifyCommand(host: CliHost, options: { configFile: string; lock?: string; json: boolean }): Promise<ExitCode> {
  const file = options.lock ?? defaultLockfile(options.configFile);
  let lock;
  try {
    lock = readLockfile(file);
  } catch (err) {
    if (err instanceof LockfileError) throw new CliError(sanitizeLine(err.message));
    throw err;
  }
  if (!lock) throw new CliError(`No lockfile at ${file}: write one with ${formatCommandLine('mcp-tool-host', ['lock', '--config', options.configFile, ...(options.lock ? ['--out', options.lock] : [])])}.`);
  const report = compareLock(lock, await liveTools(host));
  const code = report.some((s) => s.state === 'failed') ? Exit.connection : report.some((s) => s.state !== 'match') ? Exit.drift : Exit.ok;
  if (options.json) {
    console.log(visibleJson({ lockfile: file, result: code === Exit.ok ? 'match' : code === Exit.drift ? 'drift' : 'failed', servers: report }, 2));
    return code;
  }
  for (const server of report) console.log(serverText(server));
  const relock = formatCommandLine('mcp-tool-host', ['lock', '--config', options.configFile, ...(options.lock ? ['--out', options.lock] : [])]);
  if (code === Exit.ok) console.log(`\nOK: every tool matches ${file}.`);
  else if (code === Exit.drift) console.log(`\nDrift from ${file}. Review the changes; once they are wanted, lock them: ${relock}`);
  else console.log(`\nNot verified: a server did not start, so its tools could not be checked against ${file}.`);
  return code;
}

function serverText(s: ServerDrift): string {
  const name = shownName(s.server);
  switch (s.state) {
    case 'match':
      return `${name}: matches the lockfile`;
    case 'not-locked':
      return `${name}: configured, but not in the lockfile`;
    case 'not-configured':
      return `${name}: in the lockfile, but not configured`;
    case 'failed':
      return `${name}: did not start: ${sanitizeLine(s.error)}`;
    case 'drift': {
      const count = (change: ToolDrift['change']) => s.tools.filter((t) => t.change === change).length;
      const lines = [`${name}: drift: ${count('changed')} changed, ${count('added')} added, ${count('removed')} removed`];
      for (const t of s.tools) lines.push(toolText(s.server, t));
      return lines.join('\n');
    }
  }
}

function toolText(server: string, t: ToolDrift): string {
  const where = `${shownName(server)}/${shownName(t.tool)}`;
  if (t.change === 'added') return `  + ${shownName(t.tool)}: listed now, not in the lockfile: ${sanitizeLine(t.now.description ?? '').slice(0, 100)}`;
  if (t.change === 'removed') return `  - ${shownName(t.tool)}: in the lockfile, no longer listed`;
  const out = [`  ~ ${shownName(t.tool)}: ${t.parts.join(', ')} changed`, `--- ${where}, locked`, `+++ ${where}, now`];
  for (const [key, label] of PARTS) {
    if (canonicalJson(t.locked[key]) === canonicalJson(t.now[key])) continue;
    const before = partLines(key, t.locked[key]);
    const after = partLines(key, t.now[key]);
    out.push(`@@ ${label} @@`);
    if (before.length > MAX_DIFF_LINES || after.length > MAX_DIFF_LINES) out.push(`  (too long to compare line by line: ${before.length} and ${after.length} lines)`);
    else out.push(...lineDiff(before, after));
  }
  return out.join('\n');
}

const PARTS: readonly [keyof PinnedDefinition, string][] = [
  ['title', 'title'],
  ['description', 'description'],
  ['inputSchema', 'input schema'],
  ['outputSchema', 'output schema'],
  ['annotations', 'annotations'],
];

/** A part as lines to diff: text line by line, anything else as JSON with sorted keys; invisible characters as escapes. */
function partLines(key: keyof PinnedDefinition, value: unknown): string[] {
  if (value === undefined) return ['(none)'];
  if ((key === 'title' || key === 'description') && typeof value === 'string') return value.split(/\r?\n/).map(visibleLine);
  return visibleJson(JSON.parse(canonicalJson(value)), 2).split('\n');
}
