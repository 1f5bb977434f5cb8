// Filling a prompt's arguments or a template's variables field by field, with the server's
// completions (completion/complete) as the user types, in the box the Tools view's templates use.
import * as vscode from 'vscode';
import type { CompletionAnswer } from '../../core/offers/offerTypes';
import { sanitizeLine } from '../../core/render/sanitize';
import { askWithCompletions } from '../resources/completionBox';
import type { PromptEvents } from '../shared/promptEvents';

export interface FieldSpec {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required: boolean;
}

/**
 * Each field not given yet, in order (`all`: optional ones too, else only the required), asked
 * with completions that see the values filled so far. Undefined when the user cancels.
 */
export async function askFields(
  fields: readonly FieldSpec[],
  given: Readonly<Record<string, string>>,
  all: boolean,
  complete: (name: string, value: string, context: Record<string, string>, signal: AbortSignal) => Promise<CompletionAnswer>,
  prompts?: PromptEvents,
): Promise<Record<string, string> | undefined> {
  const values: Record<string, string> = { ...given };
  const missing = fields.filter((f) => values[f.name] === undefined && (all || f.required));
  for (const [i, field] of missing.entries()) {
    const filled = { ...values };
    const value = await askWithCompletions({
      title: `${sanitizeLine(field.title ?? field.name)}${field.required ? '' : ` ${vscode.l10n.t('(optional)')}`}`,
      placeholder: sanitizeLine(field.description ?? '') || vscode.l10n.t('Type a value'),
      step: i + 1,
      totalSteps: missing.length,
      requiredMessage: field.required ? vscode.l10n.t('{0} is required: type a value.', sanitizeLine(field.name)) : undefined,
      complete: async (typed, signal) => (await complete(field.name, typed, filled, signal)).values,
    }, prompts);
    if (value === undefined) return undefined;
    if (value !== '') values[field.name] = value;
  }
  return values;
}
