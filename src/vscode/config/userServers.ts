import * as vscode from 'vscode';
import { SECTION } from '../shared/section';

// The servers of user settings, in a module of its own: Add Server and Import
// Servers (dist/forms.js) copy it without settings.ts and what that reads (esbuild.mjs).

/** One server to write into user settings: its name, and its entry as `mcpToolHost.servers` holds it. */
export interface UserServerEntry {
  readonly name: string;
  readonly entry: unknown;
}

/**
 * The one writer of servers into user settings (`mcpToolHost.servers`, ConfigurationTarget.Global;
 * a workspace's servers are the workspace's to change): adds `entries` in one write and keeps
 * every other entry. Where the settings (or an earlier entry of this call) already hold a name with
 * a different definition, `replace` decides; without it the new entry wins. An identical entry
 * counts as added. Returns the names written, in order and once each; writes nothing if none.
 */
export async function addUserServers<T extends UserServerEntry>(entries: readonly T[], replace?: (entry: T) => PromiseLike<boolean>): Promise<string[]> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const servers = { ...(config.inspect<Record<string, unknown>>('servers')?.globalValue ?? {}) };
  const added: string[] = [];
  for (const e of entries) {
    const clash = servers[e.name] !== undefined && JSON.stringify(servers[e.name]) !== JSON.stringify(e.entry);
    if (clash && replace && !(await replace(e))) continue;
    servers[e.name] = e.entry;
    if (!added.includes(e.name)) added.push(e.name);
  }
  if (added.length > 0) await config.update('servers', servers, vscode.ConfigurationTarget.Global);
  return added;
}

/** The names of the servers in user settings (`mcpToolHost.servers`, global value only). */
export function userServerNames(): string[] {
  return Object.keys(vscode.workspace.getConfiguration(SECTION).inspect<object>('servers')?.globalValue ?? {});
}
