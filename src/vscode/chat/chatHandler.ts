import type * as vscode from 'vscode';
import { answerCatalog, answerDirectCall, answerUse } from './directCommands';
import { ChatSearchIndex } from './chatToolSearch';
import { runToolLoop, type ChatDeps } from './toolLoop';

/** Routes a request: the slash commands answer directly, free text goes to the model with the tools. */
export function createChatHandler(given: ChatDeps): vscode.ChatRequestHandler {
  // One search index for the participant's life: rebuilt only when a tool list or the chat settings changed.
  const deps = { ...given, searchIndex: given.searchIndex ?? new ChatSearchIndex() };
  return async (request, context, stream, token) => {
    switch (request.command) {
      case 'servers':
      case 'tools':
        return answerCatalog(deps, request.command, stream, token);
      case 'call':
        return answerDirectCall(deps, request.prompt, stream, token);
      case 'use':
        return answerUse(deps, request.prompt, stream);
      default:
        return runToolLoop(deps, request, context, stream, token);
    }
  };
}
