import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../core/calls/ports';
import { loadRules } from '../../core/policy/load';
import type { ArgumentChoice, ArgumentProposal, RawRule } from '../../core/policy/ruleProposal';
import { sanitizeLine, visibleJson } from '../../core/render/sanitize';
import type { PromptEvents } from '../shared/promptEvents';

interface ChoiceItem extends vscode.QuickPickItem {
  readonly choice: ArgumentChoice;
}

/**
 * "Allow calls like this one...": the user picks, per argument, a condition (its folder, this
 * value, any value), edits the proposed rule as JSON (checked as the setting will be read), and it
 * is appended to the user's `mcpToolHost.rules`. Returns the rule as saved and how it is named
 * ("rule 'x like this' (user settings)"), or `undefined` when the user backed out at any step or it could not be saved:
 * the approval prompt then shows again (nothing is allowed).
 */
export async function allowLikeThis(request: ApprovalRequest, prompts: PromptEvents): Promise<{ readonly saved: string; readonly rule: unknown } | undefined> {
  const engine = loadRules();
  const existing = userRules();
  if (!existing) return undefined;
  const place = request.place?.() ?? { paths: engine.localPaths(), workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath };
  const proposal = engine.proposeRule(request.server, request.tool, request.args, place, namesOf(existing));
  if (proposal.kind === 'none') {
    void vscode.window.showWarningMessage(vscode.l10n.t('No rule can be proposed for this call: {0}', sanitizeLine(proposal.why)));
    return undefined;
  }
  const chosen: ArgumentChoice[] = [];
  for (const [index, argument] of proposal.arguments.entries()) {
    const picked = await pickChoice(prompts, argument, index, proposal.arguments.length);
    if (!picked) return undefined;
    chosen.push(picked);
  }
  const rule = await editRule(prompts, engine.buildRule(proposal, chosen), proposal.unchecked, namesOf(existing));
  if (!rule) return undefined;
  // Read again: the settings may have changed while the user was choosing.
  const now = userRules();
  if (!now) return undefined;
  if (namesOf(now).includes(rule.name)) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Your user settings already have a rule named {0}; nothing was saved.', sanitizeLine(rule.name)));
    return undefined;
  }
  try {
    await vscode.workspace.getConfiguration('mcpToolHost').update('rules', [...now, rule], vscode.ConfigurationTarget.Global);
  } catch (err) {
    void vscode.window.showErrorMessage(vscode.l10n.t('The rule could not be saved to your user settings: {0}', sanitizeLine(err instanceof Error ? err.message : String(err))));
    return undefined;
  }
  return { saved: `rule '${rule.name}' (user settings)`, rule };
}

/** The user's (Global) rules as written, or `undefined` (with a warning) when the setting is not a list. */
function userRules(): readonly unknown[] | undefined {
  const value = vscode.workspace.getConfiguration('mcpToolHost').inspect<unknown>('rules')?.globalValue;
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  void vscode.window.showWarningMessage(vscode.l10n.t('Your user setting mcpToolHost.rules is not a list of rules; fix it before adding one.'));
  return undefined;
}

function namesOf(rules: readonly unknown[]): string[] {
  return rules.flatMap((r) => (typeof r === 'object' && r !== null && typeof (r as { name?: unknown }).name === 'string' ? [(r as { name: string }).name] : []));
}

function pickChoice(prompts: PromptEvents, argument: ArgumentProposal, index: number, count: number): Promise<ArgumentChoice | undefined> {
  const qp = vscode.window.createQuickPick<ChoiceItem>();
  // The server chose the name and the value: shown as escapes where they hide or reorder text.
  qp.title = vscode.l10n.t('Allow calls like this one ({0}/{1}): argument "{2}"', index + 1, count, sanitizeLine(argument.name));
  const value = short(visibleJson(argument.value));
  qp.placeholder = argument.notes.length > 0 ? vscode.l10n.t('Value: {0} ({1})', value, sanitizeLine(argument.notes.join('; '))) : vscode.l10n.t('Value: {0}', value);
  qp.ignoreFocusOut = true;
  qp.items = argument.choices.map((choice) => itemOf(choice, value));
  return new Promise<ArgumentChoice | undefined>((resolve) => {
    qp.onDidAccept(() => {
      resolve(qp.selectedItems[0]?.choice);
      qp.hide();
    });
    qp.onDidHide(() => {
      resolve(undefined);
      qp.dispose();
    });
    prompts.show(qp);
  });
}

