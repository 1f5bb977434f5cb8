// Picking a server, a prompt or a resource, and filling a prompt's arguments or a template's
// variables field by field, with the server's completions (completion/complete) as the user types.
import * as vscode from 'vscode';
import type { CompletionAnswer } from '../../core/offers/offerTypes';
import type { ServerPool } from '../../core/connection/serverPool';
import { sanitizeLine, shownName } from '../../core/render/sanitize';

/** How long typing pauses before the server is asked for completions. */
const COMPLETE_DELAY_MS = 150;

/** A running server that offers `capability` (`prompts`, `resources`), picked; the only one is taken without asking. */
export async function pickServer(pool: ServerPool, capability: 'prompts' | 'resources', title: string): Promise<string | undefined> {
  const names = pool.connections.filter((c) => c.state.kind === 'running' && capability in c.serverCapabilities).map((c) => c.name);
  if (names.length === 0) {
    void vscode.window.showInformationMessage(capability === 'prompts' ? vscode.l10n.t('No running server offers prompts.') : vscode.l10n.t('No running server offers resources.'));
    return undefined;
  }
  if (names.length === 1) return names[0];
  const picked = await vscode.window.showQuickPick(names.map((name) => ({ label: shownName(name), name })), { title, placeHolder: vscode.l10n.t('Pick a server') });
  return picked?.name;
}

export interface FieldSpec {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required: boolean;
}

/**
 * One value, typed or picked from the server's completions of what is typed so far. Undefined when
 * the user cancels; '' when an optional field is left empty.
 */
export function askField(field: FieldSpec, step: string, complete: (value: string) => Promise<CompletionAnswer>): Promise<string | undefined> {
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem>();
  pick.title = `${step}: ${sanitizeLine(field.title ?? field.name)}${field.required ? '' : ` ${vscode.l10n.t('(optional)')}`}`;
  pick.placeholder = sanitizeLine(field.description ?? '') || vscode.l10n.t('Type a value');
  pick.ignoreFocusOut = true;
  let timer: NodeJS.Timeout | undefined;
  let asked = 0;
  const typedItem = (value: string): vscode.QuickPickItem => ({ label: value, description: vscode.l10n.t('as typed'), alwaysShow: true });
  const refresh = (value: string) => {
    clearTimeout(timer);
    const mine = ++asked;
    timer = setTimeout(() => {
      pick.busy = true;
      void complete(value)
        .then((answer) => {
          if (mine !== asked) return;
          const suggested = answer.values.filter((v) => v !== value).map((v) => ({ label: v, description: vscode.l10n.t('suggested by the server'), alwaysShow: true }));
          pick.items = [...(value ? [typedItem(value)] : []), ...suggested];
        })
        .catch(() => undefined)
        .finally(() => mine === asked && (pick.busy = false));
    }, COMPLETE_DELAY_MS);
  };
  return new Promise<string | undefined>((resolve) => {
    let settled = false;
    const finish = (value: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
      pick.dispose();
    };
    pick.onDidChangeValue((value) => {
      pick.items = [...(value ? [typedItem(value)] : []), ...pick.items.filter((i) => i.description !== vscode.l10n.t('as typed') && i.label !== value)];
      refresh(value);
    });
    pick.onDidAccept(() => {
      const value = pick.selectedItems[0]?.label ?? pick.value;
      if (value === '' && field.required) {
        // A quick pick has no validation message: the placeholder says it where the user looks.
        pick.placeholder = vscode.l10n.t('{0} is required: type a value.', sanitizeLine(field.name));
        return;
      }
      finish(value);
    });
    pick.onDidHide(() => finish(undefined));
    pick.show();
    refresh('');
  });
}

/**
 * Each field not given yet, in order (`all`: optional ones too, else only the required), asked
 * with completions that see the values filled so far. Undefined when the user cancels.
 */
export async function askFields(
  fields: readonly FieldSpec[],
  given: Readonly<Record<string, string>>,
  all: boolean,
  complete: (name: string, value: string, context: Record<string, string>) => Promise<CompletionAnswer>,
): Promise<Record<string, string> | undefined> {
  const values: Record<string, string> = { ...given };
  const missing = fields.filter((f) => values[f.name] === undefined && (all || f.required));
  for (const [i, field] of missing.entries()) {
    const value = await askField(field, vscode.l10n.t('{0} of {1}', i + 1, missing.length), (typed) => complete(field.name, typed, { ...values }));
    if (value === undefined) return undefined;
    if (value !== '') values[field.name] = value;
  }
  return values;
}
