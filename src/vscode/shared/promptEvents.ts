import * as vscode from 'vscode';

/**
 * "One of our prompts is on screen and takes answers": the approval quick-pick and the
 * workspace-server launch prompt show themselves through `show`, which fires `onDidShowPrompt`
 * with the prompt's title (after `armAfterMs` for a prompt that ignores answers before then). The
 * extension-host tests answer a prompt when it fires instead of after a guessed delay. A command
 * sent after the event reaches the workbench after the prompt: `QuickInput.show()` sends the
 * prompt at once, on the same channel as commands.
 */
export class PromptEvents implements vscode.Disposable {
  private readonly _onDidShowPrompt = new vscode.EventEmitter<string>();
  /** Fires with the title of the prompt just shown (and armed). */
  readonly onDidShowPrompt = this._onDidShowPrompt.event;
  private readonly _onDidOpenPrompt = new vscode.EventEmitter<string>();
  /** Fires with the title of the prompt the moment it is on screen, armed or not. */
  readonly onDidOpenPrompt = this._onDidOpenPrompt.event;

  private _turn: Promise<unknown> = Promise.resolve();
  /** The quick input shown last (a server's prompt whose call ended hides it: elicitationPrompt.ts). */
  lastShown: vscode.QuickInput | undefined;

  /**
   * Runs `prompt` when the prompts before it are done: approvals and a server's requests during
   * calls are shown one at a time (a quick input that opens hides the one before), each naming
   * its call. What waits outside the queue (a chat's buttons, a page being completed) holds no turn.
   */
  oneAtATime<T>(prompt: () => Promise<T>): Promise<T> {
    const mine = this._turn.then(prompt);
    this._turn = mine.catch(() => undefined);
    return mine;
  }

  /** Shows `input`, and tells the listeners once it takes answers. */
  show(input: vscode.QuickInput, armAfterMs = 0): void {
    this.lastShown = input;
    input.show();
    const title = input.title ?? '';
    this._onDidOpenPrompt.fire(title);
    if (armAfterMs > 0) setTimeout(() => this._onDidShowPrompt.fire(title), armAfterMs);
    else this._onDidShowPrompt.fire(title);
  }

  dispose(): void {
    this._onDidShowPrompt.dispose();
    this._onDidOpenPrompt.dispose();
  }
}
