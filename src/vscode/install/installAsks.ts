import * as vscode from 'vscode';
import type { InstallInput } from '../../core/install/installPlan';
import { safeDefault } from '../../core/install/planValues';
import { sanitizeLine, visibleLine } from '../../core/render/sanitize';
import type { PromptEvents } from '../shared/promptEvents';

// The questions of an install after its plan was shown: the name, each value, the sandbox. Each
// is a quick input shown through PromptEvents (tests answer it when it shows); undefined: cancelled.

/** One line box; `check` says what is wrong with a value (shown as the user types). */
export function askText(prompts: PromptEvents, options: { title: string; prompt: string; value?: string; password?: boolean; check: (text: string) => string | undefined }): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  box.title = options.title;
  box.prompt = options.prompt;
  box.value = options.value ?? '';
  box.password = options.password ?? false;
  box.ignoreFocusOut = true;
  return new Promise<string | undefined>((resolve) => {
    box.onDidChangeValue((text) => (box.validationMessage = options.check(text)));
    box.onDidAccept(() => {
      const problem = options.check(box.value);
      if (problem !== undefined) return void (box.validationMessage = problem);
      resolve(box.value);
      box.hide();
    });
    box.onDidHide(() => resolve(undefined));
    prompts.show(box);
  }).finally(() => box.dispose());
}

/** The value of one input: a pick among its choices, or a box (a password box for a secret). */
export async function askInput(prompts: PromptEvents, server: string, input: InstallInput, step: string): Promise<string | undefined> {
  const title = vscode.l10n.t('Server "{0}" needs "{1}" ({2})', visibleLine(server), visibleLine(input.label), step);
  // The source's description of the value is its claim: shown, marked, and cut.
  const claim = input.description ? vscode.l10n.t('It says: {0}', sanitizeLine(input.description.slice(0, 300))) : '';
  const where = input.secret ? vscode.l10n.t('Kept in VS Code\'s secret storage, never in settings.') : vscode.l10n.t('Written into the server\'s entry in your user settings.');
  if (input.choices?.length) {
    type Item = vscode.QuickPickItem & { value: string };
    const qp = vscode.window.createQuickPick<Item>();
    qp.title = title;
    qp.placeholder = [claim, where].filter(Boolean).join(' ');
    qp.ignoreFocusOut = true;
    qp.items = input.choices.map((c) => ({ label: visibleLine(c), value: c }));
    const preset = qp.items.find((i) => i.value === input.default);
    if (preset) qp.activeItems = [preset];
    return new Promise<string | undefined>((resolve) => {
      qp.onDidAccept(() => {
        resolve(qp.selectedItems[0]?.value);
        qp.hide();
      });
      qp.onDidHide(() => resolve(undefined));
      prompts.show(qp);
    }).finally(() => qp.dispose());
  }
  return askText(prompts, {
    title,
    prompt: [claim, where].filter(Boolean).join(' '),
    value: input.secret ? '' : safeDefault(input),
    password: input.secret,
    check: (text) => (input.required && text.trim() === '' ? vscode.l10n.t('A value is needed: the server cannot start without it.') : undefined),
  });
}

/** Whether to run it in a sandbox: starts on the sandbox. Undefined: cancelled. */
export async function askSandbox(prompts: PromptEvents, server: string, allows: string): Promise<boolean | undefined> {
  type Item = vscode.QuickPickItem & { sandbox: boolean };
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = vscode.l10n.t('Run "{0}" in a sandbox?', visibleLine(server));
  qp.placeholder = vscode.l10n.t('This machine can sandbox a server: what it runs then reaches only what you allow');
  qp.ignoreFocusOut = true;
  const inSandbox: Item = { label: `$(lock) ${vscode.l10n.t('Run it in a sandbox')}`, detail: allows, sandbox: true };
  qp.items = [inSandbox, { label: `$(unlock) ${vscode.l10n.t('Run it without a sandbox')}`, detail: vscode.l10n.t('It can do what you can: read your files, use the network, start programs.'), sandbox: false }];
  qp.activeItems = [inSandbox];
  return new Promise<boolean | undefined>((resolve) => {
    qp.onDidAccept(() => {
      resolve(qp.selectedItems[0]?.sandbox);
      qp.hide();
    });
    qp.onDidHide(() => resolve(undefined));
    prompts.show(qp);
  }).finally(() => qp.dispose());
}
