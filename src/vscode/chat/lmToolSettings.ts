import * as vscode from 'vscode';
import { SECTION } from '../shared/section';

/** `mcpToolHost.lmTools.enabled`: whether chats other than `@mcp` may search and call the hosted tools. */
export function lmToolsEnabled(): boolean {
  return vscode.workspace.getConfiguration(SECTION).get<boolean>('lmTools.enabled', true) !== false;
}
