import * as vscode from 'vscode';
import type { ServerPool } from '../../core/connection/serverPool';
import type { Disposable } from '../../core/events';
import { visibleJson } from '../../core/render/sanitize';

/** The scheme of the read-only documents that show a tool's definition. */
export const SCHEMA_SCHEME = 'mcp-tool-schema';

/** `mcp-tool-schema:/server/tool.json`: the tab reads "tool.json", the path names the server. */
export function schemaUri(server: string, tool: string): vscode.Uri {
  return vscode.Uri.from({ scheme: SCHEMA_SCHEME, path: `/${encodeURIComponent(server)}/${encodeURIComponent(tool)}.json` });
}

/**
 * Serves a tool's definition as the server sent it (name, title, description, input and
 * output schema, annotations) as pretty JSON, read-only by construction. An open document
 * follows the server: it updates when the tool list changes.
 */
export class ToolSchemaDocuments implements vscode.TextDocumentContentProvider, Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;
  private readonly _subscriptions: Disposable[];

  constructor(private readonly _pool: ServerPool) {
    this._subscriptions = [
      vscode.workspace.registerTextDocumentContentProvider(SCHEMA_SCHEME, this),
      _pool.onDidChange((c) => {
        for (const doc of vscode.workspace.textDocuments) {
          if (doc.uri.scheme === SCHEMA_SCHEME && (!c || parse(doc.uri)?.server === c.name)) this._onDidChange.fire(doc.uri);
        }
      }),
    ];
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const target = parse(uri);
    const found = target && this._pool.findTool(target.server, target.tool);
    if (!target || !found) return JSON.stringify({ error: vscode.l10n.t('Server "{0}" does not offer a tool named "{1}" right now.', target?.server ?? '', target?.tool ?? '') }, null, 2);
    const { name, title, description, inputSchema, outputSchema, annotations, ...rest } = found.tool;
    const ordered = { name, title, description, inputSchema, outputSchema, annotations, ...rest };
    // Characters that hide or reorder text written as escapes, as every surface shows them (visibleJson).
    return visibleJson(ordered, 2);
  }

  /** Opens the definition of a tool in a read-only JSON editor. */
  async show(server: string, tool: string): Promise<vscode.TextEditor> {
    const uri = schemaUri(server, tool);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'json') doc = await vscode.languages.setTextDocumentLanguage(doc, 'json');
    return vscode.window.showTextDocument(doc, { preview: true });
  }

  dispose(): void {
    this._subscriptions.forEach((d) => d.dispose());
    this._onDidChange.dispose();
  }
}

function parse(uri: vscode.Uri): { server: string; tool: string } | undefined {
  const m = /^\/([^/]+)\/([^/]+)\.json$/.exec(uri.path);
  if (!m) return undefined;
  try {
    return { server: decodeURIComponent(m[1]), tool: decodeURIComponent(m[2]) };
  } catch {
    return undefined;
  }
}
