import * as path from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { DefinitionPins } from '../core/policy/definitionPins';
import { changedParts, pinTool, type PinnedDefinition } from '../core/policy/toolPin';
import { shownName, visibleJson } from '../core/render/sanitize';
import { formatCommandLine } from '../core/transport/commandLine';
import { CliError, Exit, type ExitCode } from './args';
import { agreed } from './configWrite';
import { stateFile, type CliHost } from './host';
import { pinsFile, type PinsFile } from './pinsFile';

/** Lines of context around each change in a diff. */
const CONTEXT = 2;
/** Past this many lines a side, a definition is not diffed line by line (the changed parts are still named). */
const MAX_DIFF_LINES = 4_000;

/** The CLI's pins (trust on first use), in its state folder beside the audit log, for this run's servers. */
export function cliPins(host: CliHost): PinsFile {
  return pinsFile(stateFile('pins.json'), (server) => host.pool.launchOf(server));
}

/** The command that accepts a changed tool, as the gateway's tool error and `pins` say it. */
export function acceptCommand(server: string, tool: string | undefined, config: string): string {
  const names = [server, ...(tool === undefined ? [] : [tool])];
  return formatCommandLine('mcp-tool-host', ['pins', 'accept', ...(names.some((n) => n.startsWith('-')) ? ['--'] : []), ...names, '--config', path.resolve(config)]);
}

/** One tool of a server against its pin. */
interface ToolDrift {
  readonly tool: string;
  readonly state: 'pinned' | 'changed' | 'new' | 'gone';
  readonly parts?: readonly string[];
  readonly before?: PinnedDefinition;
  readonly now?: PinnedDefinition;
}

/** Each tool of a running server against the pins of its launch; nothing is written. */
function driftOf(pins: PinsFile, server: string, tools: readonly Tool[]): ToolDrift[] {
  const pinned = pins.load(server)?.tools ?? {};
  const drift: ToolDrift[] = tools.map((tool) => {
    const now = pinTool(tool);
    const known = Object.hasOwn(pinned, tool.name) ? pinned[tool.name] : undefined;
    if (!known) return { tool: tool.name, state: 'new', now: now.definition };
    if (known.hash === now.hash) return { tool: tool.name, state: 'pinned' };
    const parts = changedParts(known.definition, now.definition);
    return { tool: tool.name, state: 'changed', parts: parts.length > 0 ? parts : ['definition'], before: known.definition, now: now.definition };
  });
  for (const name of Object.keys(pinned)) if (!tools.some((t) => t.name === name)) drift.push({ tool: name, state: 'gone' });
  return drift;
}

async function started(host: CliHost, server: string): Promise<readonly Tool[]> {
  const connection = host.pool.get(server)!;
  await connection.start();
  await connection.listed();
  return connection.tools;
}

/**
 * `pins [SERVER]`: each tool of every (or one) server against the definition pinned for its launch:
 * pinned, changed (with a diff of the pinned and the current definition, every invisible or
 * control character written as its escape), new (the gateway pins it when it first lists it), or gone.
 */
export async function listPins(host: CliHost, config: string, json: boolean): Promise<ExitCode> {
  const pins = cliPins(host);
  const report: { server: string; tools: ToolDrift[] }[] = [];
  for (const connection of host.pool.connections) report.push({ server: connection.name, tools: driftOf(pins, connection.name, await started(host, connection.name)) });
  if (json) {
    console.log(visibleJson({ file: pins.file, servers: report.map((r) => ({ server: r.server, tools: r.tools.map((t) => ({ tool: t.tool, state: t.state, ...(t.parts && { changed: t.parts }) })) })) }, 2));
    return Exit.ok;
  }
  console.log(`Pins: ${pins.file}`);
  for (const { server, tools } of report) {
    const changed = tools.filter((t) => t.state === 'changed');
    console.log(`\n${shownName(server)}: ${count(tools, 'pinned')} pinned, ${changed.length} changed, ${count(tools, 'new')} not pinned yet, ${count(tools, 'gone')} gone`);
    for (const t of tools) if (t.state !== 'pinned') console.log(`  ${shownName(t.tool)}: ${t.state === 'changed' ? `changed (${t.parts!.join(', ')})` : t.state === 'new' ? 'not pinned yet (pinned when the gateway first lists it)' : 'pinned, no longer offered'}`);
    for (const t of changed) console.log(`\n${diffText(server, t)}`);
    if (changed.length > 0) console.log(`\nAccept with: ${acceptCommand(server, changed.length === 1 ? changed[0].tool : undefined, config)}`);
  }
  return Exit.ok;
}

