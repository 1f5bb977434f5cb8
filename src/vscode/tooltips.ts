import * as vscode from 'vscode';
import { suspiciousText } from '../core/policy/suspiciousText';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../core/connection/serverConnection';
import { ServerState } from '../core/connection/serverState';
import { verdictSentence, type CallVerdict } from '../core/policy/approvalPolicy';
import { sanitizeLine, sanitizeText } from '../core/render/sanitize';
import { formatCommandLine } from '../core/transport/commandLine';
import { displayName, type EffectiveAnnotations } from '../core/tools/annotations';
import { formatArgument, summarizeArguments } from '../core/tools/schemaSummary';
import { ASSUMED_MARK, BADGE_SENTENCE, hintSource, toolBadges } from '../core/tools/toolBadges';

/** Server text longer than this is cut in a tooltip (Show Schema has all of it). */
const MAX_DESCRIPTION_CHARS = 1500;
const MAX_INSTRUCTIONS_CHARS = 1000;
const MAX_CAPABILITIES = 12;

/** A failure kept after the server recovered, for its tooltip. */
export interface LastError {
  readonly message: string;
  readonly at: Date;
}

/** Markdown that renders no HTML, runs no command links, and gets server text only through appendText. */
function untrustedMarkdown(): vscode.MarkdownString {
  const md = new vscode.MarkdownString('', false);
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

/** A fenced code block whose fence is longer than any backtick run in `text`, so text cannot close it. */
function appendCode(md: vscode.MarkdownString, text: string): void {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  md.appendMarkdown(`\n\n${fence}\n${text}\n${fence}\n`);
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

/**
 * A tool's tooltip: name, sanitised description, its arguments from the input schema, what it
 * may do and whether a call asks first (the pipeline's own verdict), and each hint with where it came from.
 */
export function toolTooltip(server: string, tool: Tool, a: EffectiveAnnotations, verdict: CallVerdict, changed?: readonly string[]): vscode.MarkdownString {
  const md = untrustedMarkdown();
  const shown = sanitizeLine(displayName(tool));
  md.appendMarkdown('**').appendText(shown).appendMarkdown('** — ').appendText(shown === sanitizeLine(tool.name) ? `on ${sanitizeLine(server)}` : `${sanitizeLine(server)} / ${sanitizeLine(tool.name)}`);
  if (changed) md.appendMarkdown(`\n\n⚠ **Changed since you first saw it:** ${changed.join(', ') || 'definition'}. Right-click: Show Changes, or Accept Changes.`);
  const flags = [...suspiciousText(tool.description), ...suspiciousText(tool.title)];
  if (flags.length) md.appendMarkdown('\n\n⚠ **Look twice:** the description ').appendText(flags.join('; ')).appendMarkdown('.');
  if (tool.description) md.appendMarkdown('\n\n').appendText(cut(sanitizeText(tool.description).trim(), MAX_DESCRIPTION_CHARS));

  const { arguments: args, more } = summarizeArguments(tool.inputSchema);
  md.appendMarkdown('\n\n**Arguments**');
  if (args.length === 0) md.appendMarkdown(': none');
  for (const arg of args) md.appendMarkdown('\n- ').appendText(sanitizeLine(formatArgument(arg)));
  if (more) md.appendMarkdown(`\n- …and ${more} more`);
  if (args.some((x) => x.required)) md.appendMarkdown('\n\n\\* required');

  const badges = toolBadges(a);
  md.appendMarkdown('\n\n**What it may do**');
  for (const b of badges) md.appendMarkdown(`\n- ${b.word}${b.assumed ? ASSUMED_MARK : ''}: ${BADGE_SENTENCE[b.word]}`);
  const sentence = verdictSentence(verdict);
  md.appendMarkdown('\n\n');
  if (sentence.headline) md.appendMarkdown('**').appendText(sentence.headline).appendMarkdown('** ');
  md.appendText(sentence.text);

  md.appendMarkdown('\n\n**Hints**');
  const hints = [['read-only', a.readOnly, 'readOnlyHint'], ['destructive', a.destructive, 'destructiveHint'], ['idempotent', a.idempotent, 'idempotentHint'], ['open-world', a.openWorld, 'openWorldHint']] as const;
  for (const [label, hint, key] of hints) {
    // What an untrusted server claims, beside what we assume: it helps decide whether to trust it.
    const claimed = hint.source === 'untrusted' ? tool.annotations?.[key] : undefined;
    md.appendMarkdown(`\n- ${label}: ${hint.value ? 'yes' : 'no'} (${hintSource(hint)}${typeof claimed === 'boolean' ? `; the server says ${claimed ? 'yes' : 'no'}` : ''})`);
  }
  if (a.readOnly.source === 'untrusted') {
    md.appendMarkdown('\n\nThis server is defined by the workspace, so its hints are not trusted: the tool is treated as destructive and open-world. Set `"trustAnnotations": true` on the server to use its hints.');
  } else if (badges.some((b) => b.assumed)) {
    md.appendMarkdown(`\n\n"${ASSUMED_MARK}" marks what the server did not declare: the spec's cautious default is assumed.`);
  }
  return md;
}

/**
 * A server's tooltip: name and state, the server's own name and version, protocol version,
 * capabilities, tool count, where it is defined, its instructions, the launch line and the last error.
 */
export function serverTooltip(connection: ServerConnection, lastError: LastError | undefined): vscode.MarkdownString {
  const md = untrustedMarkdown();
  const state = connection.state;
  md.appendMarkdown('**').appendText(sanitizeLine(connection.name)).appendMarkdown(`** — ${state.kind}`);
  if (state.kind === 'error') {
    md.appendMarkdown('\n\n**Error**\n\n').appendText(sanitizeText(state.message));
    if (state.restartInMs) md.appendMarkdown(`\n\nRestarting automatically in ${Math.round(state.restartInMs / 1000)} s.`);
    const tail = state.detail?.slice(-5) ?? [];
    if (tail.length) {
      md.appendMarkdown('\n\nLast stderr lines:');
      appendCode(md, tail.map(sanitizeLine).join('\n'));
    }
  }
  if (state.kind === 'starting' && state.message) md.appendMarkdown('\n\n').appendText(sanitizeLine(state.message));
  if (state.kind === 'running') {
    const who = [state.serverName, state.serverVersion].filter((s): s is string => !!s).map(sanitizeLine).join(' ');
    if (who) md.appendMarkdown('\n\nServer: ').appendText(who);
    md.appendMarkdown('\n\nProtocol: ').appendText(sanitizeLine(state.protocolVersion ?? 'unknown'));
    md.appendMarkdown('\n\nCapabilities: ').appendText(capabilityList(state.capabilities));
  }
  const count = connection.tools.length;
  const cachedNote = !count ? '' : connection.toolsFromCache ? ' (cached from the last run)' : !ServerState.isRunning(state) ? ' (as last listed)' : '';
  if (count || ServerState.isRunning(state)) md.appendMarkdown(`\n\nTools: ${count}${cachedNote}`);
  const def = connection.definition;
  md.appendMarkdown(`\n\nDefined in: ${def.source === 'user' ? 'user settings' : 'this workspace'} · hints ${def.trustAnnotations ? 'trusted' : 'not trusted (every tool treated as destructive and open-world)'}`);
  if (state.kind === 'running' && state.instructions) {
    md.appendMarkdown('\n\n**Instructions**\n\n').appendText(cut(sanitizeText(state.instructions).trim(), MAX_INSTRUCTIONS_CHARS));
  }
  const launch = connection.launchLine ?? configuredLaunch(connection);
  md.appendMarkdown(connection.launchLine ? '\n\n**Launch**' : '\n\n**Configured launch**');
  appendCode(md, sanitizeLine(launch));
  if (state.kind !== 'error' && lastError) {
    md.appendMarkdown(`\n\n**Last error** (${lastError.at.toLocaleTimeString()})\n\n`).appendText(sanitizeText(lastError.message));
  }
  return md;
}

/** The command line (or URL) as configured, variables unresolved: for servers that never launched. */
function configuredLaunch(connection: ServerConnection): string {
  const spec = connection.definition.spec;
  return spec.type === 'http' ? spec.url : formatCommandLine(spec.command, spec.args);
}

/** `tools (list changes), resources (subscribe, list changes), logging`. */
export function capabilityList(capabilities: Readonly<Record<string, unknown>> | undefined): string {
  const names = Object.entries(capabilities ?? {}).slice(0, MAX_CAPABILITIES).map(([name, value]) => {
    const flags = typeof value === 'object' && value !== null ? Object.entries(value).filter(([, v]) => v === true).map(([k]) => (k === 'listChanged' ? 'list changes' : k)) : [];
    return `${sanitizeLine(name)}${flags.length ? ` (${flags.map(sanitizeLine).join(', ')})` : ''}`;
  });
  return names.join(', ') || 'none declared';
}
