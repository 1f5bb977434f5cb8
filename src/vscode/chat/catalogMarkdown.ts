import type { ServerPool } from '../../core/connection/serverPool';
import { ServerState } from '../../core/connection/serverState';
import { displayName, effectiveAnnotations } from '../../core/tools/annotations';
import { mdCode, mdText } from '../../core/chat/markdown';
import { callVerdict, type ApprovalRules } from '../../core/policy/approvalPolicy';
import { badgeDescription } from '../../core/tools/toolBadges';
import { serverEnabled, toolEnabled, type ChatSettings } from './chatSettings';

const NO_SERVERS = 'No MCP server is configured. Add one under `mcpToolHost.servers` in your settings, or run **MCP: Add Demo Server**.';

/** `/servers`: every configured server, its state, its tool count, and whether chat may use it. */
export function serversMarkdown(pool: ServerPool, settings: ChatSettings): string {
  if (pool.connections.length === 0) return NO_SERVERS;
  const rows = pool.connections.map((c) => {
    const chat = serverEnabled(settings, c.name) ? '' : ' (off for chat: `mcpToolHost.chat.enabledServers`)';
    const tools = ServerState.isRunning(c.state) ? `, ${c.tools.length} tool${c.tools.length === 1 ? '' : 's'}` : '';
    return `- **${mdText(c.name)}**: ${mdText(ServerState.label(c.state))}${tools}${chat}`;
  });
  return `### MCP servers\n\n${rows.join('\n')}\n`;
}

/** `/tools`: the tools of every server, grouped by server, with their badges, whether a call asks first, and descriptions. */
export function toolsMarkdown(pool: ServerPool, settings: ChatSettings, rules: ApprovalRules): string {
  if (pool.connections.length === 0) return NO_SERVERS;
  const sections = pool.connections.map((c) => {
    const head = `### ${mdText(c.name)}`;
    if (!serverEnabled(settings, c.name)) return `${head}\n\nOff for chat (\`mcpToolHost.chat.enabledServers\`).`;
    if (!ServerState.isRunning(c.state)) return `${head}\n\nNot running (${mdText(ServerState.label(c.state))}): its tools are not available.`;
    if (c.tools.length === 0) return `${head}\n\nNo tools.`;
    const rows = c.tools.map((t) => {
      const a = effectiveAnnotations(t, c.definition.trustAnnotations);
      const badges = badgeDescription(a);
      const asks = callVerdict(c.name, t, a, rules).kind === 'asks' ? ' · asks first' : '';
      const off = toolEnabled(settings, c.name, t.name) ? '' : ' (off for chat)';
      const title = displayName(t) === t.name ? '' : ` ${mdText(displayName(t))}`;
      const description = t.description ? `: ${mdText(firstLine(t.description))}` : '';
      return `- ${mdCode(t.name)}${title} *(${mdText(badges)})*${asks}${off}${description}`;
    });
    return `${head}\n\n${rows.join('\n')}`;
  });
  return `${sections.join('\n\n')}\n`;
}

function firstLine(text: string, max = 160): string {
  const line = text.split('\n').find((l) => l.trim()) ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
