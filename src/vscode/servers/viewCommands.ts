import * as vscode from 'vscode';
import { ConfigFileError } from '../../core/config/formats';
import type { ServerPool } from '../../core/connection/serverPool';
import { ServerState } from '../../core/connection/serverState';
import { shownName } from '../../core/render/sanitize';
import { ServerConnection } from '../../core/connection/serverConnection';
import type * as Later from './later';
import type * as Calls from '../calls/later';
import { pickServer } from './pickServer';
import type { ServerLogs } from '../shared/serverLogs';
import type { ToolSchemaDocuments } from '../calls/showSchema';
import type { ToolTreeProvider } from '../tree/toolTree';
import type { TreeNode } from '../tree/treeNodes';

export interface ViewCommandDeps {
  readonly pool: ServerPool;
  readonly logs: ServerLogs;
  readonly tree: ToolTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
  readonly schemas: ToolSchemaDocuments;
  /** This extension's id, for the walkthrough's full id. */
  readonly extensionId: string;
  /** The commands' bodies that activation does not need, loaded at first use. */
  readonly later: () => { readonly servers: typeof Later; readonly calls: Pick<typeof Calls, 'pickSchemaTool'> };
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

  /** The Add Server wizard (addServerCommand.ts, loaded at first use). */
  async addServer(): Promise<unknown> {
    return this._deps.later().servers.addServerCommand(this._deps);
  }

  async showSchema(t?: ViewTarget): Promise<vscode.TextEditor | undefined> {
    const target = toolOf(t) ?? (await this._deps.later().calls.pickSchemaTool(this._deps.pool));
    return target && this._deps.schemas.show(target.server, target.tool);
  }

  async copyName(t?: ViewTarget): Promise<void> {
    const target = toolOf(t);
    if (!target) return;
    await vscode.env.clipboard.writeText(target.tool);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied tool name "{0}"', shownName(target.tool)), 3000);
  }

  async openServerConfiguration(t?: ViewTarget): Promise<unknown> {
    if (typeof t === 'object' && 'kind' in t && t.kind === 'configError') {
      const place = configErrorPlace(t.error);
      return this._deps.later().servers.openServerConfiguration(place.name, undefined, place.fileLabel);
    }
    const name = serverOf(t) ?? (await pickServer(this._deps.pool, vscode.l10n.t('Open the configuration of which server?')));
    const connection = name === undefined ? undefined : this._deps.pool.get(name);
    return name && this._deps.later().servers.openServerConfiguration(name, connection?.definition.source);
  }

  async runDoctor(t?: ViewTarget): Promise<unknown> {
    const name = serverOf(t) ?? (await pickServer(this._deps.pool, vscode.l10n.t('Run doctor on which server?'), (c) => ServerState.canRestart(c.state)));
    return name && this._deps.later().servers.runDoctor(this._deps.pool, this._deps.logs, name, (definition, deps) => new ServerConnection(definition, deps));
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

/** Where a broken entry is: a ConfigFileError names its file; a settings entry is searched for. */
export function configErrorPlace(error: { serverName: string }): { name: string; fileLabel?: string } {
  return error instanceof ConfigFileError ? { name: error.serverName, fileLabel: error.file } : { name: error.serverName };
}

function serverOf(t: ViewTarget): string | undefined {
  if (typeof t === 'string') return t;
  if (!t) return undefined;
  return 'kind' in t && (t.kind === 'configError' || t.kind === 'trust') ? undefined : t.server;
}

function toolOf(t: ViewTarget): { server: string; tool: string } | undefined {
  if (!t || typeof t === 'string') return undefined;
  if ('kind' in t) return t.kind === 'tool' ? { server: t.server, tool: t.tool } : undefined;
  return t.tool === undefined ? undefined : { server: t.server, tool: t.tool };
}
