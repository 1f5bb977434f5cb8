import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadInstall } from '../../core/install/load';
import { sanitizeLine, visibleLine } from '../../core/render/sanitize';
import { installServer, type InstallDeps } from './installServer';

/** What installing a bundle needs: the shared install flow's, and where bundles are unpacked. */
export interface BundleDeps extends InstallDeps {
  /** The extension's global storage; bundles unpack under its `bundles` folder. */
  readonly storagePath: string;
}

/**
 * "Install MCP Bundle...": a .mcpb file (the argument: a Uri or a path, from a drop onto the Tools
 * view, a test or a script; else a file dialog), read and checked, then the shared install flow,
 * which unpacks it only after the user agreed to everything and before its entry is written.
 */
export async function installBundle(deps: BundleDeps, file?: unknown): Promise<{ installed: string } | undefined> {
  const uri = file instanceof vscode.Uri ? file : typeof file === 'string' && file !== '' ? vscode.Uri.file(file) : await pickBundle();
  if (!uri) return undefined;
  if (uri.scheme !== 'file') {
    void vscode.window.showErrorMessage(vscode.l10n.t('Only a bundle on this machine\'s disk can be installed, not {0}.', visibleLine(uri.toString())));
    return undefined;
  }
  const { readBundle } = loadInstall();
  let bundle: Awaited<ReturnType<typeof readBundle>>;
  try {
    bundle = await readBundle(uri.fsPath, { root: path.join(deps.storagePath, 'bundles') });
  } catch (err) {
    void vscode.window.showErrorMessage(vscode.l10n.t('The bundle {0} was not installed: {1}', visibleLine(path.basename(uri.fsPath)), sanitizeLine(err instanceof Error ? err.message : String(err))));
    return undefined;
  }
  return installServer(bundle.plan, deps, { beforeWrite: bundle.unpack });
}

async function pickBundle(): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title: vscode.l10n.t('Install MCP Bundle'),
    openLabel: vscode.l10n.t('Install'),
    canSelectMany: false,
    filters: { [vscode.l10n.t('MCP Bundles')]: ['mcpb'] },
  });
  return picked?.[0];
}
