import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerPool } from '../core/connection/serverPool';
import type { ServerConnection } from '../core/connection/serverConnection';
import type { ConfigError } from '../core/errors';
import { assertNever, type Disposable } from '../core/events';
import { badgeWords, displayName, effectiveAnnotations, type EffectiveAnnotations } from '../core/tools/annotations';
import { sanitizeLine, sanitizeText } from '../core/render/sanitize';

export type TreeNode =
  | { readonly kind: 'server'; readonly server: string }
  | { readonly kind: 'tool'; readonly server: string; readonly tool: string }
  | { readonly kind: 'message'; readonly server: string; readonly text: string }
  | { readonly kind: 'configError'; readonly error: ConfigError };

/** The "Tools" view: servers at the top, their tools beneath, an error row under a failed server. */
export class ToolTreeProvider implements vscode.TreeDataProvider<TreeNode>, Disposable {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly _subscription: Disposable;
  private readonly _serverNodes = new Map<string, TreeNode>();

  constructor(private readonly _pool: ServerPool) {
    this._subscription = _pool.onDidChange((connection) => {
      const node = connection && this._serverNodes.get(connection.name);
      this._onDidChangeTreeData.fire(node);
    });
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (!node) {
      this._serverNodes.clear();
      const servers = this._pool.connections.map((c): TreeNode => {
        const n: TreeNode = { kind: 'server', server: c.name };
        this._serverNodes.set(c.name, n);
        return n;
      });
      return [...servers, ...this._pool.configErrors.map((error): TreeNode => ({ kind: 'configError', error }))];
    }
    if (node.kind !== 'server') return [];
    const connection = this._pool.get(node.server);
    if (!connection) return [];
    if (connection.state.kind === 'error') return [{ kind: 'message', server: node.server, text: connection.state.message }];
    return connection.tools.map((t) => ({ kind: 'tool', server: node.server, tool: t.name }));
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'server':
        return this._serverItem(node.server);
      case 'tool':
        return this._toolItem(node.server, node.tool);
      case 'message': {
        const item = new vscode.TreeItem(sanitizeLine(node.text), vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon('info');
        item.tooltip = sanitizeText(node.text);
        item.command = { command: 'mcpToolHost.showServerLog', title: 'Show Log', arguments: [node.server] };
        return item;
      }
      case 'configError': {
        const item = new vscode.TreeItem(sanitizeLine(node.error.serverName), vscode.TreeItemCollapsibleState.None);
        item.description = 'configuration error';
        item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
        item.tooltip = node.error.message;
        item.contextValue = 'mcpConfigError';
        item.command = { command: 'mcpToolHost.openSettings', title: 'Open Settings' };
        return item;
      }
      default:
        return assertNever(node);
    }
  }

  dispose(): void {
    this._subscription.dispose();
    this._onDidChangeTreeData.dispose();
  }

  private _serverItem(name: string): vscode.TreeItem {
    const connection = this._pool.get(name);
    const item = new vscode.TreeItem(sanitizeLine(name), vscode.TreeItemCollapsibleState.Expanded);
    item.id = `server:${name}`;
    if (!connection) return item;
    const state = connection.state;
    item.contextValue = `mcpServer;${state.kind};`;
    const tools = connection.tools.length;
    switch (state.kind) {
      case 'running':
        item.iconPath = new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed'));
        item.description = `${tools} tool${tools === 1 ? '' : 's'}${state.serverVersion ? ` · v${sanitizeLine(state.serverVersion)}` : ''}`;
        break;
      case 'starting':
        item.iconPath = new vscode.ThemeIcon('loading~spin');
        item.description = connection.toolsFromCache ? `starting… · ${tools} cached tools` : 'starting…';
        break;
      case 'error':
        item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
        item.description = state.restartInMs ? `crashed · restarting in ${state.restartInMs / 1000} s` : 'error';
        break;
      case 'stopped':
        item.iconPath = new vscode.ThemeIcon('circle-outline');
        item.description = connection.toolsFromCache ? `stopped · ${tools} cached tools` : 'stopped';
        break;
      case 'disabled':
        item.iconPath = new vscode.ThemeIcon('circle-slash');
        item.description = 'disabled';
        break;
      default:
        assertNever(state);
    }
    item.tooltip = serverTooltip(connection);
    return item;
  }

  private _toolItem(server: string, name: string): vscode.TreeItem {
    const connection = this._pool.get(server);
    const tool = connection?.tools.find((t) => t.name === name);
    const item = new vscode.TreeItem(sanitizeLine(tool ? displayName(tool) : name), vscode.TreeItemCollapsibleState.None);
    item.id = `tool:${server}/${name}`;
    if (!connection || !tool) return item;
    const annotations = effectiveAnnotations(tool, connection.definition.trustAnnotations);
    item.description = badgeWords(annotations).join(' · ');
    item.iconPath = riskIcon(annotations);
    item.tooltip = toolTooltip(server, tool, annotations);
    item.contextValue = `mcpTool;${badgeWords(annotations).map((w) => w.replace('-', '')).join(';')};`;
    item.command = { command: 'mcpToolHost.callTool', title: 'Call Tool', arguments: [{ server, tool: name }] };
    return item;
  }
}

function riskIcon(a: EffectiveAnnotations): vscode.ThemeIcon {
  if (a.destructive.value) return new vscode.ThemeIcon('trash', new vscode.ThemeColor('errorForeground'));
  if (a.openWorld.value) return new vscode.ThemeIcon('globe', new vscode.ThemeColor('editorWarning.foreground'));
  if (a.readOnly.value) return new vscode.ThemeIcon('eye', new vscode.ThemeColor('testing.iconPassed'));
  return new vscode.ThemeIcon('edit');
}

function toolTooltip(server: string, tool: Tool, a: EffectiveAnnotations): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.isTrusted = false;
  md.supportHtml = false;
  md.appendMarkdown('**').appendText(sanitizeLine(displayName(tool))).appendMarkdown('** — ').appendText(`${sanitizeLine(server)} / ${sanitizeLine(tool.name)}`);
  if (tool.description) md.appendMarkdown('\n\n').appendText(sanitizeText(tool.description));
  md.appendMarkdown('\n\n');
  const hints: [string, EffectiveAnnotations[keyof EffectiveAnnotations]][] = [['read-only', a.readOnly], ['destructive', a.destructive], ['idempotent', a.idempotent], ['open-world', a.openWorld]];
  for (const [label, hint] of hints) md.appendText(`${label}: ${hint.value ? 'yes' : 'no'} (${hint.source === 'default' ? 'spec default' : hint.source === 'untrusted' ? 'assumed: annotations not trusted' : 'declared'})\n`);
  return md;
}

function serverTooltip(connection: ServerConnection): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.isTrusted = false;
  const state = connection.state;
  md.appendMarkdown('**').appendText(sanitizeLine(connection.name)).appendMarkdown('**\n\n');
  if (state.kind === 'running') {
    md.appendText(`${sanitizeLine(state.serverName ?? '')} ${sanitizeLine(state.serverVersion ?? '')} · protocol ${state.protocolVersion ?? '?'}\n`);
    if (state.instructions) md.appendMarkdown('\n').appendText(sanitizeText(state.instructions)).appendMarkdown('\n');
  } else {
    md.appendText(`State: ${state.kind === 'error' ? `error — ${state.message}` : state.kind}\n`);
  }
  if (connection.launchLine) md.appendMarkdown('\n').appendCodeblock(connection.launchLine, 'shell');
  md.appendText(`Source: ${connection.definition.source} settings · annotations ${connection.definition.trustAnnotations ? 'trusted' : 'not trusted'}`);
  return md;
}
