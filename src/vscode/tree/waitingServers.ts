// What a folder not trusted yet defines, by name, and the Tools view's sentence about it: loaded with
// dist/forms.js (tree/later.ts) only in such a folder; a trusted one never reads them.
import * as vscode from 'vscode';
import type { readWorkspaceServerNames } from '../../core/config/serverFiles';
import { shownName } from '../../core/render/sanitize';
import { SECTION } from '../shared/section';

/** How many names the Tools view spells out, and how long each may be: the rest is counted. */
const SHOWN_NAMES = 5;
const NAME_CHARS = 40;


/** What a workspace that is not trusted would run, by name only: its servers wait for trust. */
export interface WaitingServers {
  readonly names: readonly string[];
  /** Server files there whose names could not be read: they may define servers too. */
  readonly unread: readonly string[];
}

/**
 * The servers the open workspace defines (folders' `.vscode/mcp.json` and `.mcp.json`, workspace
 * and folder settings), while it is not trusted; undefined when it is trusted or defines none.
 * Only the names are read: no entry is parsed, so nothing runs and no variable is resolved. The
 * reader is handed in: it stays in dist/extension.js with the configuration parser, whose error
 * classes must not be copied into dist/forms.js (esbuild.mjs).
 */
export function waitingServers(readNames: typeof readWorkspaceServerNames): WaitingServers | undefined {
  if (vscode.workspace.isTrusted) return undefined;
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => ({ name: f.name, path: f.uri.fsPath }));
  const files = readNames(folders);
  const names = new Set(files.names);
  // VS Code may withhold a restricted setting's workspace value until trust; what it shows counts.
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect<unknown>('servers');
  for (const value of [inspected?.workspaceValue, inspected?.workspaceFolderValue]) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) for (const name of Object.keys(value)) names.add(name);
  }
  return names.size || files.unread.length ? { names: [...names], unread: files.unread } : undefined;
}

/** The Tools view's message for them: how many, which (names a repository chose, so shown escaped and cut), and that trust starts them. */
export function waitingMessage(waiting: WaitingServers): string {
  const { names, unread } = waiting;
  if (names.length === 0) return vscode.l10n.t('This folder is not trusted. {0} may define MCP servers; they start only when you trust the folder.', unread.map((f) => shownName(f)).join(', '));
  const shown = names.slice(0, SHOWN_NAMES).map((n) => `"${cut(shownName(n))}"`);
  if (names.length > SHOWN_NAMES) shown.push(vscode.l10n.t('{0} more', names.length - SHOWN_NAMES));
  return names.length === 1
    ? vscode.l10n.t('This folder is not trusted. It defines 1 MCP server, {0}, which starts only when you trust the folder.', shown[0] ?? '')
    : vscode.l10n.t('This folder is not trusted. It defines {0} MCP servers ({1}), which start only when you trust the folder.', names.length, shown.join(', '));
}

function cut(name: string): string {
  if (name.length <= NAME_CHARS) return name;
  const end = /[\ud800-\udbff]/.test(name[NAME_CHARS - 2] ?? '') ? NAME_CHARS - 2 : NAME_CHARS - 1; // never half a surrogate pair
  return `${name.slice(0, end)}…`;
}

