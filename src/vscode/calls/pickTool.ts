import * as vscode from 'vscode';
import type { ServerPool } from '../../core/connection/serverPool';
import { sanitizeLine, shownName, shownTitle } from '../../core/render/sanitize';
import { toolAnnotations, type ApprovalRules } from '../../core/policy/approvalPolicy';
import { badgeDescription } from '../../core/tools/toolBadges';

/** A tool of a running server, as the pickers and tree rows name it. */
export interface PickedTool {
  readonly server: string;
  readonly tool: string;
}

/**
 * Asks which listed tool a command is about (Call Tool, What Would Happen): grouped by server,
 * each with its badges; `undefined` when cancelled or when no server lists tools (the user is
 * told so). Names are shown through `sanitizeLine` (a server picks them) and the real ones returned.
 */
export async function pickTool(pool: ServerPool, title: string, placeHolder: string, rules?: ApprovalRules): Promise<PickedTool | undefined> {
  type Item = vscode.QuickPickItem & { target?: PickedTool };
  const items: Item[] = [];
  for (const c of pool.connections) {
    if (c.tools.length === 0) continue;
    items.push({ label: shownName(c.name), kind: vscode.QuickPickItemKind.Separator });
    for (const t of c.tools) {
      const badges = badgeDescription(toolAnnotations(rules, c.name, t, c.definition.trustAnnotations));
      items.push({ label: shownTitle(t), description: `${shownName(c.name)} · ${badges}`, detail: sanitizeLine(t.description ?? ''), target: { server: c.name, tool: t.name } });
    }
  }
  if (items.length === 0) {
    void vscode.window
      .showInformationMessage(vscode.l10n.t('No running MCP server offers tools yet. Add one in settings, or try the demo server.'), vscode.l10n.t('Add Demo Server'))
      .then((a) => a && vscode.commands.executeCommand('mcpToolHost.addDemoServer'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder, matchOnDescription: true, matchOnDetail: true });
  return picked?.target;
}
