import * as vscode from 'vscode';
import type { ArgumentRule, RuleScope } from '../../core/policy/argumentRules';
import { loadRules } from '../../core/policy/load';
import { sanitizeLine } from '../../core/render/sanitize';
import { folderRules, USER_RULES, WORKSPACE_RULES } from './ruleSources';
import type { RulesNode, RulesViewDeps } from './rulesTree';
import { whatWouldHappen, type WhatIfTarget } from './whatWouldHappen';
import { SECTION } from '../shared/section';

// What the Rules and Approvals view's commands do: Edit Rule, Delete Rule, Add Rule, Revoke and
// Open Settings JSON (loaded with dist/forms.js at first use; rulesView.ts registers them).

/** The questions the commands ask; the host tests answer them without a dialog. */
export interface RuleQuestions {
  /** A JSON input box prefilled with `value`; undefined when cancelled. */
  json(title: string, value: string, validate: (text: string) => string | undefined): Thenable<string | undefined>;
  /** A modal confirmation whose one button is `action`. */
  confirm(message: string, action: string): Thenable<boolean>;
}

export const vscodeQuestions: RuleQuestions = {
  json: (title, value, validate) => vscode.window.showInputBox({ title, value, prompt: vscode.l10n.t('The rule as JSON: name, server, tool, effect (allow, ask or deny), when (optional conditions), reason.'), validateInput: validate, ignoreFocusOut: true }),
  confirm: async (message, action) => (await vscode.window.showWarningMessage(message, { modal: true }, action)) === action,
};

/** A new rule starts as an ask: the safe effect, which the user turns into an allow or a deny. */
const TEMPLATE = { name: 'my rule', server: '*', tool: 'write_*', when: [{ pointer: '/path', under: '${workspaceFolder}' }], effect: 'ask', reason: 'why this rule exists' };

/** The setting a rule was read from: its list as written, and how to write the list back. */
interface SettingPlace {
  read(): unknown[];
  write(list: unknown[]): Thenable<void>;
}

function placeOf(rule: Pick<ArgumentRule, 'scope' | 'source'>): SettingPlace | undefined {
  const at = (config: vscode.WorkspaceConfiguration, key: 'globalValue' | 'workspaceValue' | 'workspaceFolderValue', target: vscode.ConfigurationTarget): SettingPlace => ({
    read: () => {
      const value = config.inspect<unknown>('rules')?.[key];
      return Array.isArray(value) ? [...(value as unknown[])] : [];
    },
    write: (list) => config.update('rules', list.length === 0 ? undefined : list, target),
  });
  if (rule.scope === 'policy') return undefined;
  if (rule.source === USER_RULES) return at(vscode.workspace.getConfiguration(SECTION), 'globalValue', vscode.ConfigurationTarget.Global);
  if (rule.source === WORKSPACE_RULES) return at(vscode.workspace.getConfiguration(SECTION), 'workspaceValue', vscode.ConfigurationTarget.Workspace);
  const folder = vscode.workspace.workspaceFolders?.find((f) => folderRules(f.name) === rule.source);
  return folder && at(vscode.workspace.getConfiguration(SECTION, folder.uri), 'workspaceFolderValue', vscode.ConfigurationTarget.WorkspaceFolder);
}

/** The rule's entry as written, or why it cannot be found (a policy rule; the setting changed since the view was drawn). */
function entryOf(rule: ArgumentRule): { place: SettingPlace; list: unknown[]; position: number } | { problem: string } {
  const place = placeOf(rule);
  if (!place || rule.position === undefined) return { problem: vscode.l10n.t('Rule "{0}" was set by your administrator ({1}): it cannot be changed here.', sanitizeLine(rule.name), sanitizeLine(rule.source)) };
  const list = place.read();
  const entry = list[rule.position];
  const named = typeof entry === 'object' && entry !== null && 'name' in entry && typeof entry.name === 'string' ? entry.name : undefined;
  if (entry === undefined || (named !== undefined && named !== rule.name)) return { problem: vscode.l10n.t('The rules in {0} changed since the view was drawn: look again and retry.', sanitizeLine(rule.source)) };
  return { place, list, position: rule.position };
}

/**
 * Whether `text` is one rule that parses without a problem in this scope (an allow in a workspace
 * does not), with a name no other entry of the list has; undefined when it is.
 */
