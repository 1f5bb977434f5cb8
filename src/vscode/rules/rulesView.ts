import * as vscode from 'vscode';
import type * as Later from './later';
import type { RulesTree, RulesViewDeps } from './rulesTree';

/** The commands of the Rules and Approvals view, and What Would Happen (ruleActions.ts does them). */
const COMMANDS = ['rules.edit', 'rules.delete', 'rules.revoke', 'rules.add', 'rules.openSettingsJson', 'whatWouldHappen'];

/**
 * The Rules and Approvals view at activation: a shim whose rows (rulesTree.ts) and commands load
 * with dist/forms.js when the view is first shown or a command is run. It redraws when the rules
 * settings or the grants change. Returns the provider (the host tests read its rows) and what to dispose.
 */
export function registerRulesView(deps: RulesViewDeps, later: () => { readonly rules: typeof Later }): { provider: vscode.TreeDataProvider<unknown>; disposables: vscode.Disposable[] } {
  const changed = new vscode.EventEmitter<void>();
  let tree: RulesTree | undefined;
  const rows = () => (tree ??= new (later().rules.RulesTree)(deps));
  const provider: vscode.TreeDataProvider<unknown> = { onDidChangeTreeData: changed.event, getChildren: (n) => rows().getChildren(n as never), getTreeItem: (n) => rows().getTreeItem(n as never) };
  const refresh = () => changed.fire();
  return {
    provider,
    disposables: [
      changed,
      vscode.window.createTreeView('mcpToolHost.rules', { treeDataProvider: provider }),
      deps.pipeline.grants.onDidChange(refresh),
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration('mcpToolHost.rules') && refresh()),
      vscode.commands.registerCommand('mcpToolHost.rules.refresh', () => (deps.ruleSet.changed(), refresh())),
      ...COMMANDS.map((c) => vscode.commands.registerCommand(`mcpToolHost.${c}`, (arg: unknown) => later().rules.runRulesCommand(`mcpToolHost.${c}`, deps, arg))),
    ],
  };
}
