import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AuditLog, AuditRecord } from '../core/calls/ports';
import type { Grant, GrantPersistence, GrantStore } from '../core/policy/grants';
import type { ServerPool } from '../core/connection/serverPool';
import { sanitizeLine } from '../core/render/sanitize';
import { pinTool } from '../core/policy/toolPin';

const GRANTS_KEY = 'grants.always';

/** "Always" grants live in the extension's global state. */
export function mementoGrants(state: vscode.Memento): GrantPersistence {
  return { load: () => state.get<Grant[]>(GRANTS_KEY, []), save: (grants) => void state.update(GRANTS_KEY, grants) };
}

/** The audit log: one JSON line per call in the extension's storage (no arguments, no secrets). */
export class FileAuditLog implements AuditLog {
  constructor(readonly file: string) {}

  append(record: AuditRecord): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    fs.appendFile(this.file, JSON.stringify(record) + '\n', () => undefined);
  }
}

/** Manage Approvals, Reset Approvals and Open Audit Log. */
export function registerApprovalCommands(grants: GrantStore, pool: ServerPool, audit: FileAuditLog): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand('mcpToolHost.manageApprovals', () => manageApprovals(grants, pool)),
    vscode.commands.registerCommand('mcpToolHost.resetApprovals', async () => {
      if (grants.all.length === 0) return void vscode.window.showInformationMessage('There are no approvals to reset.');
      const answer = await vscode.window.showWarningMessage(`Forget all ${grants.all.length} approvals? Every destructive or open-world call will ask again.`, { modal: true }, 'Reset Approvals');
      if (answer) grants.clear();
    }),
    vscode.commands.registerCommand('mcpToolHost.openAuditLog', async () => {
      if (!fs.existsSync(audit.file)) return void vscode.window.showInformationMessage('No call has been audited yet.');
      await vscode.window.showTextDocument(vscode.Uri.file(audit.file), { preview: true });
    }),
  );
}

async function manageApprovals(grants: GrantStore, pool: ServerPool): Promise<void> {
  type Item = vscode.QuickPickItem & { grant: Grant };
  const scopeWords: Record<Grant['scope'], string> = { 'tool-always': 'always', 'tool-session': 'this session', 'server-session': 'whole server, this session' };
  const items: Item[] = grants.all.map((grant) => {
    const tool = grant.tool && pool.findTool(grant.server, grant.tool)?.tool;
    const changed = tool && grant.pin && pinTool(tool).hash !== grant.pin.hash ? ' · suspended: the tool changed' : '';
    return {
      grant,
      label: grant.tool ? sanitizeLine(grant.tool) : `$(server) all non-destructive tools`,
      description: `${sanitizeLine(grant.server)} · ${scopeWords[grant.scope]}${changed}`,
      detail: `Given ${new Date(grant.createdAt).toLocaleString()}`,
    };
  });
  if (items.length === 0) return void vscode.window.showInformationMessage('You have not allowed any tool beyond a single call.');
  const picked = await vscode.window.showQuickPick(items, { title: 'MCP: Manage Approvals: select the approvals to revoke', canPickMany: true });
  for (const item of picked ?? []) grants.revoke(item.grant);
  if (picked?.length) void vscode.window.showInformationMessage(`Revoked ${picked.length} approval${picked.length === 1 ? '' : 's'}.`);
}
