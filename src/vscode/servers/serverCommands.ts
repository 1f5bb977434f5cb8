import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ServerPool } from '../../core/connection/serverPool';
import { ServerState } from '../../core/connection/serverState';
import { pickServer } from './pickServer';
import { shownName } from '../../core/render/sanitize';
import type { ServerLogs } from '../shared/serverLogs';
import { SECTION } from '../config/settings';
import { addUserServers } from '../config/userServers';
import type { TreeNode } from '../tree/toolTree';

export interface ServerCommandDeps {
  readonly pool: ServerPool;
  readonly logs: ServerLogs;
  readonly output: vscode.OutputChannel;
  /** Re-reads the server settings and hands them to the pool. */
  readonly reload: () => void;
  /** Where the demo server is copied to (global storage survives extension updates). */
  readonly globalStoragePath: string;
  readonly extensionPath: string;
}

/** What a server command is invoked with: a tree row, a server name, or nothing (palette: it asks). */
export type ServerTarget = TreeNode | string | undefined;

/** The palette's server commands: start, stop, restart, show log, refresh, settings, the demo server. */
export class ServerCommands {
  constructor(private readonly _deps: ServerCommandDeps) {}

  async start(target?: ServerTarget): Promise<void> {
    const name = serverOf(target) ?? (await pickServer(this._deps.pool, vscode.l10n.t('Start which server?'), (c) => !ServerState.isRunning(c.state)));
    if (name) await this._deps.pool.get(name)?.start({ byUser: true });
  }

  async stop(target?: ServerTarget): Promise<void> {
    const name = serverOf(target) ?? (await pickServer(this._deps.pool, vscode.l10n.t('Stop which server?'), (c) => ServerState.canStop(c.state)));
    if (name) await this._deps.pool.get(name)?.stop();
  }

  async restart(target?: ServerTarget): Promise<void> {
    const name = serverOf(target) ?? (await pickServer(this._deps.pool, vscode.l10n.t('Restart which server?')));
    if (name) await this._deps.pool.get(name)?.restart();
  }

  /** Opens the administrator's policy file that refused to run a server, read-only: the user sees what it allows. */
  async openPolicyFile(target?: ServerTarget): Promise<void> {
    const refusedBy = (name: string | undefined) => {
      const state = name === undefined ? undefined : this._deps.pool.get(name)?.state;
      return state?.kind === 'error' ? state.refusedBy : undefined;
    };
    const name = serverOf(target) ?? (await pickServer(this._deps.pool, vscode.l10n.t('Open the policy that refused which server?'), (c) => refusedBy(c.name) !== undefined));
    const file = refusedBy(name);
    if (!file) return;
    try {
      const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
      await vscode.window.showTextDocument(document, { preview: true });
      await vscode.commands.executeCommand('workbench.action.files.setActiveEditorReadonlyInSession');
    } catch (err) {
      void vscode.window.showErrorMessage(vscode.l10n.t('The policy file {0} cannot be opened: {1}', file, err instanceof Error ? err.message : String(err)));
    }
  }

  /** Dev mode: attaches the debugger again to a server running with its Node inspector (the user ended the session). */
  async attachDebugger(target?: ServerTarget): Promise<void> {
    const name = serverOf(target) ?? (await pickServer(this._deps.pool, vscode.l10n.t('Attach the debugger to which server?'), (c) => c.debuggable));
    if (!name) return;
    if (this._deps.pool.get(name)?.attachDebugger()) return;
    void vscode.window.showInformationMessage(vscode.l10n.t('"{0}" runs without a Node inspector: the debugger attaches to a server in dev mode with a Node debugger ("dev.debug.type": "node"), in a trusted workspace, while it runs.', shownName(name)));
  }

  async showLog(target?: ServerTarget): Promise<void> {
    const name = serverOf(target) ?? (await pickServer(this._deps.pool, vscode.l10n.t('Show the log of which server?')));
    if (name) this._deps.logs.channel(name).show(true);
  }

  /** Reads the configuration again, starts what can start, and lists the tools of running servers again. */
  refresh(): void {
    this._deps.reload();
    for (const c of this._deps.pool.connections) {
      if (ServerState.canStart(c.state)) void c.start();
      else if (ServerState.isRunning(c.state)) void c.refreshTools();
    }
  }

  openSettings(): Thenable<unknown> {
    return vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.servers`);
  }

  showOutput(): void {
    this._deps.output.show(true);
  }

  /**
   * Copies the bundled demo server to the extension's global storage (a path that survives
   * extension updates) and adds it to the user's settings, run by the extension host's own Node.
   */
  async addDemoServer(): Promise<void> {
    const target = path.join(this._deps.globalStoragePath, 'demo-server.js');
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.copyFile(path.join(this._deps.extensionPath, 'dist', 'demo-server.js'), target);
    // In desktop VS Code the host's executable is Electron; this variable makes it behave as Node.
    await addUserServers([{ name: 'demo', entry: { command: process.execPath, args: [target], env: { ELECTRON_RUN_AS_NODE: '1' } } }]);
    await vscode.commands.executeCommand('mcpToolHost.tools.focus');
  }
}

function serverOf(target: ServerTarget): string | undefined {
  if (typeof target === 'string') return target;
  return target && 'server' in target ? target.server : undefined;
}
