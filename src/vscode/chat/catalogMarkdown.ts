import * as vscode from 'vscode';
import type { ServerPool } from '../../core/connection/serverPool';
import { ServerState } from '../../core/connection/serverState';
import { displayName } from '../../core/tools/annotations';
import { mdCode, mdText } from '../../core/chat/markdown';
import { callVerdict, toolAnnotations, type ApprovalRules } from '../../core/policy/approvalPolicy';
import { badgeDescription } from '../../core/tools/toolBadges';
import { loadSearch } from '../../core/search/load';
import { serverEnabled, toolEnabled, type ChatSettings } from './chatSettings';

/** No server yet; or a folder not trusted yet whose servers wait (`waiting`, plain text naming them: escaped here). */
const noServers = (waiting: string | undefined) =>
  waiting
    ? `${mdText(waiting)} ${vscode.l10n.t('Trust it with **Workspaces: Manage Workspace Trust**.')}`
    : vscode.l10n.t('No MCP server is configured. Add one under `mcpToolHost.servers` in your settings, or run **MCP Tool Host: Add Demo Server**.');

/** `/servers`: every configured server, its state, its tool count, and whether chat may use it. */
export function serversMarkdown(pool: ServerPool, settings: ChatSettings, waiting?: string): string {
  if (pool.connections.length === 0) return noServers(waiting);
  const rows = pool.connections.map((c) => {
    const chat = serverEnabled(settings, c.name) ? '' : ` ${vscode.l10n.t('(off for chat: `mcpToolHost.chat.enabledServers`)')}`;
    const count = c.tools.length === 1 ? vscode.l10n.t('1 tool') : vscode.l10n.t('{0} tools', c.tools.length);
    const tools = ServerState.isRunning(c.state) ? `, ${count}` : '';
    return `- **${mdText(c.name)}**: ${mdText(ServerState.label(c.state))}${tools}${chat}`;
  });
  return `### ${vscode.l10n.t('MCP servers')}\n\n${rows.join('\n')}\n`;
}

/** `/tools`: the tools of every server, grouped by server, with what their definitions cost in tokens, their badges, whether a call asks first, and descriptions. */
export function toolsMarkdown(pool: ServerPool, settings: ChatSettings, rules: ApprovalRules, waiting?: string): string {
  if (pool.connections.length === 0) return noServers(waiting);
  const sections = pool.connections.map((c) => {
    const head = `### ${mdText(c.name)}`;
    if (!serverEnabled(settings, c.name)) return `${head}\n\n${vscode.l10n.t('Off for chat (`mcpToolHost.chat.enabledServers`).')}`;
    if (!ServerState.isRunning(c.state)) return `${head}\n\n${vscode.l10n.t('Not running ({0}): its tools are not available.', mdText(ServerState.label(c.state)))}`;
    if (c.tools.length === 0) return `${head}\n\n${vscode.l10n.t('No tools.')}`;
    const rows = c.tools.map((t) => {
      const a = toolAnnotations(rules, c.name, t, c.definition.trustAnnotations);
      const badges = badgeDescription(a);
      const asks = callVerdict(c.name, t, a, rules).kind === 'asks' ? ` · ${vscode.l10n.t('asks first')}` : '';
      const off = toolEnabled(settings, c.name, t.name) ? '' : ` ${vscode.l10n.t('(off for chat)')}`;
      const title = displayName(t) === t.name ? '' : ` ${mdText(displayName(t))}`;
      const description = t.description ? `: ${mdText(firstLine(t.description))}` : '';
      return `- ${mdCode(t.name)}${title} *(${mdText(badges)})*${asks}${off}${description}`;
    });
    const tokens = loadSearch().toolsTokens(c.tools);
    const cost = c.tools.length === 1
      ? vscode.l10n.t('1 tool, ~{0} tokens of its definition (o200k_base, the GPT-4o tokenizer)', tokens.toLocaleString('en-US'))
      : vscode.l10n.t('{0} tools, ~{1} tokens of definitions (o200k_base, the GPT-4o tokenizer)', c.tools.length, tokens.toLocaleString('en-US'));
    return `${head}\n\n${cost}\n\n${rows.join('\n')}`;
  });
  return `${sections.join('\n\n')}\n`;
}

function firstLine(text: string, max = 160): string {
  const line = text.split('\n').find((l) => l.trim()) ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
