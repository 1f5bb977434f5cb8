// Open Configuration (viewCommands.ts registers it), loaded with dist/forms.js at its first use.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { JSONPath } from 'jsonc-parser';
import { loadJsonc } from '../../core/packages/load';
import { WORKSPACE_SERVER_FILES } from '../../core/config/serverFileNames';
import type { ConfigSource } from '../../core/config/serverConfig';
import { SECTION } from '../shared/section';

const KEY = `${SECTION}.servers`;

/** Where an entry lives: a file, or a command that opens the file (user settings have no path we may know). */
type Place = { readonly open: vscode.Uri | string; readonly path: JSONPath };

/**
 * Opens the file that defines a server (user settings.json, workspace settings, a folder's
 * `.vscode/mcp.json` or `.mcp.json`) with its entry selected. `source` narrows the search to
 * where that definition came from; a broken file names itself. Falls back to the Settings UI.
 */
export async function openServerConfiguration(name: string, source?: ConfigSource, fileLabel?: string): Promise<void> {
  const place = fileLabel ? fileNamed(fileLabel, name) : findPlace(name, source);
  if (!place) {
    await vscode.commands.executeCommand('workbench.action.openSettings', KEY);
    return;
  }
  let editor: vscode.TextEditor | undefined;
  if (typeof place.open === 'string') {
    await vscode.commands.executeCommand(place.open);
    editor = vscode.window.activeTextEditor;
  } else {
    editor = await vscode.window.showTextDocument(place.open, { preview: false });
  }
  if (editor) selectEntry(editor, place.path, name);
}

/** Same precedence as readServerSettings: workspace settings, then workspace files, then user settings. */
function findPlace(name: string, source: ConfigSource | undefined): Place | undefined {
  const has = (value: unknown) => typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, name);
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (source !== 'user') {
    for (const folder of folders) {
      const value = vscode.workspace.getConfiguration(SECTION, folder.uri).inspect('servers')?.workspaceFolderValue;
      if (has(value)) return { open: vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json'), path: [KEY, name] };
    }
    if (has(vscode.workspace.getConfiguration(SECTION).inspect('servers')?.workspaceValue)) {
      const file = vscode.workspace.workspaceFile;
      if (file && file.scheme === 'file') return { open: file, path: ['settings', KEY, name] };
      return { open: 'workbench.action.openWorkspaceSettingsFile', path: [KEY, name] };
    }
    for (const folder of folders) {
      for (const rel of WORKSPACE_SERVER_FILES) {
        const place = entryInFile(vscode.Uri.joinPath(folder.uri, rel), name);
        if (place) return place;
      }
    }
  }
  if (source !== 'workspace' && has(vscode.workspace.getConfiguration(SECTION).inspect('servers')?.globalValue)) {
    return { open: 'workbench.action.openSettingsJson', path: [KEY, name] };
  }
  return undefined;
}

/** A file named like "folder/.vscode/mcp.json" (how config errors name files). */
function fileNamed(label: string, name: string): Place | undefined {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    for (const rel of WORKSPACE_SERVER_FILES) {
      if (label !== `${folder.name}/${rel}`) continue;
      const uri = vscode.Uri.joinPath(folder.uri, rel);
      return entryInFile(uri, name) ?? { open: uri, path: [] };
    }
  }
  return undefined;
}

/** The entry in a server file of any format (`servers` of mcp.json, `mcpServers` of .mcp.json). */
function entryInFile(uri: vscode.Uri, name: string): Place | undefined {
  let root: unknown;
  try {
    root = loadJsonc().parse(fs.readFileSync(uri.fsPath, 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof root !== 'object' || root === null) return undefined;
  for (const key of ['servers', 'mcpServers', KEY]) {
    const section = (root as Record<string, unknown>)[key];
    if (typeof section === 'object' && section !== null && Object.prototype.hasOwnProperty.call(section, name)) return { open: uri, path: [key, name] };
  }
  return undefined;
}

/** Selects the entry's key (or, failing that, the first `"name"` in the text) and scrolls to it. */
function selectEntry(editor: vscode.TextEditor, path: JSONPath, name: string): void {
  const text = editor.document.getText();
  const { findNodeAtLocation, parseTree } = loadJsonc();
  const tree = path.length ? parseTree(text) : undefined;
  const value = tree && findNodeAtLocation(tree, path);
  const key = value?.parent?.children?.[0];
  let start = key?.offset;
  let length = key?.length ?? 0;
  if (start === undefined) {
    const quoted = JSON.stringify(name);
    const at = text.indexOf(quoted);
    if (at < 0) return;
    start = at;
    length = quoted.length;
  }
  const range = new vscode.Range(editor.document.positionAt(start), editor.document.positionAt(start + length));
  editor.selection = new vscode.Selection(range.start, range.end);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