/**
 * `pins accept SERVER [TOOL]`: shows what changed (and what is pinned for the first time), asks y/N
 * on a terminal (--yes elsewhere), then pins the current definitions of the tool or of every tool
 * of the server. Nothing is written without the yes.
 */
export async function acceptPins(host: CliHost, server: string, tool: string | undefined, yes: boolean): Promise<ExitCode> {
  const pins = cliPins(host);
  const tools = await started(host, server);
  if (tool !== undefined && !tools.some((t) => t.name === tool)) throw new CliError(`"${shownName(server)}" has no tool named "${shownName(tool)}"; mcp-tool-host pins ${shownName(server)} lists its tools.`);
  const drift = driftOf(pins, server, tools).filter((t) => (tool === undefined || t.tool === tool) && (t.state === 'changed' || t.state === 'new'));
  if (drift.length === 0) {
    console.log(`Nothing to accept: ${tool === undefined ? `every tool of "${shownName(server)}" is` : `"${shownName(tool)}" is`} as pinned.`);
    return Exit.ok;
  }
  for (const t of drift) console.log(t.state === 'changed' ? `${diffText(server, t)}\n` : `${shownName(t.tool)}: not pinned yet; pinned as it is now.\n`);
  const what = tool === undefined ? `the current definitions of ${drift.length} tool${drift.length === 1 ? '' : 's'} of "${shownName(server)}"` : `the current definition of "${shownName(tool)}"`;
  if (!(await agreed(yes, `Accept ${what}? [y/N] `))) {
    console.error(`Not accepted: nothing was pinned.${process.stdin.isTTY || yes ? '' : ' Without a terminal, --yes accepts.'}`);
    return Exit.approval;
  }
  const connection = host.pool.get(server)!;
  new DefinitionPins(pins).accept(server, tools, connection.state.kind === 'running' ? connection.state.instructions : undefined, tool);
  console.log(`Accepted ${what}.`);
  return Exit.ok;
}

const count = (tools: readonly ToolDrift[], state: ToolDrift['state']) => tools.filter((t) => t.state === state).length;

/** A changed tool as a unified diff of its pinned and current definitions (JSON, escapes visible). */
function diffText(server: string, t: ToolDrift): string {
  const before = visibleJson(t.before, 2).split('\n');
  const now = visibleJson(t.now, 2).split('\n');
  const head = `--- ${shownName(server)}/${shownName(t.tool)}, pinned\n+++ ${shownName(server)}/${shownName(t.tool)}, now (${t.parts!.join(', ')} changed)`;
  if (before.length > MAX_DIFF_LINES || now.length > MAX_DIFF_LINES) return `${head}\n(too long to compare line by line: ${before.length} and ${now.length} lines)`;
  return `${head}\n${lineDiff(before, now).join('\n')}`;
}

/** The changed lines ("-" pinned, "+" now) with CONTEXT lines around them, from a longest common subsequence. */
export function lineDiff(a: readonly string[], b: readonly string[]): string[] {
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const all: { mark: ' ' | '-' | '+'; line: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      all.push({ mark: ' ', line: a[i++] });
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) all.push({ mark: '-', line: a[i++] });
    else all.push({ mark: '+', line: b[j++] });
  }
  const near = (k: number) => all.slice(Math.max(0, k - CONTEXT), k + CONTEXT + 1).some((x) => x.mark !== ' ');
  const out: string[] = [];
  let skipped = false;
  all.forEach((x, k) => {
    if (x.mark !== ' ' || near(k)) {
      if (skipped && out.length > 0) out.push('  ...');
      out.push(`${x.mark} ${x.line}`);
      skipped = false;
    } else skipped = true;
  });
  return out;
}
