import * as vscode from 'vscode';

/** Set in globalState once the extension has shown itself to a new user. */
const SHOWN_KEY = 'mcpToolHost.firstRunShown';

/**
 * On the first activation for this user, opens the MCP Tool Host side bar and the walkthrough, once.
 * VS Code opens a walkthrough by itself only for an extension installed in the running window; one
 * installed before the window opened (a .vsix on the command line, a prepared profile) showed
 * nothing at all. Follows `workbench.welcomePage.walkthroughs.openOnInstall` (a machine setting: in a
 * remote window such as code-server, the remote machine's settings hold it).
 */
export async function showOnFirstRun(state: vscode.Memento, openWalkthrough: () => Thenable<unknown>): Promise<void> {
  if (state.get<boolean>(SHOWN_KEY)) return;
  if (!vscode.workspace.getConfiguration('workbench.welcomePage').get<boolean>('walkthroughs.openOnInstall', true)) return;
  // Remembered first: a failure below must not show it again at every start.
  await state.update(SHOWN_KEY, true);
  await vscode.commands.executeCommand('workbench.view.extension.mcpToolHost');
  await openWalkthrough();
}
