import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { FileAuditLog } from '../../core/calls/fileAuditLog';

/** Open Audit Log: the JSON-lines file where every call is recorded, read-only in an editor. */
export async function openAuditLog(audit: FileAuditLog): Promise<void> {
  if (!fs.existsSync(audit.file)) return void vscode.window.showInformationMessage(vscode.l10n.t('No call has been audited yet.'));
  await vscode.window.showTextDocument(vscode.Uri.file(audit.file), { preview: true });
}
