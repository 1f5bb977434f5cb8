import * as vscode from 'vscode';

/**
 * "One of our prompts is on screen": the approval quick-pick and the workspace-server launch prompt
 * show themselves through `show`, which fires `onDidShowPrompt` with the prompt's title. The
 * extension-host tests answer a prompt when it fires instead of after a guessed delay. A command
 * sent after the event reaches the workbench after the prompt: `QuickInput.show()` sends the
 * prompt at once, on the same channel as commands.
 */
export class PromptEvents implements vscode.Disposable {
  private readonly _onDidShowPrompt = new vscode.EventEmitter<string>();
  /** Fires with the title of the prompt just shown. */
  readonly onDidShowPrompt = this._onDidShowPrompt.event;

  /** Shows `input` and then tells the listeners. */
  show(input: vscode.QuickInput): void {
    input.show();
    this._onDidShowPrompt.fire(input.title ?? '');
  }

  dispose(): void {
    this._onDidShowPrompt.dispose();
  }
}
