import * as vscode from 'vscode';
import type { RuleProblem } from '../../core/policy/argumentRules';
import type { RuleBindingPersistence } from '../../core/policy/ruleBindings';
import { policyFiles } from '../../core/policy/policyFiles';
import { filesStamp, policyInputs, RuleSet, type RuleInput } from '../../core/policy/ruleSource';
import type { ToolPin } from '../../core/policy/toolPin';
import { SECTION } from '../shared/section';
import { folderRules, USER_RULES, WORKSPACE_RULES } from './ruleSources';

const BINDINGS_KEY = 'rules.bindings';

/**
 * The argument rules in force for the extension: the administrator's policy files, then
 * `mcpToolHost.rules` of the user, the workspace and each folder. A workspace's rules are read
 * even when it is not trusted: they can only add asks and denies (the parser refuses allows).
 * Nothing is parsed until the first call needs a decision.
 */
export function settingsRules(onProblems: (problems: readonly RuleProblem[]) => void): RuleSet {
  const files = policyFiles();
  return new RuleSet(() => readInputs(files), () => filesStamp(files), onProblems);
}

function readInputs(files: readonly string[]): RuleInput[] {
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect<unknown>('rules');
  const inputs: RuleInput[] = [...policyInputs(files), { scope: 'user', source: USER_RULES, raw: inspected?.globalValue }];
  inputs.push({ scope: 'workspace', source: WORKSPACE_RULES, raw: inspected?.workspaceValue });
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const value = vscode.workspace.getConfiguration(SECTION, folder.uri).inspect<unknown>('rules')?.workspaceFolderValue;
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(inspected?.workspaceValue)) inputs.push({ scope: 'workspace', source: folderRules(folder.name), raw: value });
  }
  return inputs;
}

/** Which definition each allow rule is bound to, beside the grants in the extension's global state. */
export function mementoRuleBindings(state: vscode.Memento): RuleBindingPersistence {
  return { load: () => ({ ...state.get<Record<string, ToolPin>>(BINDINGS_KEY, {}) }), save: (bindings) => void state.update(BINDINGS_KEY, bindings) };
}

/** Tells the user once per new set of problems, and writes each to the output channel. */
export function ruleProblemReporter(output: vscode.OutputChannel): (problems: readonly RuleProblem[]) => void {
  let shown = '';
  return (problems) => {
    const text = problems.map((p) => p.message).join('\n');
    if (text === shown) return;
    shown = text;
    if (problems.length === 0) return;
    for (const p of problems) output.appendLine(`rules: ${p.message}`);
    const first = problems[0].message;
    const message = problems.length === 1 ? vscode.l10n.t('Argument rules: {0}', first) : vscode.l10n.t('Argument rules: {0} (and {1} more problems: see the MCP Tool Host output)', first, problems.length - 1);
    const open = vscode.l10n.t('Open Settings');
    void vscode.window.showWarningMessage(message, open).then((picked) => picked && vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.rules`));
  };
}
