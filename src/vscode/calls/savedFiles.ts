import * as path from 'node:path';
import * as vscode from 'vscode';

/**
 * A result with images or other binary content was saved to files (the output channel names them, but a
 * long path wraps and is not a link): the notification opens them in an editor (an image in its preview).
 */
export async function offerSavedFiles(files: readonly string[]): Promise<void> {
  const message = files.length === 1 ? vscode.l10n.t('The result saved 1 file: {0}.', path.basename(files[0])) : vscode.l10n.t('The result saved {0} files.', files.length);
  const action = await vscode.window.showInformationMessage(message, files.length === 1 ? vscode.l10n.t('Open') : vscode.l10n.t('Open...'));
  if (!action) return;
  const file = files.length === 1 ? files[0] : (await vscode.window.showQuickPick(files.map((f) => ({ label: path.basename(f), detail: f, file: f })), { title: vscode.l10n.t('Open a saved file') }))?.file;
  if (file) await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(file), { preview: true });
}
