import * as vscode from 'vscode';
import type { ServerPool } from '../../core/connection/serverPool';
import { ServerState } from '../../core/connection/serverState';
import { shownName } from '../../core/render/sanitize';

/** Asks which running server that offers `kind` (resources or prompts) to use; undefined when none does (the user is told) or cancelled. */
export async function pickOfferServer(pool: ServerPool, kind: 'resources' | 'prompts', title: string): Promise<string | undefined> {
  const offering = pool.connections.filter((c) => ServerState.isRunning(c.state) && typeof c.serverCapabilities[kind] === 'object' && c.serverCapabilities[kind] !== null);
  if (offering.length === 0) {
    void vscode.window.showInformationMessage(kind === 'resources' ? vscode.l10n.t('No running server offers resources.') : vscode.l10n.t('No running server offers prompts.'));
    return undefined;
  }
  if (offering.length === 1) return offering[0]?.name;
  const picked = await vscode.window.showQuickPick(
    offering.map((c) => ({ label: shownName(c.name), name: c.name })),
    { title },
  );
  return picked?.name;
}

/** Asks which running server; undefined when none runs (the user is told) or cancelled. */
export async function pickServer(pool: ServerPool, title: string): Promise<string | undefined> {
  const running = pool.connections.filter((c) => ServerState.isRunning(c.state));
  if (running.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No server is running.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    running.map((c) => ({ label: shownName(c.name), name: c.name })),
    { title },
  );
  return picked?.name;
}
