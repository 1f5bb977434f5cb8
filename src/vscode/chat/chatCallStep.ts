import * as vscode from 'vscode';
import { interfaceWanted } from '../apps/interfaceWanted';
import type { CallOutcome } from '../../core/calls/callPipeline';
import { callLine } from '../../core/chat/callReport';
import { budgetedResultText, type ModelBudget } from '../../core/chat/modelResult';
import { cutLine } from './resultBudgets';
import { shortArgs } from '../../core/chat/markdown';
import { shownName } from '../../core/render/sanitize';
import type { ChatDeps } from './chatDeps';

/** How one tool call of a chat request ended (the chat result's metadata lists them, tests read it). */
export interface ChatCallRecord {
  readonly server: string;
  readonly tool: string;
  readonly modelName: string;
  readonly outcome: CallOutcome['kind'] | 'refused' | 'unknown-tool';
}

/** Runs one call through the pipeline (origin "chat"), showing it as it happens. */
export async function runChatCall(
  deps: ChatDeps,
  target: { server: string; tool: string; args: Record<string, unknown> },
  stream: vscode.ChatResponseStream,
  signal: AbortSignal,
): Promise<CallOutcome> {
  const label = `${shownName(target.server)} › ${shownName(target.tool)}`;
  stream.progress(vscode.l10n.t('Calling {0} {1}', label, shortArgs(target.args, 60)));
  // A tool with its own interface (MCP Apps): opened beside the chat (VS Code gives extensions no
  // inline webview in a chat response), fed the arguments and the result.
  const withInterface = deps.openInterface !== undefined && interfaceWanted(deps.pool, target.server, target.tool);
  const toInterface = deps.openInterface && withInterface ? deps.openInterface({ ...target, fromChat: true }) : undefined;
  const call = () =>
    deps.pipeline.call({
      ...target,
      origin: 'chat',
      keepRaw: withInterface,
      signal,
      onProgress: (p) => stream.progress(`${label}: ${p.message ?? (p.total ? vscode.l10n.t('{0} of {1}', p.progress, p.total) : String(p.progress))}`),
    });
  // A server that asks for input during this call asks in this chat response (chatAsks.ts).
  const outcome = await (deps.asks ? deps.asks.during(target, stream, signal, call) : call());
  stream.markdown(callLine(target.server, target.tool, target.args, outcome));
  if (toInterface) {
    void toInterface.then((send) => send?.(outcome));
    stream.button({ command: 'mcpToolHost.openInterface', title: vscode.l10n.t('Open Interface'), arguments: [{ server: target.server, tool: target.tool }] });
  }
  return outcome;
}

/** The result part the model gets for a call, whatever happened to it. */
export function resultPart(callId: string, text: string): vscode.LanguageModelToolResultPart {
  return new vscode.LanguageModelToolResultPart(callId, [new vscode.LanguageModelTextPart(text)]);
}

/** The model's part for a call's outcome, its result within the budget; under the call, the chat says when it was cut. */
export function outcomePart(callId: string, outcome: CallOutcome, budget: ModelBudget, stream: vscode.ChatResponseStream): { part: vscode.LanguageModelToolResultPart; cut: boolean } {
  const answer = budgetedResultText(outcome, budget);
  if (answer.fit?.cut) stream.markdown(cutLine(answer.fit, answer.handle !== undefined));
  return { part: resultPart(callId, answer.text), cut: answer.handle !== undefined };
}

/** Tool input from a model is usually an object; anything else is passed as no arguments (the schema check reports it). */
export function asArguments(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}
