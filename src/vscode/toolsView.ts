import * as vscode from 'vscode';
import type { ServerPool } from '../core/connection/serverPool';
import type { ServerLogs } from './serverLogs';
import { ToolSchemaDocuments } from './showSchema';
import { ServerStatusBar, type CallsInFlight } from './statusBar';
import type { ToolTreeProvider } from './toolTree';
import type { TreeNode } from './treeNodes';
import { ErrorBadge } from './viewBadge';
import { registerViewCommands } from './viewCommands';
import { ViewContextKeys } from './viewContextKeys';

export interface ToolsViewDeps {
  readonly context: vscode.ExtensionContext;
  readonly pool: ServerPool;
  /** The CallPipeline: the status bar counts its calls in flight. */
  readonly pipeline: CallsInFlight;
  readonly logs: ServerLogs;
  readonly tree: ToolTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
}

/**
 * Everything around the Tools view besides the tree itself: its commands (Add Server, Show
 * Schema, Copy Name, Open Configuration, Run Doctor...), the read-only schema documents, the
 * error badge, the status bar item and the context keys of the `when` clauses. One call from
 * activate(); the returned disposable undoes all of it.
 */
export function registerToolsView(deps: ToolsViewDeps): vscode.Disposable {
  const schemas = new ToolSchemaDocuments(deps.pool);
  return vscode.Disposable.from(
    schemas,
    registerViewCommands({ ...deps, schemas }),
    new ErrorBadge(deps.pool, deps.view),
    new ServerStatusBar(deps.pool, deps.pipeline),
    new ViewContextKeys(deps.pool),
  );
}
