import * as vscode from 'vscode';
import { suspiciousText } from '../../core/policy/suspiciousText';
import type { Tool } from '@modelcontextprotocol/client';
import type { DevSettings } from '../../core/config/devConfig';
import type { ServerConnection } from '../../core/connection/serverConnection';
import { ServerState } from '../../core/connection/serverState';
import { verdictSentence, type CallVerdict } from '../../core/policy/approvalPolicy';
import { sanitizeLine, sanitizeText, shownName, shownTitle } from '../../core/render/sanitize';
import { formatCommandLine } from '../../core/transport/commandLine';
import { loadConfigOptions } from '../../core/config/load';
import type { EffectiveAnnotations } from '../../core/tools/annotations';
import { cutAtSpace, hoverMarkdown } from '../../core/tools/hoverText';
import { formatArgument, summarizeArguments } from '../../core/tools/schemaSummary';
import { ASSUMED_MARK, BADGE_SENTENCE, badgeText, hintSource, toolBadges } from '../../core/tools/toolBadges';

/** Server text longer than this is cut in a tooltip (Show Schema has all of it). */
const MAX_DESCRIPTION_CHARS = 1500;
const MAX_INSTRUCTIONS_CHARS = 1000;
const MAX_CAPABILITIES = 12;

/** A failure kept after the server recovered, for its tooltip. */
export interface LastError {
  readonly message: string;
  readonly at: Date;
}

/**
 * Markdown that renders no HTML, runs no command links, and gets server text only through
 * `hoverMarkdown`: not `appendText`, which writes every space as `&nbsp;`, so the hover could
 * only wrap a long line inside a word.
 */
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

function yesNo(value: boolean): string {
  return value ? vscode.l10n.t('yes') : vscode.l10n.t('no');
}

/** Text cut at a space near `max`, saying how much was left out. */
function cut(value: string, max: number): string {
  const { text: kept, left } = cutAtSpace(value, max);
  return left ? `${kept}… ${vscode.l10n.t('({0} more characters)', left)}` : kept;
}

/**
 * A tool's tooltip: name, sanitised description, its arguments from the input schema, what it
 * may do and whether a call asks first (the pipeline's own verdict), and each hint with where it came from.
 */
export function toolTooltip(server: string, tool: Tool, a: EffectiveAnnotations, verdict: CallVerdict, changed?: readonly string[], lockDrift?: { readonly parts: readonly string[]; readonly lockfile: string }): vscode.MarkdownString {
  const md = untrustedMarkdown();
  const shown = shownTitle(tool);
  const where = shown === shownName(tool.name) ? vscode.l10n.t('on {0}', shownName(server)) : `${shownName(server)} / ${shownName(tool.name)}`;
  md.appendMarkdown(`**${hoverMarkdown(shown)}** — ${hoverMarkdown(where)}`);
  if (changed) md.appendMarkdown(`\n\n⚠ ${vscode.l10n.t('**Changed since you first saw it:** {0}. Right-click: Show Changes, or Accept Changes.', changed.join(', ') || vscode.l10n.t('definition'))}`);
  if (lockDrift) {
    md.appendMarkdown(`\n\n⚠ ${vscode.l10n.t('**Differs from the workspace lockfile:** {0}. Each call asks first; its prompt shows the changes and can accept them on this machine (the lockfile stays as the team wrote it).', lockDrift.parts.join(', '))}`);
    md.appendMarkdown(`\n\n${vscode.l10n.t('Lockfile:')} `).appendMarkdown(hoverMarkdown(sanitizeLine(lockDrift.lockfile)));
  }
  const flags = [...suspiciousText(tool.description), ...suspiciousText(tool.title)];
  if (flags.length) md.appendMarkdown(`\n\n⚠ ${vscode.l10n.t('**Look twice:** the description')} ${hoverMarkdown(flags.join('; '))}.`);
  if (tool.description) md.appendMarkdown(`\n\n${hoverMarkdown(cut(sanitizeText(tool.description).trim(), MAX_DESCRIPTION_CHARS))}`);

  const { arguments: args, more } = summarizeArguments(tool.inputSchema);
  md.appendMarkdown(`\n\n**${vscode.l10n.t('Arguments')}**`);
  if (args.length === 0) md.appendMarkdown(`: ${vscode.l10n.t('none')}`);
  for (const arg of args) md.appendMarkdown(`\n- ${hoverMarkdown(sanitizeLine(formatArgument(arg)))}`);
  if (more) md.appendMarkdown(`\n- ${vscode.l10n.t('…and {0} more', more)}`);
  if (args.some((x) => x.required)) md.appendMarkdown(`\n\n\\* ${vscode.l10n.t('required')}`);

  const badges = toolBadges(a);
  md.appendMarkdown(`\n\n**${vscode.l10n.t('What it may do')}**`);
  for (const b of badges) md.appendMarkdown(`\n- ${badgeText(b)}: ${BADGE_SENTENCE[b.word]}`);
  // A lockfile that differs asks whatever grants or hints say: the sentence must not promise a call without asking.
  const sentence = lockDrift ? { headline: vscode.l10n.t('Asks before each call:'), text: vscode.l10n.t('it differs from the workspace lockfile.') } : verdictSentence(verdict);
  md.appendMarkdown('\n\n');
  if (sentence.headline) md.appendMarkdown(`**${hoverMarkdown(sentence.headline)}** `);
  md.appendMarkdown(hoverMarkdown(sentence.text));

  md.appendMarkdown(`\n\n**${vscode.l10n.t('Hints')}**`);
  const hints = [['read-only', a.readOnly, 'readOnlyHint'], ['destructive', a.destructive, 'destructiveHint'], ['idempotent', a.idempotent, 'idempotentHint'], ['open-world', a.openWorld, 'openWorldHint']] as const;
  for (const [label, hint, key] of hints) {
    // What an untrusted server claims, beside what we assume: it helps decide whether to trust it.
    const claimed = hint.source === 'untrusted' ? tool.annotations?.[key] : undefined;
    const says = typeof claimed === 'boolean' ? `; ${vscode.l10n.t('the server says {0}', yesNo(claimed))}` : '';
    md.appendMarkdown(`\n- ${label}: ${yesNo(hint.value)} (${hintSource(hint)}${says})`);
  }
  if (a.readOnly.source === 'untrusted') {
    md.appendMarkdown(`\n\n${vscode.l10n.t('This server is defined by the workspace, so its hints are not trusted: the tool is treated as destructive and open-world. To use its hints, add the server\'s name to `mcpToolHost.trustedWorkspaceServers` in your user settings (a workspace cannot trust itself).')}`);
  } else if (badges.some((b) => b.assumed)) {
    md.appendMarkdown(`\n\n${vscode.l10n.t('"{0}" marks what the server did not declare: the spec\'s cautious default is assumed.', ASSUMED_MARK)}`);
  }
  return md;
}

