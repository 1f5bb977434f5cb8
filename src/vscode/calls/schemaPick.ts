import * as vscode from 'vscode';
import type { ServerPool } from '../../core/connection/serverPool';
import { shownName, shownTitle } from '../../core/render/sanitize';

// Show Tool Schema's pick when no tool is given (viewCommands.ts registers the command): loaded
// with dist/forms.js at its first use.

/** The tool whose definition to show, picked among every server's listed tools; undefined when cancelled. */
export async function pickSchemaTool(pool: ServerPool): Promise<{ server: string; tool: string } | undefined> {
  type Item = vscode.QuickPickItem & { target?: { server: string; tool: string } };
  const items: Item[] = [];
  for (const c of pool.connections) {
    if (c.tools.length === 0) continue;
    items.push({ label: shownName(c.name), kind: vscode.QuickPickItemKind.Separator });
    for (const t of c.tools) items.push({ label: shownTitle(t), description: shownName(t.name), target: { server: c.name, tool: t.name } });
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No server has listed tools yet.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('MCP Tool Host: Show Tool Schema'), placeHolder: vscode.l10n.t('Pick a tool to see its definition'), matchOnDescription: true });
  return picked?.target;
}
