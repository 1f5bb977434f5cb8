// `@mcp /prompt` and the palette's Run Prompt...: a server's prompt, its messages shown first.
// In chat they reach the model only when the user presses Send; from the palette they open in an
// untitled Markdown document.
import * as vscode from 'vscode';
import { mdText } from '../../core/chat/markdown';
import { parsePromptLine } from '../../core/chat/promptLine';
import { byteSize, messagesForModel, planPrompt, promptHeading, promptMarkdown, type ModelPiece } from '../../core/chat/promptText';
import { loadSearch } from '../../core/search/load';
import type { ChatDeps } from './chatDeps';
import { choosePrompt, getPrompt, type ChosenPrompt } from './promptFlow';
import { capTokens, chatAttachmentCap } from './attachmentText';
import type { PromptEvents } from '../shared/promptEvents';

/** What `/prompt` did (the chat result's metadata; tests read it). */
export interface PromptMetadata {
  readonly command: 'prompt';
  readonly outcome: 'sent' | 'discarded' | 'cancelled' | 'problem' | 'failed' | 'no-model' | 'model-error';
  readonly server?: string;
  readonly prompt?: string;
}

/** The offers chat needs: without them (tests of other things), `/prompt` says it is not available. */
function offersOf(deps: ChatDeps) {
  return deps.offers && deps.confirms ? { offers: deps.offers, confirms: deps.confirms } : undefined;
}

export async function answerPrompt(deps: ChatDeps, request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const done = (outcome: PromptMetadata['outcome'], chosen?: ChosenPrompt, error?: string): vscode.ChatResult => ({
    metadata: { command: 'prompt', outcome, server: chosen?.server, prompt: chosen?.prompt.name } satisfies PromptMetadata,
    ...(error ? { errorDetails: { message: error } } : {}),
  });
  const have = offersOf(deps);
  if (!have) {
    stream.markdown(vscode.l10n.t('Prompts are not available here.'));
    return done('problem');
  }
  const line = parsePromptLine(request.prompt, deps.pool.connections.map((c) => c.name));
  if (line.kind === 'error') {
    // The message quotes only what the user typed: shown as it is.
    stream.markdown(line.message);
    return done('problem');
  }
  const prompts = have.offers.prompts();
  const choice = await choosePrompt(deps.pool, prompts, line.kind === 'named' ? { server: line.server, name: line.prompt, args: line.args } : {});
  if (choice.kind === 'cancelled') {
    stream.markdown(vscode.l10n.t('No prompt was run.'));
    return done('cancelled');
  }
  if (choice.kind === 'problem') {
    stream.markdown(mdText(choice.message));
    return done('problem');
  }
  const chosen = choice.value;
  const abort = new AbortController();
  const cancelled = token.onCancellationRequested(() => abort.abort());
  try {
    stream.progress(vscode.l10n.t('Getting the prompt {0} from {1}...', chosen.prompt.name, chosen.server));
    const outcome = await getPrompt(prompts, chosen, 'chat', abort.signal);
    if (outcome.kind === 'failed') {
      stream.markdown(vscode.l10n.t('{0} could not give the prompt: {1}', promptHeading(chosen.server, chosen.prompt), mdText(outcome.message)));
      return done('failed', chosen);
    }
    const cap = chatAttachmentCap();
    const plan = planPrompt(outcome.messages, (text) => capTokens(text, cap));
    const messages = messagesForModel(plan);
    stream.markdown(`${promptHeading(chosen.server, chosen.prompt)}: ${sizeLine(outcome.messages.length, messages.flatMap((m) => m.pieces))}\n\n`);
    stream.markdown(`${promptMarkdown(plan, outcome.description)}\n\n`);
    const send = await have.confirms.ask(stream, abort.signal);
    if (!send) {
      stream.markdown(`\n\n${vscode.l10n.t('Discarded: nothing was sent to the model.')}`);
      return done('discarded', chosen);
    }
    const model: vscode.LanguageModelChat | undefined = request.model;
    if (!model) {
      stream.markdown(`\n\n${vscode.l10n.t('No language model is available for chat. Pick one in the Chat view\'s model picker, then run the prompt again.')}`);
      return done('no-model', chosen);
    }
    stream.markdown('\n\n---\n\n');
    try {
      const chat = messages.map((m) => {
        const parts = m.pieces.map((p) => (p.kind === 'text' ? new vscode.LanguageModelTextPart(p.text) : vscode.LanguageModelDataPart.image(p.bytes, p.mimeType)));
        return m.role === 'user' ? vscode.LanguageModelChatMessage.User(parts) : vscode.LanguageModelChatMessage.Assistant(parts.filter((p) => p instanceof vscode.LanguageModelTextPart));
      });
      const response = await model.sendRequest(chat, { justification: vscode.l10n.t('Answer the prompt of an MCP server.') }, token);
      for await (const part of response.stream) if (part instanceof vscode.LanguageModelTextPart) stream.markdown(part.value);
    } catch (err) {
      if (token.isCancellationRequested) return done('cancelled', chosen);
      const message = err instanceof Error ? err.message : String(err);
      stream.markdown(`\n\n${vscode.l10n.t('The language model could not answer: {0}', mdText(message))}`);
      return done('model-error', chosen, message);
    }
    return done('sent', chosen);
  } finally {
    cancelled.dispose();
  }
}

