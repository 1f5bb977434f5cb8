import * as vscode from 'vscode';
import { loadInstall } from '../../core/install/load';
import { SECTION } from '../shared/section';
import { installServer, type InstallDeps } from './installServer';
import { pickOption, pickRegistryEntry } from './registryPick';

/** The official registry: what the setting holds until the user (or their organisation) changes it. */
export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/**
 * The registry to search: the user's (or their machine's) `mcpToolHost.registry.url`, never a
 * workspace's: a repository must not choose where the user's servers come from.
 */
export function registryUrl(): string {
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect<string>('registry.url');
  const url = inspected?.globalValue ?? inspected?.defaultValue ?? DEFAULT_REGISTRY_URL;
  return url.trim() || DEFAULT_REGISTRY_URL;
}

/** "MCP Tool Host: Add Server from Registry...": search, choose a server and a way to run it, install it. */
export async function addServerFromRegistry(deps: InstallDeps): Promise<{ installed: string } | undefined> {
  let client;
  try {
    client = loadInstall().newRegistryClient({ baseUrl: registryUrl() });
  } catch (err) {
    void vscode.window.showErrorMessage(vscode.l10n.t('The registry of mcpToolHost.registry.url cannot be used: {0}', err instanceof Error ? err.message : String(err)));
    return undefined;
  }
  const entry = await pickRegistryEntry(client, deps.prompts);
  const option = entry && (await pickOption(entry, deps.prompts));
  return option?.plan && installServer(option.plan, deps);
}
