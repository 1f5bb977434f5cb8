import * as vscode from 'vscode';
import { mdCode, mdText } from '../../core/chat/markdown';
import type { FormRequest } from '../../core/elicitation/formElicitation';
import type { UrlRequest } from '../../core/elicitation/urlElicitation';

/** The command behind the chat's Answer… / Decline buttons (arguments: the ask's id, the choice). */
export const ANSWER_ELICITATION_COMMAND = 'mcpToolHost.answerElicitation';

/** What the user chose in the chat: answer (the quick-input form or link consent follows), decline, or nothing (cancelled). */
export type ChatChoice = 'answer' | 'decline' | 'cancel';

interface ChatCall {
  readonly server: string;
  readonly tool: string;
  readonly stream: vscode.ChatResponseStream;
  readonly signal: AbortSignal;
}

/**
 * Elicitation in chat: while `@mcp` runs a call, a server's request during that call appears in
 * the chat response (who asks, during which call, why) with Answer… and Decline buttons, and
 * waits for the user there instead of opening a prompt unasked. Lives in the extension bundle
 * (it holds state); the chat and forms bundles use it by type.
 */
export class ChatAsks implements vscode.Disposable {
  private readonly _calls = new Set<ChatCall>();
  private readonly _waiting = new Map<string, (choice: ChatChoice) => void>();
  private _nextId = 0;
  private readonly _command = vscode.commands.registerCommand(ANSWER_ELICITATION_COMMAND, (id: unknown, choice: unknown) => this._choose(id, choice));

  /** Runs `work` (a call from chat); a request from `call.server` during `call.tool` is shown in `stream`. */
  async during<T>(call: { server: string; tool: string }, stream: vscode.ChatResponseStream, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const entry = { ...call, stream, signal };
    this._calls.add(entry);
    try {
      return await work();
    } finally {
      this._calls.delete(entry);
    }
  }

  /** Shows `request` in the chat of the call it belongs to and waits for a button; undefined when no chat call asks. */
  ask(request: FormRequest | UrlRequest): Promise<ChatChoice> | undefined {
    const call = [...this._calls].find((c) => c.server === request.server && request.calls?.includes(c.tool));
    if (!call) return undefined;
    const id = String(++this._nextId);
    call.stream.markdown(`\n\n${describe(request, call.tool)}\n\n`);
    const answer = request.mode === 'url' ? vscode.l10n.t('Review the link…') : vscode.l10n.t('Answer…');
    call.stream.button({ command: ANSWER_ELICITATION_COMMAND, arguments: [id, 'answer'], title: answer });
    call.stream.button({ command: ANSWER_ELICITATION_COMMAND, arguments: [id, 'decline'], title: vscode.l10n.t('Decline') });
    // The chat's request, or the server's call, ended (timed out, cancelled, the server stopped): the buttons no longer answer anything.
    const ended = request.callsEnded ? AbortSignal.any([call.signal, request.callsEnded]) : call.signal;
    return new Promise<ChatChoice>((resolve) => {
      const cancelled = () => {
        // The server took its question back while the call goes on: the buttons above no longer answer it.
        if (request.callsEnded?.reason === 'withdrawn') call.stream.markdown(`\n\n> ${vscode.l10n.t('**{0}** withdrew its question: nothing was sent back.', mdText(request.server))}\n\n`);
        done('cancel');
      };
      const done = (choice: ChatChoice) => {
        this._waiting.delete(id);
        ended.removeEventListener('abort', cancelled);
        resolve(choice);
      };
      this._waiting.set(id, done);
      ended.addEventListener('abort', cancelled, { once: true });
      if (ended.aborted) done('cancel');
    });
  }

  private _choose(id: unknown, choice: unknown): void {
    const done = typeof id === 'string' ? this._waiting.get(id) : undefined;
    if (!done) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This request was already answered, or its call has ended.'));
      return;
    }
    done(choice === 'answer' ? 'answer' : 'decline');
  }

  dispose(): void {
    for (const done of [...this._waiting.values()]) done('cancel');
    this._command.dispose();
  }
}

/** Who asks, during which call, why; for a link its domain and the whole URL. */
function describe(request: FormRequest | UrlRequest, tool: string): string {
  const who = `**${mdText(request.server)}**`;
  const message = mdText(request.message.slice(0, 300)) || vscode.l10n.t('(no message)');
  if (request.mode !== 'url') {
    const secret = request.fields.some((f) => f.secret) ? `\n>\n> ⚠ ${vscode.l10n.t('Some fields look like a password, token or key: do not type secrets into a server\'s form.')}` : '';
    return `> ${vscode.l10n.t('{0} asks for input during its call {1}: {2}', who, mdCode(tool), message)}${secret}`;
  }
  const link = request.link.kind === 'offered' ? request.link : undefined;
  // The site first (the registrable domain: linkCheck.ts), then the whole host when it says more, then the URL.
  const host = link && link.domain !== link.site ? ` (${vscode.l10n.t('host {0}', mdText(link.domain))})` : '';
  const where = link ? `\n>\n> ${vscode.l10n.t('Site: {0}', `**${mdText(link.site)}**`)}${host}\n>\n> ${mdCode(link.url)}` : '';
  return `> ${vscode.l10n.t('{0} asks you to open a link during its call {1}: {2}', who, mdCode(tool), message)}${where}`;
}