/** What a server's tool definitions cost a model, in words. */
export function tokensText(tokens: number): string {
  return vscode.l10n.t('~{0} tokens (o200k_base, the GPT-4o tokenizer)', tokens.toLocaleString('en-US'));
}

/**
 * A server's tooltip: name and state, the server's own name and version, protocol version,
 * capabilities, tool count (and what their definitions cost in tokens, when counted), where it is
 * defined, its instructions, the launch line and the last error.
 */
export function serverTooltip(connection: ServerConnection, lastError: LastError | undefined, tokens?: number): vscode.MarkdownString {
  const md = untrustedMarkdown();
  const state = connection.state;
  md.appendMarkdown(`**${hoverMarkdown(shownName(connection.name))}** — ${state.kind}`);
  if (state.kind === 'error' && state.refusedBy !== undefined) {
    md.appendMarkdown(`\n\n**${vscode.l10n.t('Refused by the administrator\'s policy')}**\n\n`).appendMarkdown(hoverMarkdown(sanitizeText(state.message)));
    md.appendMarkdown(`\n\n${vscode.l10n.t('Policy file:')} `).appendMarkdown(hoverMarkdown(sanitizeLine(state.refusedBy)));
    md.appendMarkdown(`\n\n${vscode.l10n.t('Open the Policy (under the server) shows what it allows; Restart tries again once it changed.')}`);
  } else if (state.kind === 'error') {
    md.appendMarkdown(`\n\n**${vscode.l10n.t('Error')}**\n\n`).appendMarkdown(hoverMarkdown(sanitizeText(state.message)));
    if (state.restartInMs) md.appendMarkdown(`\n\n${vscode.l10n.t('Restarting automatically in {0} s.', Math.round(state.restartInMs / 1000))}`);
    const tail = state.detail?.slice(-5) ?? [];
    if (tail.length) {
      md.appendMarkdown(`\n\n${vscode.l10n.t('Last stderr lines:')}`);
      appendCode(md, tail.map(sanitizeLine).join('\n'));
    }
  }
  if (state.kind === 'starting' && state.message) md.appendMarkdown(`\n\n${hoverMarkdown(sanitizeLine(state.message))}`);
  if (state.kind === 'running') {
    const who = [state.serverName, state.serverVersion].filter((s): s is string => !!s).map(sanitizeLine).join(' ');
    if (who) md.appendMarkdown(`\n\n${vscode.l10n.t('Server:')} `).appendMarkdown(hoverMarkdown(who));
    md.appendMarkdown(`\n\n${vscode.l10n.t('Protocol:')} `).appendMarkdown(hoverMarkdown(sanitizeLine(state.protocolVersion ?? vscode.l10n.t('unknown'))));
    md.appendMarkdown(`\n\n${vscode.l10n.t('Capabilities:')} `).appendMarkdown(hoverMarkdown(capabilityList(state.capabilities)));
  }
  const count = connection.tools.length;
  const cachedNote = !count ? '' : connection.toolsFromCache ? ` ${vscode.l10n.t('(cached from the last run)')}` : !ServerState.isRunning(state) ? ` ${vscode.l10n.t('(as last listed)')}` : '';
  const cost = count && tokens !== undefined ? ` · ${tokensText(tokens)}` : '';
  if (count || ServerState.isRunning(state)) md.appendMarkdown(`\n\n${vscode.l10n.t('Tools: {0}', count)}${cachedNote}${cost}`);
  const def = connection.definition;
  const where = def.source === 'user' ? vscode.l10n.t('Defined in: user settings') : vscode.l10n.t('Defined in: this workspace');
  const hints = def.trustAnnotations ? vscode.l10n.t('hints trusted') : vscode.l10n.t('hints not trusted (every tool treated as destructive and open-world)');
  md.appendMarkdown(`\n\n${where} · ${hints}`);
  if (def.spec.type === 'stdio' && def.spec.sandbox) {
    md.appendMarkdown(`\n\n**${vscode.l10n.t('Sandboxed: it may reach only')}**`);
    appendCode(md, loadConfigOptions().describeSandbox(def.spec.sandbox).map(sanitizeLine).join('\n'));
  }
  if (def.spec.type === 'stdio' && def.spec.dev && connection.devMode) appendDev(md, def.spec.dev, connection.debuggable);
  if (connection.rootsWhy) md.appendMarkdown(`\n\n${vscode.l10n.t('Roots:')} `).appendMarkdown(hoverMarkdown(sanitizeText(connection.rootsWhy)));
  if (state.kind === 'running' && state.instructions) {
    md.appendMarkdown(`\n\n**${vscode.l10n.t('Instructions')}**\n\n`).appendMarkdown(hoverMarkdown(cut(sanitizeText(state.instructions).trim(), MAX_INSTRUCTIONS_CHARS)));
  }
  const launch = connection.launchLine ?? configuredLaunch(connection);
  md.appendMarkdown(`\n\n**${connection.launchLine ? vscode.l10n.t('Launch') : vscode.l10n.t('Configured launch')}**`);
  appendCode(md, sanitizeLine(launch));
  if (state.kind !== 'error' && lastError) {
    md.appendMarkdown(`\n\n**${vscode.l10n.t('Last error')}** (${lastError.at.toLocaleTimeString()})\n\n`).appendMarkdown(hoverMarkdown(sanitizeText(lastError.message)));
  }
  return md;
}

