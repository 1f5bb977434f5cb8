import * as vscode from 'vscode';
import type { ParseOptions } from '../../core/config/serverConfig';
import { readWorkspaceServerFiles, WORKSPACE_SERVER_FILES, type ServerFileResult } from '../../core/config/serverFiles';

/** Saving a file fires create/change in a burst; one reload is enough. */
const RELOAD_DEBOUNCE_MS = 200;

/**
 * The servers of every open folder's `.vscode/mcp.json` and `.mcp.json` (source 'workspace':
 * tool hints untrusted unless the user's `trustedWorkspaceServers` names them). Only local folders: the extension
 * runs where the files are (extensionKind "workspace"). The caller checks workspace trust.
 */
export function readWorkspaceServers(options: ParseOptions): ServerFileResult {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({ name: f.name, path: f.uri.fsPath }));
  return readWorkspaceServerFiles(folders, options);
}

/**
 * Calls `reload` when a server file of any folder is created, changed or deleted, or when the
 * set of folders changes. The returned disposable stops watching.
 */
export function watchWorkspaceServerFiles(reload: () => void): vscode.Disposable {
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(reload, RELOAD_DEBOUNCE_MS);
  };
  let watchers: vscode.Disposable[] = [];
  const watchFolders = () => {
    watchers.forEach((w) => w.dispose());
    watchers = (vscode.workspace.workspaceFolders ?? []).map((folder) => {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, `{${WORKSPACE_SERVER_FILES.join(',')}}`));
      return vscode.Disposable.from(watcher, watcher.onDidCreate(schedule), watcher.onDidChange(schedule), watcher.onDidDelete(schedule));
    });
  };
  watchFolders();
  const folderChanges = vscode.workspace.onDidChangeWorkspaceFolders(() => {
    watchFolders();
    schedule();
  });
  return new vscode.Disposable(() => {
    clearTimeout(timer);
    folderChanges.dispose();
    watchers.forEach((w) => w.dispose());
  });
}
