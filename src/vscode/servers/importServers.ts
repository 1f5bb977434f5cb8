import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ImportCandidate, scanImportSources } from '../../core/config/importSources';
import { sanitizeLine } from '../../core/render/sanitize';
import { addUserServers } from '../config/userServers';

/**
 * Reads the other hosts' configurations under a home folder (importSources.ts). Handed in: it
 * stays in dist/extension.js with the configuration parser it uses, whose error classes must
 * not be copied into dist/forms.js (esbuild.mjs).
 */
export type ScanImports = (home: string) => ReturnType<typeof scanImportSources>;

/**
 * "MCP Tool Host: Import Servers...": finds the MCP configurations of Claude Desktop, Cursor and VS Code
 * on this machine, lets the user pick servers, and copies them into user settings, asking
 * before replacing an entry of the same name. Nothing is logged: entries may hold secrets.
 * Loaded with dist/forms.js at its first use.
 */
export async function importServers(scan: ScanImports): Promise<void> {
  const home = os.homedir();
  const { candidates, problems } = await scan(home);
  const usable = candidates.filter((c) => !c.error);
  if (usable.length === 0) {
    const why = problems.length || candidates.length ? ` ${[...problems, ...candidates.map((c) => c.error)].join(' ')}` : '';
    void vscode.window.showInformationMessage(vscode.l10n.t('No MCP servers to import were found in the configurations of Claude Desktop, Cursor or VS Code.') + why);
    return;
  }
  const picked = await pickCandidates(usable, home);
  if (!picked || picked.length === 0) return;

  const imported = await addUserServers(picked, async (c) => {
    const replace = vscode.l10n.t('Replace');
    const answer = await vscode.window.showWarningMessage(
      vscode.l10n.t('Your settings already have a server named "{0}". Replace it with the one from {1}?', sanitizeLine(c.name), c.source.label),
      { modal: true, detail: vscode.l10n.t('New: {0}', sanitizeLine(c.launch)) },
      replace,
    );
    return answer === replace;
  });
  if (imported.length === 0) return;
  const dropped = picked.filter((c) => imported.includes(c.name)).flatMap((c) => c.warnings);
  const names = imported.map(sanitizeLine).join(', ');
  const done = imported.length === 1 ? vscode.l10n.t('Imported 1 server into your user settings: {0}.', names) : vscode.l10n.t('Imported {0} servers into your user settings: {1}.', imported.length, names);
  const message = dropped.length ? `${done} ${vscode.l10n.t('Not carried over: {0}', dropped.map(sanitizeLine).join(' '))}` : done;
  void vscode.window.showInformationMessage(message, vscode.l10n.t('Open Settings')).then((a) => a && vscode.commands.executeCommand('mcpToolHost.openSettings'));
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
    title: vscode.l10n.t('MCP Tool Host: Import Servers'),
    placeHolder: vscode.l10n.t('Pick the servers to copy into your user settings'),
    canPickMany: true,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return picked?.flatMap((i) => (i.candidate ? [i.candidate] : []));
}
