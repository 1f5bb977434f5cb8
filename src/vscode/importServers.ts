import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { importSources, scanImportSources, type ImportCandidate } from '../core/config/importSources';
import { sanitizeLine } from '../core/render/sanitize';
import { addUserServers } from './settings';

/**
 * "MCP: Import Servers...": finds the MCP configurations of Claude Desktop, Cursor and VS Code
 * on this machine, lets the user pick servers, and copies them into user settings, asking
 * before replacing an entry of the same name. Nothing is logged: entries may hold secrets.
 */
export async function importServers(): Promise<void> {
  const home = os.homedir();
  const { candidates, problems } = await scanImportSources(importSources(process.platform, home, process.env));
  const usable = candidates.filter((c) => !c.error);
  if (usable.length === 0) {
    const why = problems.length || candidates.length ? ` ${[...problems, ...candidates.map((c) => c.error)].join(' ')}` : '';
    void vscode.window.showInformationMessage(`No MCP servers to import were found in the configurations of Claude Desktop, Cursor or VS Code.${why}`);
    return;
  }
  const picked = await pickCandidates(usable, home);
  if (!picked || picked.length === 0) return;

  const imported = await addUserServers(picked, async (c) => {
    const answer = await vscode.window.showWarningMessage(
      `Your settings already have a server named "${sanitizeLine(c.name)}". Replace it with the one from ${c.source.label}?`,
      { modal: true, detail: `New: ${sanitizeLine(c.launch)}` },
      'Replace',
    );
    return answer === 'Replace';
  });
  if (imported.length === 0) return;
  const dropped = picked.filter((c) => imported.includes(c.name)).flatMap((c) => c.warnings);
  const message = `Imported ${imported.length} server${imported.length === 1 ? '' : 's'} into your user settings: ${imported.map(sanitizeLine).join(', ')}.${dropped.length ? ` Not carried over: ${dropped.map(sanitizeLine).join(' ')}` : ''}`;
  void vscode.window.showInformationMessage(message, 'Open Settings').then((a) => a && vscode.commands.executeCommand('mcpToolHost.openSettings'));
}

/** A multi-select pick grouped by source file; undefined when cancelled. */
async function pickCandidates(candidates: readonly ImportCandidate[], home: string): Promise<ImportCandidate[] | undefined> {
  type Item = vscode.QuickPickItem & { candidate?: ImportCandidate };
  const items: Item[] = [];
  let lastFile: string | undefined;
  for (const c of candidates) {
    if (c.source.file !== lastFile) {
      items.push({ label: c.source.label, kind: vscode.QuickPickItemKind.Separator });
      lastFile = c.source.file;
    }
    const file = c.source.file.startsWith(home + path.sep) ? `~${c.source.file.slice(home.length)}` : c.source.file;
    items.push({ label: sanitizeLine(c.name), description: file, detail: sanitizeLine(c.launch), candidate: c });
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: 'MCP: Import Servers',
    placeHolder: 'Pick the servers to copy into your user settings',
    canPickMany: true,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.flatMap((i) => (i.candidate ? [i.candidate] : []));
}
