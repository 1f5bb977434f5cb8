import * as vscode from 'vscode';
import type { ServerPool } from '../../core/connection/serverPool';
import { appReferenceOf } from '../../core/apps/appReference';

/**
 * Whether a call of this tool opens its interface (MCP Apps): the tool declares one (a bad one is
 * said when the call starts) and interfaces are on (`mcpToolHost.apps.enabled`). The rest is lazy
 * (appSessions.ts, in dist/forms.js).
 */
export function interfaceWanted(pool: ServerPool, server: string, tool: string): boolean {
  const definition = pool.findTool(server, tool)?.tool;
  return definition !== undefined && appReferenceOf(definition).kind !== 'none' && vscode.workspace.getConfiguration('mcpToolHost').get<boolean>('apps.enabled', true);
}
