import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { pinTool, type PinnedDefinition } from '../core/policy/toolPin';
import { sanitizeLine } from '../core/render/sanitize';

const SCHEME = 'mcp-tool-host-definition';
const documents = new Map<string, string>();

/** The read-only documents the diff shows; register once at activation. */
export function registerDefinitionDocuments(): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(SCHEME, { provideTextDocumentContent: (uri) => documents.get(uri.path) ?? '' });
}

/** Opens VS Code's diff editor: the definition the user approved beside the one the server sends now. */
export async function showDefinitionChanges(server: string, tool: Tool, before: PinnedDefinition): Promise<void> {
  const key = `${encodeURIComponent(server)}/${encodeURIComponent(tool.name)}`;
  documents.set(`/${key}/approved.json`, JSON.stringify(before, null, 2));
  documents.set(`/${key}/now.json`, JSON.stringify(pinTool(tool).definition, null, 2));
  await vscode.commands.executeCommand(
    'vscode.diff',
    vscode.Uri.from({ scheme: SCHEME, path: `/${key}/approved.json` }),
    vscode.Uri.from({ scheme: SCHEME, path: `/${key}/now.json` }),
    vscode.l10n.t('{0} on {1}: approved ↔ now', sanitizeLine(tool.name), sanitizeLine(server)),
  );
}
