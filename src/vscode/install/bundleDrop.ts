import * as vscode from 'vscode';
import type { TreeNode } from '../tree/treeNodes';

/** The command a dropped bundle goes to (the palette's Install MCP Bundle..., with the file). */
const INSTALL_BUNDLE = 'mcpToolHost.installBundle';

/**
 * Drops onto the Tools view: a .mcpb file dragged from the Explorer or the desktop installs
 * through Install MCP Bundle.... Rows are not dragged. Loaded at activation, so it holds nothing
 * but the hand-over; the bundle code loads when a drop arrives.
 */
export class BundleDropController implements vscode.TreeDragAndDropController<TreeNode> {
  readonly dropMimeTypes = ['text/uri-list', 'files'];
  readonly dragMimeTypes: readonly string[] = [];

  async handleDrop(_target: TreeNode | undefined, data: vscode.DataTransfer): Promise<void> {
    const dropped = await droppedUris(data);
    const bundles = dropped.filter((u) => u.path.toLowerCase().endsWith('.mcpb'));
    if (bundles.length === 0) {
      if (dropped.length > 0) void vscode.window.showWarningMessage(vscode.l10n.t('Only an MCP Bundle (a .mcpb file) can be dropped onto the Tools view.'));
      return;
    }
    if (bundles.length > 1) void vscode.window.showInformationMessage(vscode.l10n.t('One bundle at a time: installing {0} first.', bundles[0].path.slice(bundles[0].path.lastIndexOf('/') + 1)));
    await vscode.commands.executeCommand(INSTALL_BUNDLE, bundles[0]);
  }
}

/** The files a drop carries: the Explorer's uri list, else the files of an operating system drop. */
async function droppedUris(data: vscode.DataTransfer): Promise<vscode.Uri[]> {
  const list = await data.get('text/uri-list')?.asString();
  if (list) {
    return list.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#')).flatMap((l) => {
      try {
        return [vscode.Uri.parse(l, true)];
      } catch {
        return [];
      }
    });
  }
  const file = data.get('files')?.asFile();
  return file?.uri ? [file.uri] : [];
}
