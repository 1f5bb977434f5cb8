import * as vscode from 'vscode';
import type { ServerPool } from '../core/connection/serverPool';
import { ServerState } from '../core/connection/serverState';
import { sanitizeLine } from '../core/render/sanitize';
import { displayName } from '../core/tools/annotations';
import { addServer, addServerQuestions } from './addServerWizard';
import { runDoctor } from './doctorCommand';
import { pickServer } from './pickServer';
import { configErrorPlace, openServerConfiguration } from './serverLocation';
import type { ServerLogs } from './serverLogs';
import { SECTION } from './settings';
import type { ToolSchemaDocuments } from './showSchema';
import type { ToolTreeProvider } from './toolTree';
import type { TreeNode } from './treeNodes';

export interface ViewCommandDeps {
  readonly context: vscode.ExtensionContext;
  readonly pool: ServerPool;
  readonly logs: ServerLogs;
  readonly tree: ToolTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
  readonly schemas: ToolSchemaDocuments;
}

/** What a command may be invoked with: a tree row (menus), a server name (rows' own commands), or nothing (palette). */
type Target = TreeNode | string | { server: string; tool?: string } | undefined;

const WALKTHROUGH = 'mcpToolHost.gettingStarted';

/**
 * The commands of the Tools view that are not calls: Add Server, Show Schema, Copy Name, Open
 * Configuration, Run Doctor, Get Started, and the short-titled `mcpToolHost.tree.*` twins of
 * server commands that menus show ("Start" rather than "Start Server..."). The returned
 * disposable unregisters them.
 */
export function registerViewCommands(deps: ViewCommandDeps): vscode.Disposable {
  const { pool } = deps;
  const register = (id: string, fn: (target?: Target) => unknown) => vscode.commands.registerCommand(id, fn);
  const delegate = (id: string, to: string) => register(id, (t) => vscode.commands.executeCommand(to, serverOf(t)));
  return vscode.Disposable.from(
    register('mcpToolHost.addServer', async () => {
      const taken = new Set([...pool.connections.map((c) => c.name), ...Object.keys(vscode.workspace.getConfiguration(SECTION).inspect<object>('servers')?.globalValue ?? {})]);
      const result = await addServer(addServerQuestions, taken);
      if (result?.kind === 'handed-over') return vscode.commands.executeCommand(result.to === 'demo' ? 'mcpToolHost.addDemoServer' : 'mcpToolHost.importServers');
      if (result?.kind !== 'added') return undefined;
      await revealServer(deps, result.name);
      void vscode.window
        .showInformationMessage(`Added "${sanitizeLine(result.name)}" to your user settings; it is starting.`, 'Show Log', 'Open Configuration')
        .then((a) => a && vscode.commands.executeCommand(a === 'Show Log' ? 'mcpToolHost.showServerLog' : 'mcpToolHost.openServerConfiguration', result.name));
      return result;
    }),
    register('mcpToolHost.showSchema', async (t) => {
      const target = toolOf(t) ?? (await pickTool(pool));
      return target && deps.schemas.show(target.server, target.tool);
    }),
    register('mcpToolHost.tree.copyName', async (t) => {
      const target = toolOf(t);
      if (!target) return;
      await vscode.env.clipboard.writeText(target.tool);
      vscode.window.setStatusBarMessage(`Copied tool name "${sanitizeLine(target.tool)}"`, 3000);
    }),
    register('mcpToolHost.openServerConfiguration', async (t) => {
      if (typeof t === 'object' && 'kind' in t && t.kind === 'configError') {
        const place = configErrorPlace(t.error);
        return openServerConfiguration(place.name, undefined, place.fileLabel);
      }
      const name = serverOf(t) ?? (await pickServer(pool, 'Open the configuration of which server?'));
      const connection = name === undefined ? undefined : pool.get(name);
      return name && openServerConfiguration(name, connection?.definition.source);
    }),
    register('mcpToolHost.runDoctor', async (t) => {
      const name = serverOf(t) ?? (await pickServer(pool, 'Run doctor on which server?', (c) => ServerState.canRestart(c.state)));
      return name && runDoctor(pool, deps.logs, name);
    }),
    register('mcpToolHost.openWalkthrough', () => vscode.commands.executeCommand('workbench.action.openWalkthrough', `${deps.context.extension.id}#${WALKTHROUGH}`, false)),
    register('mcpToolHost.tree.callTool', (t) => {
      const target = toolOf(t);
      return target && vscode.commands.executeCommand('mcpToolHost.callTool', target);
    }),
    register('mcpToolHost.tree.showSchema', (t) => {
      const target = toolOf(t);
      return target && vscode.commands.executeCommand('mcpToolHost.showSchema', target);
    }),
    delegate('mcpToolHost.tree.start', 'mcpToolHost.startServer'),
    delegate('mcpToolHost.tree.stop', 'mcpToolHost.stopServer'),
    delegate('mcpToolHost.tree.restart', 'mcpToolHost.restartServer'),
    delegate('mcpToolHost.tree.showLog', 'mcpToolHost.showServerLog'),
    // A broken entry has no server yet: its row itself says where to look.
    register('mcpToolHost.tree.openConfiguration', (t) => vscode.commands.executeCommand('mcpToolHost.openServerConfiguration', typeof t === 'object' && 'kind' in t && t.kind === 'configError' ? t : serverOf(t))),
    delegate('mcpToolHost.tree.runDoctor', 'mcpToolHost.runDoctor'),
  );
}

/** Focuses the view and selects the server's row, once the pool knows it. */
async function revealServer(deps: ViewCommandDeps, name: string): Promise<void> {
  await vscode.commands.executeCommand('mcpToolHost.tools.focus');
  for (let i = 0; i < 20 && !deps.pool.get(name); i++) await new Promise((r) => setTimeout(r, 50));
  deps.tree.getChildren();
  const node = deps.tree.serverNode(name);
  if (node) await Promise.resolve(deps.view.reveal(node, { select: true, focus: false })).catch(() => undefined);
}

function serverOf(t: Target): string | undefined {
  if (typeof t === 'string') return t;
  if (!t) return undefined;
  return 'kind' in t && t.kind === 'configError' ? undefined : t.server;
}

function toolOf(t: Target): { server: string; tool: string } | undefined {
  if (!t || typeof t === 'string') return undefined;
  if ('kind' in t) return t.kind === 'tool' ? { server: t.server, tool: t.tool } : undefined;
  return t.tool === undefined ? undefined : { server: t.server, tool: t.tool };
}

async function pickTool(pool: ServerPool): Promise<{ server: string; tool: string } | undefined> {
  type Item = vscode.QuickPickItem & { target?: { server: string; tool: string } };
  const items: Item[] = [];
  for (const c of pool.connections) {
    if (c.tools.length === 0) continue;
    items.push({ label: sanitizeLine(c.name), kind: vscode.QuickPickItemKind.Separator });
    for (const t of c.tools) items.push({ label: sanitizeLine(displayName(t)), description: sanitizeLine(t.name), target: { server: c.name, tool: t.name } });
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No server has listed tools yet.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { title: 'MCP: Show Tool Schema', placeHolder: 'Pick a tool to see its definition', matchOnDescription: true });
  return picked?.target;
}
