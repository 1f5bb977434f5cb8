import * as vscode from 'vscode';
import type { ServerPool } from '../../core/connection/serverPool';
import type { ServerState } from '../../core/connection/serverState';
import { sanitizeLine } from '../../core/render/sanitize';
import { addServer, addServerQuestions } from './addServerWizard';
import { userServerNames } from '../config/userServers';
import type { TreeNode } from '../tree/treeNodes';
import type { ToolTreeProvider } from '../tree/toolTree';

// "MCP Tool Host: Add Server..." (viewCommands.ts registers it): the wizard, then the new server's
// start and row; loaded with dist/forms.js at its first use.

/** What Add Server needs: the pool, and the view to select the new server's row in. */
export interface AddServerDeps {
  readonly pool: ServerPool;
  readonly tree: Pick<ToolTreeProvider, 'getChildren' | 'serverNode'>;
  readonly view: vscode.TreeView<TreeNode>;
}

/** Runs the wizard; a server added is reported as it starts and selected in the Tools view. */
export async function addServerCommand(deps: AddServerDeps): Promise<unknown> {
  const taken = new Set([...deps.pool.connections.map((c) => c.name), ...userServerNames()]);
  const result = await addServer(addServerQuestions, taken);
  if (result?.kind === 'handed-over') return vscode.commands.executeCommand(result.to === 'demo' ? 'mcpToolHost.addDemoServer' : 'mcpToolHost.importServers');
  if (result?.kind !== 'added') return undefined;
  void reportStart(deps.pool, result.name);
  await revealServer(deps, result.name);
  return result;
}

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

/** Focuses the view and selects the server's row, once the pool knows it. */
export async function revealServer(deps: AddServerDeps, name: string): Promise<void> {
  await vscode.commands.executeCommand('mcpToolHost.tools.focus');
  for (let i = 0; i < 20 && !deps.pool.get(name); i++) await new Promise((r) => setTimeout(r, 50));
  deps.tree.getChildren();
  const node = deps.tree.serverNode(name);
  if (node) await Promise.resolve(deps.view.reveal(node, { select: true, focus: false })).catch(() => undefined);
}
