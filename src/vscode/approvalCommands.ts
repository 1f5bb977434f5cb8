import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { FileAuditLog } from '../core/calls/fileAuditLog';
import type { Grant, GrantPersistence, GrantStore } from '../core/policy/grants';
import type { ServerPool } from '../core/connection/serverPool';
import { sanitizeLine } from '../core/render/sanitize';
import { pinTool } from '../core/policy/toolPin';
import type { RuleBindings } from '../core/policy/ruleBindings';

const GRANTS_KEY = 'grants.always';

/** "Always" grants live in the extension's global state. */
export function mementoGrants(state: vscode.Memento): GrantPersistence {
  return { load: () => state.get<Grant[]>(GRANTS_KEY, []), save: (grants) => void state.update(GRANTS_KEY, grants) };
}

/** Manage Approvals, Reset Approvals and Open Audit Log. */
export class ApprovalCommands {
  constructor(private readonly _grants: GrantStore, private readonly _pool: ServerPool, private readonly _audit: FileAuditLog, private readonly _bindings: RuleBindings) {}

  /** Lists the grants beyond a single call; the ones picked are revoked. */
  async manage(): Promise<void> {
    type Item = vscode.QuickPickItem & { grant: Grant };
    const scopeWords: Record<Grant['scope'], string> = {
      'tool-always': vscode.l10n.t('always'),
      'tool-session': vscode.l10n.t('this session'),
      'server-session': vscode.l10n.t('whole server, this session'),
    };
    const items: Item[] = this._grants.all.map((grant) => {
      const tool = grant.tool && this._pool.findTool(grant.server, grant.tool)?.tool;
      const changed = tool && grant.pin && pinTool(tool).hash !== grant.pin.hash ? vscode.l10n.t(' · suspended: the tool changed') : '';
      return {
        grant,
        label: grant.tool ? sanitizeLine(grant.tool) : `$(server) ${vscode.l10n.t('all non-destructive tools')}`,
        description: `${sanitizeLine(grant.server)} · ${scopeWords[grant.scope]}${changed}`,
        detail: vscode.l10n.t('Given {0}', new Date(grant.createdAt).toLocaleString()),
      };
    });
    if (items.length === 0) return void vscode.window.showInformationMessage(vscode.l10n.t('You have not allowed any tool beyond a single call.'));
    const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('MCP Tool Host: Manage Approvals: select the approvals to revoke'), canPickMany: true });
    for (const item of picked ?? []) this._grants.revoke(item.grant);
    if (picked?.length) void vscode.window.showInformationMessage(picked.length === 1 ? vscode.l10n.t('Revoked 1 approval.') : vscode.l10n.t('Revoked {0} approvals.', picked.length));
  }

  async reset(): Promise<void> {
    const count = this._grants.all.length;
    if (count === 0) return void vscode.window.showInformationMessage(vscode.l10n.t('There are no approvals to reset.'));
    const message = vscode.l10n.t('Forget all {0} approvals? Every destructive or open-world call will ask again.', count);
    const answer = await vscode.window.showWarningMessage(message, { modal: true }, vscode.l10n.t('Reset Approvals'));
    if (!answer) return;
    this._grants.clear();
    // The definitions allow rules were bound to go too: each rule is asked about again once.
    this._bindings.clear();
  }

  async openAuditLog(): Promise<void> {
    if (!fs.existsSync(this._audit.file)) return void vscode.window.showInformationMessage(vscode.l10n.t('No call has been audited yet.'));
    await vscode.window.showTextDocument(vscode.Uri.file(this._audit.file), { preview: true });
  }
}
