import * as vscode from 'vscode';

/** The command behind a prompt's Send / Discard buttons in a chat response (arguments: the id, the choice). */
export const CONFIRM_PROMPT_COMMAND = 'mcpToolHost.chat.confirmPrompt';

/**
 * A prompt's messages wait in the chat response, shown, until the user presses Send (or Discard,
 * or the request ends): nothing reaches the model unseen. Holds state, so it lives in the
 * extension bundle; the chat bundle uses it by type, and the command table routes the buttons here.
 */
export class PromptConfirms implements vscode.Disposable {
  private readonly _waiting = new Map<string, (send: boolean) => void>();
  private _nextId = 0;

  /** Shows the buttons in `stream` and resolves with the user's choice (false when the request ends first). */
  ask(stream: vscode.ChatResponseStream, signal: AbortSignal): Promise<boolean> {
    const id = String(++this._nextId);
    stream.button({ command: CONFIRM_PROMPT_COMMAND, arguments: [id, 'send'], title: vscode.l10n.t('Send to the Model') });
    stream.button({ command: CONFIRM_PROMPT_COMMAND, arguments: [id, 'discard'], title: vscode.l10n.t('Discard') });
    return new Promise<boolean>((resolve) => {
      const ended = () => done(false);
      const done = (send: boolean) => {
        this._waiting.delete(id);
        signal.removeEventListener('abort', ended);
        resolve(send);
      };
      this._waiting.set(id, done);
      signal.addEventListener('abort', ended, { once: true });
      if (signal.aborted) done(false);
    });
  }

  /** A button pressed: `choice` is 'send' or anything else (discard). */
  choose(id: unknown, choice: unknown): void {
    const done = typeof id === 'string' ? this._waiting.get(id) : undefined;
    if (!done) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This prompt was already sent or discarded, or its chat request has ended.'));
      return;
    }
    done(choice === 'send');
  }

  dispose(): void {
    for (const done of [...this._waiting.values()]) done(false);
  }
}
