import * as vscode from 'vscode';

const SCHEME = 'mcp-tool-host-view';
/** The documents kept for the provider: the newest ones only (each is also open in an editor, or was). */
const KEPT = 50;
const documents = new Map<string, string>();
let shown = 0;

/** Read-only documents for what the host shows (arguments, definitions, resources); register once at activation. */
export function registerReadOnlyDocuments(): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(SCHEME, { provideTextDocumentContent: (uri) => documents.get(uri.path) ?? '' });
}

/**
 * A read-only document named by `path` (its last segment is the editor's title; the extension picks
 * the language). Unlike an Untitled document it cannot be edited, and closing it never asks to save.
 * Each is new (VS Code keeps an open document's text: a reused path would show the old one).
 */
export function readOnlyUri(path: string, content: string): vscode.Uri {
  const unique = `/${++shown}${path}`;
  documents.set(unique, content);
  for (const old of documents.keys()) {
    if (documents.size <= KEPT) break;
    documents.delete(old);
  }
  return vscode.Uri.from({ scheme: SCHEME, path: unique });
}

/** Opens `content` read-only in a preview editor. */
export async function showReadOnly(path: string, content: string): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(readOnlyUri(path, content));
  await vscode.window.showTextDocument(doc, { preview: true });
}
