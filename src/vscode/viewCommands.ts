import * as vscode from 'vscode';
import type { ServerPool } from '../core/connection/serverPool';
import { ServerState } from '../core/connection/serverState';
import { sanitizeLine } from '../core/render/sanitize';
import { displayName } from '../core/tools/annotations';
import { addServer, addServerQuestions } from './addServerWizard';
import { ServerConnection } from '../core/connection/serverConnection';
import { loadForms } from './lazy/load';
import { pickServer } from './pickServer';
import { configErrorPlace, openServerConfiguration } from './serverLocation';
import type { ServerLogs } from './serverLogs';
import { userServerNames } from './settings';
import type { ToolSchemaDocuments } from './showSchema';
import type { ToolTreeProvider } from './toolTree';
import type { TreeNode } from './treeNodes';

export interface ViewCommandDeps {
  readonly pool: ServerPool;
  readonly logs: ServerLogs;
  readonly tree: ToolTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
  readonly schemas: ToolSchemaDocuments;
  /** This extension's id, for the walkthrough's full id. */
  readonly extensionId: string;
}

/** What a command may be invoked with: a tree row (menus), a server name (rows' own commands), or nothing (palette). */
export type ViewTarget = TreeNode | string | { server: string; tool?: string } | undefined;

const WALKTHROUGH = 'mcpToolHost.gettingStarted';

/**
 * The commands of the Tools view that are not calls: Add Server, Show Schema, Copy Name, Open
 * Configuration, Run Doctor, Get Started, and the short-titled `mcpToolHost.tree.*` twins of
 * server commands that menus show ("Start" rather than "Start Server..."), which hand the row's
 * server or tool to the full command.
 */
export class ViewCommands {
  constructor(private readonly _deps: ViewCommandDeps) {}

  async addServer(): Promise<unknown> {
    const taken = new Set([...this._deps.pool.connections.map((c) => c.name), ...userServerNames()]);
    const result = await addServer(addServerQuestions, taken);
    if (result?.kind === 'handed-over') return vscode.commands.executeCommand(result.to === 'demo' ? 'mcpToolHost.addDemoServer' : 'mcpToolHost.importServers');
    if (result?.kind !== 'added') return undefined;
    void reportStart(this._deps.pool, result.name);
    await revealServer(this._deps, result.name);
    return result;
  }

  async showSchema(t?: ViewTarget): Promise<vscode.TextEditor | undefined> {
    const target = toolOf(t) ?? (await pickTool(this._deps.pool));
    return target && this._deps.schemas.show(target.server, target.tool);
  }

  async copyName(t?: ViewTarget): Promise<void> {
    const target = toolOf(t);
    if (!target) return;
    await vscode.env.clipboard.writeText(target.tool);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied tool name "{0}"', sanitizeLine(target.tool)), 3000);
  }

  async openServerConfiguration(t?: ViewTarget): Promise<unknown> {
    if (typeof t === 'object' && 'kind' in t && t.kind === 'configError') {
      const place = configErrorPlace(t.error);
      return openServerConfiguration(place.name, undefined, place.fileLabel);
    }
    const name = serverOf(t) ?? (await pickServer(this._deps.pool, vscode.l10n.t('Open the configuration of which server?')));
    const connection = name === undefined ? undefined : this._deps.pool.get(name);
    return name && openServerConfiguration(name, connection?.definition.source);
  }

  async runDoctor(t?: ViewTarget): Promise<unknown> {
    const name = serverOf(t) ?? (await pickServer(this._deps.pool, vscode.l10n.t('Run doctor on which server?'), (c) => ServerState.canRestart(c.state)));
    return name && loadForms().runDoctor(this._deps.pool, this._deps.logs, name, (definition, deps) => new ServerConnection(definition, deps));
  }

  openWalkthrough(): Thenable<unknown> {
    return vscode.commands.executeCommand('workbench.action.openWalkthrough', `${this._deps.extensionId}#${WALKTHROUGH}`, false);
  }

