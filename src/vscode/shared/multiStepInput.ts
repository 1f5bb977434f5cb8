import * as vscode from 'vscode';

/** A title-bar button of a step; `id` says what it does. */
export interface StepButton extends vscode.QuickInputButton {
  readonly id: string;
}

interface StepBase {
  readonly title: string;
  /** Shows VS Code's Back button (left of the title). */
  readonly canGoBack: boolean;
  readonly buttons: readonly StepButton[];
}

export interface InputBoxStep extends StepBase {
  readonly value: string;
  readonly prompt: string;
  readonly placeholder?: string;
  /** Checked as the user types and again on Enter; a message blocks Enter. */
  readonly validate: (text: string) => string | undefined;
  /** A problem to show before the user types (the call was refused for it). */
  readonly initialMessage?: string;
}

export interface QuickPickStep<T extends vscode.QuickPickItem> extends StepBase {
  readonly items: readonly T[];
  readonly active?: T;
  readonly placeholder: string;
}

/** How a step ended: an answer, a title-bar button (with the text typed so far), Back, or cancel. */
export type StepResult<T> =
  | { readonly kind: 'value'; readonly value: T }
  | { readonly kind: 'button'; readonly button: StepButton; readonly text: string }
  | { readonly kind: 'back' }
  | { readonly kind: 'cancel' };

/**
 * Steps of one flow in one quick-input slot, after the quickinput-sample's multi-step pattern:
 * each step replaces the previous widget (no flicker, no focus lost in between), Back is
 * VS Code's own button, and hiding the widget (Escape) cancels. The flow decides what comes
 * next; this class only shows a step and reports how it ended. Dispose it when the flow ends.
 */
export class MultiStepInput implements vscode.Disposable {
  private _current: vscode.QuickInput | undefined;

  showInputBox(step: InputBoxStep): Promise<StepResult<string>> {
    const input = vscode.window.createInputBox();
    input.title = step.title;
    input.value = step.value;
    input.valueSelection = [0, step.value.length];
    input.prompt = step.prompt;
    input.placeholder = step.placeholder;
    input.ignoreFocusOut = true;
    input.buttons = this._buttons(step);
    input.validationMessage = step.initialMessage ?? (step.value === '' ? undefined : step.validate(step.value));
    return this._show(input, (settle, disposables) => {
      disposables.push(
        input.onDidChangeValue((text) => (input.validationMessage = step.validate(text))),
        input.onDidAccept(() => {
          const message = step.validate(input.value);
          input.validationMessage = message;
          if (message === undefined) settle({ kind: 'value', value: input.value });
        }),
        input.onDidTriggerButton((b) => settle(this._buttonResult(b, input.value))),
      );
    });
  }

  showQuickPick<T extends vscode.QuickPickItem>(step: QuickPickStep<T>): Promise<StepResult<T>> {
    const pick = vscode.window.createQuickPick<T>();
    pick.title = step.title;
    pick.placeholder = step.placeholder;
    pick.ignoreFocusOut = true;
    pick.matchOnDescription = true;
    pick.buttons = this._buttons(step);
    pick.items = step.items;
    if (step.active) pick.activeItems = [step.active];
    return this._show(pick, (settle, disposables) => {
      disposables.push(
        pick.onDidAccept(() => {
          const [chosen] = pick.activeItems;
          if (chosen) settle({ kind: 'value', value: chosen });
        }),
        pick.onDidTriggerButton((b) => settle(this._buttonResult(b, pick.value))),
      );
    });
  }

  dispose(): void {
    this._current?.dispose();
    this._current = undefined;
  }

  private _buttons(step: StepBase): vscode.QuickInputButton[] {
    return [...(step.canGoBack ? [vscode.QuickInputButtons.Back] : []), ...step.buttons];
  }

  private _buttonResult<T>(button: vscode.QuickInputButton, text: string): StepResult<T> {
    return button === vscode.QuickInputButtons.Back ? { kind: 'back' } : { kind: 'button', button: button as StepButton, text };
  }

  /** Shows `input` in place of the previous step and resolves once with how it ended. */
  private async _show<T>(input: vscode.QuickInput, wire: (settle: (r: StepResult<T>) => void, disposables: vscode.Disposable[]) => void): Promise<StepResult<T>> {
    const disposables: vscode.Disposable[] = [];
    try {
      return await new Promise<StepResult<T>>((resolve) => {
        let settled = false;
        const settle = (result: StepResult<T>) => {
          if (settled) return;
          settled = true;
          // The widget stays up until the next step replaces it: no flicker. (The sample also
          // disables it meanwhile, for steps that load slowly; ours follow at once.)
          resolve(result);
        };
        wire(settle, disposables);
        disposables.push(input.onDidHide(() => settle({ kind: 'cancel' })));
        const previous = this._current;
        this._current = input;
        previous?.dispose();
        input.show();
      });
    } finally {
      for (const d of disposables) d.dispose();
    }
  }
}