export function ruleTextProblem(text: string, scope: RuleScope, source: string, others: readonly unknown[]): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return vscode.l10n.t('Not valid JSON: {0}', (err as Error).message);
  }
  const { problems } = loadRules().parseRules([value], scope, source);
  if (problems.length > 0) return problems.length === 1 ? problems[0].message : vscode.l10n.t('{0} (and {1} more problems)', problems[0].message, problems.length - 1);
  const name = (value as { name: string }).name;
  if (others.some((o) => typeof o === 'object' && o !== null && (o as { name?: unknown }).name === name)) {
    return vscode.l10n.t('Another rule in {0} is named "{1}": give each rule its own name (decisions are explained by name).', source, sanitizeLine(name));
  }
  return undefined;
}

export async function editRule(deps: RulesViewDeps, node: RulesNode | undefined, ask: RuleQuestions = vscodeQuestions): Promise<boolean> {
  if (node?.kind !== 'rule') return false;
  const found = entryOf(node.rule);
  if ('problem' in found) return void vscode.window.showInformationMessage(found.problem), false;
  const { place, list, position } = found;
  const others = list.filter((_, i) => i !== position);
  const title = vscode.l10n.t('Edit rule "{0}" ({1})', sanitizeLine(node.rule.name), sanitizeLine(node.rule.source));
  const text = await ask.json(title, JSON.stringify(list[position]), (t) => ruleTextProblem(t, node.rule.scope, node.rule.source, others));
  if (text === undefined || ruleTextProblem(text, node.rule.scope, node.rule.source, others) !== undefined) return false;
  list[position] = JSON.parse(text);
  await place.write(list);
  deps.ruleSet.changed();
  return true;
}

export async function deleteRule(deps: RulesViewDeps, node: RulesNode | undefined, ask: RuleQuestions = vscodeQuestions): Promise<boolean> {
  if (node?.kind !== 'rule') return false;
  const found = entryOf(node.rule);
  if ('problem' in found) return void vscode.window.showInformationMessage(found.problem), false;
  const message = vscode.l10n.t('Delete rule "{0}" from {1}?', sanitizeLine(node.rule.name), sanitizeLine(node.rule.source));
  if (!(await ask.confirm(message, vscode.l10n.t('Delete Rule')))) return false;
  found.list.splice(found.position, 1);
  await found.place.write(found.list);
  deps.ruleSet.changed();
  return true;
}

/** Add Rule...: a rule from a template, checked as it is typed, appended to the user settings. */
export async function addRule(deps: RulesViewDeps, ask: RuleQuestions = vscodeQuestions): Promise<boolean> {
  const place = placeOf({ scope: 'user', source: USER_RULES })!;
  const list = place.read();
  const text = await ask.json(vscode.l10n.t('Add a rule to your user settings'), JSON.stringify(TEMPLATE), (t) => ruleTextProblem(t, 'user', USER_RULES, list));
  if (text === undefined || ruleTextProblem(text, 'user', USER_RULES, list) !== undefined) return false;
  await place.write([...list, JSON.parse(text)]);
  deps.ruleSet.changed();
  return true;
}

export function revokeGrant(deps: RulesViewDeps, node: RulesNode | undefined): void {
  if (node?.kind === 'grant') deps.pipeline.grants.revoke(node.grant);
}

/** The settings file a row's rule (or problem) comes from; the user's from the title bar. */
export function openRulesJson(node: RulesNode | undefined): Thenable<unknown> {
  // A problem names its place last, in parentheses: "rule 'x' (workspace settings)".
  const place = node?.kind === 'rule' ? `(${node.rule.source})` : node?.kind === 'problem' ? node.problem.rule : '';
  if (place.endsWith(`(${WORKSPACE_RULES})`)) return vscode.commands.executeCommand('workbench.action.openWorkspaceSettingsFile');
  if (/\(folder settings \(.*\)\)$/.test(place)) return vscode.commands.executeCommand('workbench.action.openFolderSettingsFile');
  return vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: `${SECTION}.rules` } });
}

/** The view's commands by id (rulesView.ts registers each, and loads this at the first use). */
export function runRulesCommand(id: string, deps: RulesViewDeps, arg: unknown): unknown {
  const node = arg as RulesNode | undefined;
  switch (id) {
    case 'mcpToolHost.rules.edit':
      return editRule(deps, node);
    case 'mcpToolHost.rules.delete':
      return deleteRule(deps, node);
    case 'mcpToolHost.rules.add':
      return addRule(deps);
    case 'mcpToolHost.rules.revoke':
      return revokeGrant(deps, node);
    case 'mcpToolHost.rules.openSettingsJson':
      return openRulesJson(node);
    case 'mcpToolHost.whatWouldHappen':
      return whatWouldHappen(deps, arg as WhatIfTarget);
  }
  return undefined;
}