  /** A tree row's tool to `to` (`mcpToolHost.callTool`, `mcpToolHost.showSchema`). */
  forTool(to: string, t?: ViewTarget): Thenable<unknown> | undefined {
    const target = toolOf(t);
    return target && vscode.commands.executeCommand(to, target);
  }

  /** A tree row's server name to `to` (`mcpToolHost.startServer`...). */
  forServer(to: string, t?: ViewTarget): Thenable<unknown> {
    return vscode.commands.executeCommand(to, serverOf(t));
  }

  /** A broken entry has no server yet: its row itself says where to look. */
  openConfiguration(t?: ViewTarget): Thenable<unknown> {
    return vscode.commands.executeCommand('mcpToolHost.openServerConfiguration', typeof t === 'object' && 'kind' in t && t.kind === 'configError' ? t : serverOf(t));
  }
}

/** Focuses the view and selects the server's row, once the pool knows it. */
/** How long "Starting…" may show before it gives way to the row (the start goes on; the row says how it ends). */
const START_NOTICE_MS = 60_000;

/**
 * Says how the start of a server just added goes: "Starting…" while it starts (the notification
 * closes itself, so it cannot outlive the start), then the outcome in the status bar when it runs,
 * or an error with the way to the log and the doctor when it fails.
 */
export async function reportStart(pool: ServerPool, name: string): Promise<ServerState | undefined> {
  const shown = sanitizeLine(name);
  const settled = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Added "{0}" to your user settings; starting it…', shown) }, (progress) =>
    new Promise<ServerState | undefined>((resolve) => {
      const done = (state: ServerState | undefined) => {
        subscription.dispose();
        clearTimeout(timer);
        resolve(state);
      };
      // The pool tells of every state change; the server may not be in it yet (the settings change that adds it is on its way).
      const check = () => {
        const state = pool.get(name)?.state;
        if (!state || state.kind === 'stopped') return;
        if (state.kind === 'starting') return state.message && progress.report({ message: sanitizeLine(state.message) });
        done(state);
      };
      const subscription = pool.onDidChange(check);
      const timer = setTimeout(() => done(undefined), START_NOTICE_MS);
      check();
    }),
  );
  if (settled?.kind === 'running') {
    // Its tools are listed just after it runs; the tree shows them as they come.
    vscode.window.setStatusBarMessage(`$(pass-filled) ${vscode.l10n.t('"{0}" is running', shown)}`, 10_000);
  } else if (settled?.kind === 'error') {
    const showLog = vscode.l10n.t('Show Log');
    const doctor = vscode.l10n.t('Run Doctor');
    const action = await vscode.window.showErrorMessage(vscode.l10n.t('"{0}" did not start: {1}', shown, sanitizeLine(settled.message)), showLog, doctor);
    if (action) await vscode.commands.executeCommand(action === showLog ? 'mcpToolHost.showServerLog' : 'mcpToolHost.runDoctor', name);
  }
  return settled;
}

async function revealServer(deps: ViewCommandDeps, name: string): Promise<void> {
  await vscode.commands.executeCommand('mcpToolHost.tools.focus');
  for (let i = 0; i < 20 && !deps.pool.get(name); i++) await new Promise((r) => setTimeout(r, 50));
  deps.tree.getChildren();
  const node = deps.tree.serverNode(name);
  if (node) await Promise.resolve(deps.view.reveal(node, { select: true, focus: false })).catch(() => undefined);
}

function serverOf(t: ViewTarget): string | undefined {
  if (typeof t === 'string') return t;
  if (!t) return undefined;
  return 'kind' in t && t.kind === 'configError' ? undefined : t.server;
}

function toolOf(t: ViewTarget): { server: string; tool: string } | undefined {
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
    void vscode.window.showInformationMessage(vscode.l10n.t('No server has listed tools yet.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('MCP Tool Host: Show Tool Schema'), placeHolder: vscode.l10n.t('Pick a tool to see its definition'), matchOnDescription: true });
  return picked?.target;
}
