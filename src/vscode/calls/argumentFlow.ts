import * as vscode from 'vscode';
import type { ArgumentField } from '../../core/tools/argumentFields';
import { checkField, fieldText, optionLabel, type FieldEntry, type ValidateArguments } from '../../core/tools/argumentValues';
import { sanitizeLine } from '../../core/render/sanitize';
import { MultiStepInput, type StepButton, type StepResult } from '../shared/multiStepInput';

/** How the field flow ended; `values` holds what was entered so far (absent = unset). */
export type FlowResult =
  | { readonly kind: 'done'; readonly values: Record<string, unknown> }
  | { readonly kind: 'json'; readonly values: Record<string, unknown> }
  | { readonly kind: 'cancel' };

export interface FlowRequest {
  /** The tool's display name, for titles ("Read Note (1/2): name"). */
  readonly toolName: string;
  readonly fields: readonly ArgumentField[];
  /** Starting values (last arguments or defaults); not modified. */
  readonly values: Readonly<Record<string, unknown>>;
  readonly validate: ValidateArguments;
  /** The step to open first, with the problem that sent the user back to it. */
  readonly start?: number;
  readonly problem?: string;
  /** Fixing a refused call: end as soon as the reopened step is answered. */
  readonly fixOnly?: boolean;
}

const jsonButton = (): StepButton => ({ id: 'json', iconPath: new vscode.ThemeIcon('json'), tooltip: vscode.l10n.t('Edit as JSON (all arguments, in an editor)') });
const skipButton = (name: string): StepButton => ({ id: 'skip', iconPath: new vscode.ThemeIcon('circle-slash'), tooltip: vscode.l10n.t('Skip "{0}" (leave it unset)', name) });

type PickItem = vscode.QuickPickItem & { readonly choice: { kind: 'value'; value: unknown } | { kind: 'skip' } | { kind: 'json' } | { kind: 'none' } };

/**
 * Asks a tool's arguments one field per step: input boxes checked as you type for text and
 * numbers, picks for enums and booleans, Back to the previous step, a skip button (and an
 * empty box) for optional fields, and "Edit as JSON" on every step.
 */
export async function runFieldFlow(request: FlowRequest): Promise<FlowResult> {
  const { fields, validate } = request;
  const values: Record<string, unknown> = { ...request.values };
  const input = new MultiStepInput();
  try {
    let index = request.start ?? 0;
    let problem = request.problem;
    while (index < fields.length) {
      const field = fields[index];
      const title = field.required
        ? vscode.l10n.t('{0} ({1}/{2}): {3} (required)', request.toolName, index + 1, fields.length, sanitizeLine(field.name))
        : vscode.l10n.t('{0} ({1}/{2}): {3} (optional)', request.toolName, index + 1, fields.length, sanitizeLine(field.name));
      const buttons = [...(field.required ? [] : [skipButton(sanitizeLine(field.name))]), jsonButton()];
      const others = { ...values };
      delete others[field.name];
      const check = (text: string) => checkField(field, text, others, validate);
      const result = field.kind === 'enum' || field.kind === 'boolean'
        ? await pickStep(input, field, values, problem, { title, canGoBack: index > 0, buttons })
        : await boxStep(input, field, values, check, problem, { title, canGoBack: index > 0, buttons });
      problem = undefined;
      switch (result.kind) {
        case 'cancel':
          return { kind: 'cancel' };
        case 'back':
          index--;
          continue;
        case 'json':
          if (result.entry) apply(values, field.name, result.entry);
          return { kind: 'json', values };
        case 'entry':
          apply(values, field.name, result.entry);
          if (request.fixOnly) return { kind: 'done', values };
          index++;
          continue;
      }
    }
    return { kind: 'done', values };
  } finally {
    input.dispose();
  }
}

type StepOutcome = { kind: 'entry'; entry: FieldEntry } | { kind: 'json'; entry?: FieldEntry } | { kind: 'back' } | { kind: 'cancel' };
type Chrome = { title: string; canGoBack: boolean; buttons: StepButton[] };

async function boxStep(input: MultiStepInput, field: ArgumentField, values: Record<string, unknown>, check: (text: string) => FieldEntry, problem: string | undefined, chrome: Chrome): Promise<StepOutcome> {
  const describe = (entry: FieldEntry) => (entry.kind === 'invalid' ? entry.message : undefined);
  const result: StepResult<string> = await input.showInputBox({
    ...chrome,
    value: fieldText(values[field.name]),
    prompt: promptOf(field, field.required ? '' : ` ${vscode.l10n.t('Leave empty to skip.')}`),
    placeholder: field.required ? vscode.l10n.t('Enter {0}', sanitizeLine(field.name)) : vscode.l10n.t('Optional: leave empty to skip'),
    validate: (text) => describe(check(text)),
    initialMessage: problem,
  });
  switch (result.kind) {
    case 'value':
      return { kind: 'entry', entry: check(result.value) };
    case 'button': {
      if (result.button.id === 'skip') return { kind: 'entry', entry: { kind: 'unset' } };
      const entry = check(result.text);
      return { kind: 'json', entry: entry.kind === 'invalid' ? undefined : entry };
    }
    default:
      return result;
  }
}

async function pickStep(input: MultiStepInput, field: ArgumentField, values: Record<string, unknown>, problem: string | undefined, chrome: Chrome): Promise<StepOutcome> {
  const current = values[field.name];
  const items: PickItem[] = field.options.map((option) => ({
    label: sanitizeLine(optionLabel(option)),
    description: field.hasDefault && optionLabel(field.defaultValue) === optionLabel(option) ? vscode.l10n.t('default') : undefined,
    choice: { kind: 'value', value: option },
  }));
  if (!field.required) items.push({ label: `$(circle-slash) ${vscode.l10n.t('Skip')}`, description: vscode.l10n.t('leave it unset; the server decides'), choice: { kind: 'skip' } });
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator, choice: { kind: 'none' } });
  items.push({ label: `$(json) ${vscode.l10n.t('Edit as JSON...')}`, description: vscode.l10n.t('all arguments, in an editor'), choice: { kind: 'json' } });
  const active = items.find((i) => i.choice.kind === 'value' && current !== undefined && optionLabel(i.choice.value) === optionLabel(current));
  const result = await input.showQuickPick<PickItem>({ ...chrome, items, active, placeholder: problem ? `${problem}. ${promptOf(field, '')}` : promptOf(field, '') });
  switch (result.kind) {
    case 'value': {
      const choice = result.value.choice;
      if (choice.kind === 'value') return { kind: 'entry', entry: { kind: 'value', value: choice.value } };
      if (choice.kind === 'skip') return { kind: 'entry', entry: { kind: 'unset' } };
      return { kind: 'json' };
    }
    case 'button':
      return result.button.id === 'skip' ? { kind: 'entry', entry: { kind: 'unset' } } : { kind: 'json' };
    default:
      return result;
  }
}

/** "The note to read — string, at least 1 character." plus what to do. */
function promptOf(field: ArgumentField, hint: string): string {
  const description = field.description ? `${sanitizeLine(field.description)} — ` : '';
  return `${description}${sanitizeLine(field.details)}.${hint}`;
}

function apply(values: Record<string, unknown>, name: string, entry: FieldEntry): void {
  if (entry.kind === 'value') values[name] = entry.value;
  else if (entry.kind === 'unset') delete values[name];
}