function itemOf(choice: ArgumentChoice, value: string): ChoiceItem {
  switch (choice.kind) {
    case 'under':
      return { choice, label: `$(folder) ${vscode.l10n.t('Under its folder {0}', sanitizeLine(choice.folder))}`, detail: vscode.l10n.t('That folder and everything below it, compared as real paths (symbolic links and ".." followed).') };
    case 'equals':
      return { choice, label: `$(symbol-constant) ${vscode.l10n.t('Exactly this value: {0}', value)}` };
    case 'each-of':
      return { choice, label: `$(list-flat) ${vscode.l10n.t('Each value one of: {0}', value)}`, detail: vscode.l10n.t('A list is read value by value: the rule holds when every value sent is one of these.') };
    case 'at-most':
      return { choice, label: `$(arrow-down) ${vscode.l10n.t('At most {0}', value)}` };
    case 'at-least':
      return { choice, label: `$(arrow-up) ${vscode.l10n.t('At least {0}', value)}` };
    case 'any':
      return { choice, label: `$(circle-large-outline) ${vscode.l10n.t('Any value')}`, detail: vscode.l10n.t('The rule does not check this argument.') };
  }
}

/** The proposed rule as one line of JSON to edit; accepted only when it reads as the setting will. */
function editRule(prompts: PromptEvents, proposed: RawRule, unchecked: readonly string[], taken: readonly string[]): Promise<RawRule | undefined> {
  const input = vscode.window.createInputBox();
  input.title = vscode.l10n.t('Save this rule to your user settings (edit it first if you like)');
  input.prompt =
    unchecked.length > 0
      ? vscode.l10n.t('Arguments this call did not send are not checked by the rule: {0}.', unchecked.map((n) => sanitizeLine(n)).join(', '))
      : vscode.l10n.t('Enter saves it to mcpToolHost.rules; Escape goes back to the approval.');
  input.value = visibleJson(proposed); // values from the arguments: hidden characters as escapes
  input.ignoreFocusOut = true;
  input.onDidChangeValue((text) => (input.validationMessage = ruleProblem(text, taken)));
  return new Promise<RawRule | undefined>((resolve) => {
    input.onDidAccept(() => {
      const problem = ruleProblem(input.value, taken);
      input.validationMessage = problem;
      if (problem !== undefined) return;
      resolve(JSON.parse(input.value) as RawRule);
      input.hide();
    });
    input.onDidHide(() => {
      resolve(undefined);
      input.dispose();
    });
    prompts.show(input);
  });
}

/** The first thing wrong with the edited rule, or `undefined` when it can be saved. */
function ruleProblem(text: string, taken: readonly string[]): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return vscode.l10n.t('Not valid JSON: {0}', err instanceof Error ? err.message : String(err));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return vscode.l10n.t('Enter one rule: a JSON object with name, server, tool, effect and when.');
  const rule = value as { effect?: unknown; name?: unknown };
  if (rule.effect !== 'allow') return vscode.l10n.t('This saves an allow rule ("effect": "allow"); write ask and deny rules in settings.json.');
  const problem = loadRules().parseRules([value], 'user').problems[0];
  if (problem) return sanitizeLine(problem.message);
  if (typeof rule.name === 'string' && taken.includes(rule.name)) return vscode.l10n.t('Your user settings already have a rule named {0}.', sanitizeLine(rule.name));
  return undefined;
}

function short(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
