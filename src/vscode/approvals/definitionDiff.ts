import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { pinTool, type PinnedDefinition } from '../../core/policy/toolPin';
import { shownName, visibleJson } from '../../core/render/sanitize';
import { readOnlyUri } from '../shared/readOnlyDocuments';

/**
 * Opens VS Code's diff editor: the definition the user approved (or, `locked`, the one the
 * workspace lockfile holds) beside the one the server sends now.
 */
export async function showDefinitionChanges(server: string, tool: Tool, before: PinnedDefinition, locked = false): Promise<void> {
  const key = `${encodeURIComponent(server)}/${encodeURIComponent(tool.name)}`;
  await vscode.commands.executeCommand(
    'vscode.diff',
    readOnlyUri(`/definitions/${key}/${locked ? 'locked' : 'approved'}.json`, visibleJson(before, 2)),
    readOnlyUri(`/definitions/${key}/now.json`, visibleJson(pinTool(tool).definition, 2)),
    locked ? vscode.l10n.t('{0} on {1}: workspace lockfile ↔ now', shownName(tool.name), shownName(server)) : vscode.l10n.t('{0} on {1}: approved ↔ now', shownName(tool.name), shownName(server)),
  );
}