/** Why the row says "dev": the files whose save restarts it, and its debugger (attached again from the row's menu). */
function appendDev(md: vscode.MarkdownString, dev: DevSettings, debuggable: boolean): void {
  md.appendMarkdown(`\n\n**${vscode.l10n.t('Dev mode')}**`);
  if (dev.watch.length) md.appendMarkdown(`\n\n${vscode.l10n.t('Restarts when these files change:')} `).appendMarkdown(hoverMarkdown(dev.watch.map(sanitizeLine).join(', ')));
  if (dev.debug?.type === 'node') md.appendMarkdown(`\n\n${debuggable ? vscode.l10n.t('Runs with the Node inspector on 127.0.0.1; Attach Debugger (in its menu) attaches the debugger again.') : vscode.l10n.t('Runs with the Node inspector on 127.0.0.1 from its next start.')}`);
}

/** The command line (or URL) as configured, variables unresolved: for servers that never launched. */
function configuredLaunch(connection: ServerConnection): string {
  const spec = connection.definition.spec;
  return spec.type === 'http' ? spec.url : formatCommandLine(spec.command, spec.args);
}

/** `tools (list changes), resources (subscribe, list changes), logging`. */
export function capabilityList(capabilities: Readonly<Record<string, unknown>> | undefined): string {
  const names = Object.entries(capabilities ?? {}).slice(0, MAX_CAPABILITIES).map(([name, value]) => {
    const flags = typeof value === 'object' && value !== null ? Object.entries(value).filter(([, v]) => v === true).map(([k]) => (k === 'listChanged' ? vscode.l10n.t('list changes') : k)) : [];
    return `${sanitizeLine(name)}${flags.length ? ` (${flags.map(sanitizeLine).join(', ')})` : ''}`;
  });
  return names.join(', ') || vscode.l10n.t('none declared');
}