/** What the user reads before Send: how many messages, their tokens of text, the images that go with them. */
function sizeLine(count: number, pieces: readonly ModelPiece[]): string {
  const tokens = pieces.reduce((sum, p) => sum + (p.kind === 'text' ? loadSearch().textTokens(p.text) : 0), 0).toLocaleString('en-US');
  const images = pieces.filter((p) => p.kind === 'image');
  const read = vscode.l10n.t('Read them: nothing is sent to the model until you press Send.');
  if (images.length === 0) return `${vscode.l10n.t('{0} messages, ~{1} tokens.', count, tokens)} ${read}`;
  const bytes = byteSize(images.reduce((sum, p) => sum + p.bytes.length, 0));
  return `${vscode.l10n.t('{0} messages, ~{1} tokens and {2} images ({3}).', count, tokens, images.length, bytes)} ${read}`;
}

/** A prompt's target from a Tools-view row or a command's arguments: `{server, prompt|name}` or (server, name). */
export function promptTarget(first?: unknown, second?: unknown): { server?: string; name?: string } {
  if (typeof first === 'string') return { server: first, name: typeof second === 'string' ? second : undefined };
  if (typeof first === 'object' && first !== null) {
    const row = first as { server?: unknown; prompt?: unknown; name?: unknown };
    const name = typeof row.prompt === 'string' ? row.prompt : typeof row.name === 'string' ? row.name : undefined;
    return { server: typeof row.server === 'string' ? row.server : undefined, name };
  }
  return {};
}

/** Run Prompt... (`mcpToolHost.runPrompt`): the prompt's messages in an untitled Markdown document; nothing is sent anywhere. */
export async function runPromptCommand(deps: Pick<ChatDeps, 'pool' | 'offers'> & { readonly shown?: PromptEvents }, first?: unknown, second?: unknown): Promise<vscode.TextDocument | undefined> {
  if (!deps.offers) return undefined;
  const prompts = deps.offers.prompts();
  const choice = await choosePrompt(deps.pool, prompts, promptTarget(first, second), deps.shown);
  if (choice.kind === 'cancelled') return undefined;
  if (choice.kind === 'problem') {
    void vscode.window.showErrorMessage(choice.message);
    return undefined;
  }
  const chosen = choice.value;
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Getting the prompt {0} from {1}...', chosen.prompt.name, chosen.server), cancellable: true },
    (_progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return getPrompt(prompts, chosen, 'palette', abort.signal);
    },
  );
  if (outcome.kind === 'failed') {
    void vscode.window.showErrorMessage(vscode.l10n.t('{0} could not give the prompt {1}: {2}', chosen.server, chosen.prompt.name, outcome.message));
    return undefined;
  }
  const content = `# ${promptHeading(chosen.server, chosen.prompt)}\n\n${promptMarkdown(planPrompt(outcome.messages), outcome.description)}\n`;
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content });
  await vscode.window.showTextDocument(document, { preview: false });
  return document;
}
