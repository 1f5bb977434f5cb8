import * as vscode from 'vscode';
import type { ServerPool } from '../../core/connection/serverPool';
import type { Grant, GrantStore } from '../../core/policy/grants';
import { pinTool } from '../../core/policy/toolPin';
import { shownName } from '../../core/render/sanitize';

// What Manage Approvals and Reset Approvals do (approvalCommands.ts registers them): loaded with
// dist/forms.js at the first use.

/** Lists the grants beyond a single call; the ones picked are revoked. */
export async function manageApprovals(grants: GrantStore, pool: ServerPool): Promise<void> {
  type Item = vscode.QuickPickItem & { grant: Grant };
  const scopeWords: Record<Grant['scope'], string> = {
    'tool-always': vscode.l10n.t('always'),
    'tool-session': vscode.l10n.t('this session'),
    'server-session': vscode.l10n.t('whole server, this session'),
  };
  const items: Item[] = grants.all.map((grant) => {
    const tool = grant.tool && pool.findTool(grant.server, grant.tool)?.tool;
    const changed = tool && grant.pin && pinTool(tool).hash !== grant.pin.hash ? vscode.l10n.t(' · suspended: the tool changed') : '';
    return {
      grant,
      label: grant.tool ? shownName(grant.tool) : `$(server) ${vscode.l10n.t('all non-destructive tools')}`,
      description: `${shownName(grant.server)} · ${scopeWords[grant.scope]}${changed}`,
      detail: vscode.l10n.t('Given {0}', new Date(grant.createdAt).toLocaleString()),
    };
  });
  if (items.length === 0) return void vscode.window.showInformationMessage(vscode.l10n.t('You have not allowed any tool beyond a single call.'));
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('MCP Tool Host: Manage Approvals: select the approvals to revoke'), canPickMany: true });
  for (const item of picked ?? []) grants.revoke(item.grant);
  if (picked?.length) void vscode.window.showInformationMessage(picked.length === 1 ? vscode.l10n.t('Revoked 1 approval.') : vscode.l10n.t('Revoked {0} approvals.', picked.length));
}

/**
 * Asks, then forgets every grant. The question says what it really does: the calls the grants covered
 * ask again, while allow rules (`mcpToolHost.rules`, counted in `allowRules`) go on allowing what they match.
 */
export async function resetApprovals(grants: GrantStore, allowRules: number): Promise<void> {
  const count = grants.all.length;
  if (count === 0) return void vscode.window.showInformationMessage(vscode.l10n.t('There are no approvals to reset.'));
  const forget = count === 1
    ? vscode.l10n.t('Forget your 1 approval? The calls it covered will ask again.')
    : vscode.l10n.t('Forget all {0} approvals? The calls they covered will ask again.', count);
  const rules = allowRules === 0 ? '' : allowRules === 1
    ? vscode.l10n.t('Your 1 allow rule (mcpToolHost.rules) still allows what it matches.')
    : vscode.l10n.t('Your {0} allow rules (mcpToolHost.rules) still allow what they match.', allowRules);
  const answer = await vscode.window.showWarningMessage(rules ? `${forget} ${rules}` : forget, { modal: true }, vscode.l10n.t('Reset Approvals'));
  if (answer) grants.clear();
}
