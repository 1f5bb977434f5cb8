import * as vscode from 'vscode';
import type { ServerPool } from '../../core/connection/serverPool';
import type { ServerConnection } from '../../core/connection/serverConnection';
import { shownName } from '../../core/render/sanitize';

/**
 * Asks which configured server a command should act on; `undefined` means cancelled, or that no
 * server passes `filter` (the user is told so). Items show the name through `shownName`,
 * since server names are untrusted text (a workspace's mcp.json picks them), and carry the
 * real name, which is what is returned.
 */
export async function pickServer(pool: ServerPool, title: string, filter: (c: ServerConnection) => boolean = () => true): Promise<string | undefined> {
  const candidates = pool.connections.filter(filter);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No server fits. Add one with "MCP Tool Host: Add Server...".'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    candidates.map((c) => ({ label: shownName(c.name), description: c.state.kind, name: c.name })),
    { title },
  );
  return picked?.name;
}
