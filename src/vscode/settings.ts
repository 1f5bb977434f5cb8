import * as vscode from 'vscode';
import { parseServers, type ParsedServers, type ServerDefinition } from '../core/config/serverConfig';
import type { ConfigError } from '../core/errors';

export const SECTION = 'mcpToolHost';

/**
 * Reads `mcpToolHost.servers` from user and workspace settings separately, so each definition
 * knows its source (a workspace's servers are trusted less). A workspace entry replaces a user
 * entry of the same name; in an untrusted workspace, workspace entries are ignored.
 */
export function readServerSettings(): ParsedServers {
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect<unknown>('servers');
  const user = parseServers(inspected?.globalValue, 'user');
  const byName = new Map<string, ServerDefinition>(user.servers.map((s) => [s.name, s]));
  const errors: ConfigError[] = [...user.errors];
  if (vscode.workspace.isTrusted) {
    for (const raw of [inspected?.workspaceValue, inspected?.workspaceFolderValue]) {
      const ws = parseServers(raw, 'workspace');
      for (const s of ws.servers) byName.set(s.name, s);
      errors.push(...ws.errors);
    }
  }
  return { servers: [...byName.values()], errors };
}

export function approveAllCalls(): boolean {
  return vscode.workspace.getConfiguration(SECTION).get<boolean>('approveAllCalls', false);
}

export function maxMessageBytes(): number {
  return vscode.workspace.getConfiguration(SECTION).get<number>('maxMessageMiB', 64) * 1024 * 1024;
}
