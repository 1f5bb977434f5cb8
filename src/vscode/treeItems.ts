import * as vscode from 'vscode';
import type { ServerConnection } from '../core/connection/serverConnection';
import { ServerState } from '../core/connection/serverState';
import { assertNever } from '../core/events';
import { sanitizeLine, sanitizeText } from '../core/render/sanitize';
import { displayName, type EffectiveAnnotations } from '../core/tools/annotations';
import { badgeDescription, toolBadges, toolRisk, type ToolRisk } from '../core/tools/toolBadges';
import { serverTooltip, type LastError } from './tooltips';
import type { ActionNode, ConfigErrorNode, MessageNode, ServerAction, ToolNode } from './treeNodes';

const icon = (id: string, color?: string) => new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The icon of each risk: red trash, orange globe, blue pencil, green eye. */
const RISK_ICON: Readonly<Record<ToolRisk, readonly [string, string]>> = {
  destructive: ['trash', 'charts.red'],
  'open-world': ['globe', 'charts.orange'],
  writes: ['edit', 'charts.blue'],
  'read-only': ['eye', 'charts.green'],
};

/**
 * A server row: its state as icon (spinner, green check, red error, history for cached tools,
 * slashed circle, empty circle), tool count and version or state as description.
 */
export function serverItem(connection: ServerConnection, lastError: LastError | undefined, expanded: boolean): vscode.TreeItem {
  const item = new vscode.TreeItem(sanitizeLine(connection.name), expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `server:${connection.name}`;
  const state = connection.state;
  item.contextValue = `mcpServer;${state.kind};`;
  const tools = connection.tools.length;
  // Tools shown while the server is not running are the last-known list: "cached".
  const cached = tools > 0 && (connection.toolsFromCache || !ServerState.isRunning(state));
  switch (state.kind) {
    case 'running':
      item.iconPath = icon('pass-filled', 'testing.iconPassed');
      item.description = `${plural(tools, 'tool')}${state.serverVersion ? ` · v${sanitizeLine(state.serverVersion)}` : ''}`;
      break;
    case 'starting':
      item.iconPath = icon('loading~spin');
      // A start that waits on the user (a sign-in) says so.
      item.description = state.message ? `starting… · ${sanitizeLine(state.message)}` : cached ? `starting… · ${plural(tools, 'cached tool')}` : 'starting…';
      break;
    case 'error':
      item.iconPath = icon('error', 'testing.iconFailed');
      item.description = state.restartInMs ? `crashed · restarting in ${Math.round(state.restartInMs / 1000)} s` : 'error';
      break;
    case 'stopped':
      item.iconPath = cached ? icon('history', 'descriptionForeground') : icon('circle-large-outline');
      item.description = cached ? `stopped · ${plural(tools, 'cached tool')}` : 'stopped';
      break;
    case 'disabled':
      item.iconPath = icon('circle-slash', 'disabledForeground');
      item.description = 'disabled';
      break;
    default:
      assertNever(state);
  }
  if (!connection.definition.trustAnnotations) item.description = `${item.description} · hints not trusted`;
  item.tooltip = serverTooltip(connection, lastError);
  return item;
}

/**
 * A tool row: display name, badges as description, the icon and color of its risk; clicking
 * calls it. The tooltip comes later, in resolveTreeItem (thousands of rows stay cheap).
 */
export function toolItem(node: ToolNode, annotations: EffectiveAnnotations, changed?: readonly string[]): vscode.TreeItem {
  const item = new vscode.TreeItem(sanitizeLine(displayName(node.definition)), vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.description = changed ? `changed! · ${badgeDescription(annotations)}` : badgeDescription(annotations);
  const [iconId, color] = RISK_ICON[toolRisk(annotations)];
  item.iconPath = icon(iconId, color);
  // Flags for `viewItem =~ /;destructive;/`: readonly, writes, destructive, idempotent, openworld.
  item.contextValue = `mcpTool;${toolBadges(annotations).map((b) => `${b.word.replace('-', '')};`).join('')}${changed ? 'changed;' : ''}`;
  item.command = { command: 'mcpToolHost.callTool', title: 'Call Tool', arguments: [{ server: node.server, tool: node.tool }] };
  item.accessibilityInformation = { label: `${item.label as string}, ${item.description}` };
  return item;
}

/** A line under a server: the reason it failed (error), or why it has no tools (info). */
export function messageItem(node: MessageNode): vscode.TreeItem {
  const item = new vscode.TreeItem(sanitizeLine(node.text), vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.iconPath = node.tone === 'error' ? icon('warning', 'problemsWarningIcon.foreground') : icon('info');
  item.tooltip = sanitizeText(node.text);
  item.contextValue = `mcpMessage;${node.tone};`;
  if (node.tone === 'error') item.command = { command: 'mcpToolHost.showServerLog', title: 'Show Log', arguments: [node.server] };
  return item;
}

const ACTIONS: Readonly<Record<ServerAction, { label: string; icon: string; description: string; command: string }>> = {
  showLog: { label: 'Show Log', icon: 'output', description: 'launch line, stderr, MCP messages', command: 'mcpToolHost.showServerLog' },
  restart: { label: 'Restart', icon: 'debug-restart', description: 'try again', command: 'mcpToolHost.restartServer' },
  runDoctor: { label: 'Run Doctor', icon: 'pulse', description: 'check command, PATH and handshake', command: 'mcpToolHost.runDoctor' },
  start: { label: 'Start', icon: 'debug-start', description: 'to list its tools', command: 'mcpToolHost.startServer' },
  openConfiguration: { label: 'Open Configuration', icon: 'gear', description: 'where it is defined', command: 'mcpToolHost.openServerConfiguration' },
};

/** A clickable fix under a server. */
export function actionItem(node: ActionNode): vscode.TreeItem {
  const action = ACTIONS[node.action];
  const item = new vscode.TreeItem(action.label, vscode.TreeItemCollapsibleState.None);
  item.id = `action:${node.server}:${node.action}`;
  item.iconPath = icon(action.icon);
  item.description = action.description;
  item.contextValue = `mcpAction;${node.action};`;
  item.command = { command: action.command, title: action.label, arguments: [node.server] };
  return item;
}

/** A broken configuration entry: its name, and the problem in the tooltip; click opens where it is. */
export function configErrorItem(node: ConfigErrorNode): vscode.TreeItem {
  const item = new vscode.TreeItem(sanitizeLine(node.error.serverName), vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.description = 'configuration error';
  item.iconPath = icon('warning', 'problemsWarningIcon.foreground');
  item.tooltip = node.error.message;
  item.contextValue = 'mcpConfigError;';
  item.command = { command: 'mcpToolHost.openServerConfiguration', title: 'Open Configuration', arguments: [node] };
  return item;
}
