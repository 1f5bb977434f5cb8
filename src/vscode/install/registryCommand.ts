import * as path from 'node:path';
import * as vscode from 'vscode';
import type { BundleInstall } from '../../core/install/bundle';
import { loadInstall } from '../../core/install/load';
import type { RegistryBundle } from '../../core/install/registryTypes';
import { policyFiles, policyRegistryUrl } from '../../core/policy/policyFiles';
import { sanitizeLine, visibleLine } from '../../core/render/sanitize';
import type { BundleDeps } from './bundleCommand';
import { SECTION } from '../shared/section';
import { installServer } from './installServer';
import { pickOption, pickRegistryEntry } from './registryPick';

/** The official registry: what the setting holds until the user (or their organisation) changes it. */
export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';

/**
 * The registry to search: the one an administrator's policy file pins (`registryUrl`), else the
 * user's (or their machine's) `mcpToolHost.registry.url`, never a workspace's: a repository must
 * not choose where the user's servers come from. A policy file that cannot be read might pin one:
 * then nothing is searched (the problem is thrown).
 */
export function registryUrl(files: readonly string[] = policyFiles()): { readonly url: string; readonly pinnedBy?: string } {
  const pinned = policyRegistryUrl(files);
  if (pinned && 'problem' in pinned) throw new Error(pinned.problem);
  if (pinned) return { url: pinned.url, pinnedBy: pinned.file };
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect<string>('registry.url');
  const url = inspected?.globalValue ?? inspected?.defaultValue ?? DEFAULT_REGISTRY_URL;
  return { url: url.trim() || DEFAULT_REGISTRY_URL };
}

/** "MCP Tool Host: Add Server from Registry...": search, choose a server and a way to run it, install it. */
export async function addServerFromRegistry(deps: BundleDeps): Promise<{ installed: string } | undefined> {
  let client;
  try {
    const registry = registryUrl();
    client = loadInstall().newRegistryClient({ baseUrl: registry.url });
    const setting = vscode.workspace.getConfiguration(SECTION).inspect<string>('registry.url')?.globalValue;
    if (registry.pinnedBy && setting && setting.trim() !== registry.url) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Your administrator\'s policy ({0}) pins the registry to {1}: mcpToolHost.registry.url ({2}) is not used.', registry.pinnedBy, registry.url, sanitizeLine(setting)));
    }
  } catch (err) {
    void vscode.window.showErrorMessage(vscode.l10n.t('The registry cannot be searched: {0}', err instanceof Error ? err.message : String(err)));
    return undefined;
  }
  const entry = await pickRegistryEntry(client, deps.prompts);
  const option = entry && (await pickOption(entry, deps.prompts));
  if (option?.bundle) {
    const bundle = await download(option.bundle, deps);
    return bundle && installServer(bundle.plan, deps, { beforeWrite: bundle.unpack });
  }
  return option?.plan && installServer(option.plan, deps);
}

/**
 * The bundle an entry points at, downloaded (with a cancellable progress) and checked against the
 * registry's sha256 and as any bundle file is; then installed as one, unpacked where bundles are.
 */
async function download(source: RegistryBundle, deps: BundleDeps): Promise<BundleInstall | undefined> {
  const { downloadBundle } = loadInstall();
  const controller = new AbortController();
  try {
    return await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Downloading the bundle {0}', visibleLine(source.url)), cancellable: true },
      (_progress, token) => {
        token.onCancellationRequested(() => controller.abort());
        return downloadBundle(source, { root: path.join(deps.storagePath, 'bundles'), signal: controller.signal });
      },
    );
  } catch (err) {
    if (controller.signal.aborted) return undefined;
    void vscode.window.showErrorMessage(vscode.l10n.t('"{0}" was not installed: {1}', visibleLine(source.name), sanitizeLine(err instanceof Error ? err.message : String(err))));
    return undefined;
  }
}
