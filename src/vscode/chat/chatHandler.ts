import type * as vscode from 'vscode';
import { answerCatalog, answerDirectCall, answerUse } from './directCommands';
import type { ChatDeps } from './chatDeps';
import { runToolLoop } from './toolLoop';
import { answerPrompt } from './promptCommands';
import { answerResource } from './resourceAttach';

/** Routes a request: the slash commands answer directly (`/prompt` and `/resource` then ask the model), free text goes to the model with the tools. */
export function createChatHandler(deps: ChatDeps): vscode.ChatRequestHandler {
  return async (request, context, stream, token) => {
    switch (request.command) {
      case 'servers':
      case 'tools':
        return answerCatalog(deps, request.command, stream, token);
      case 'call':
        return answerDirectCall(deps, request.prompt, stream, token);
      case 'use':
        return answerUse(deps, request.prompt, stream);
      case 'prompt':
        return answerPrompt(deps, request, stream, token);
      case 'resource':
        return answerResource(deps, request, context, stream, token);
      default:
        return runToolLoop(deps, request, context, stream, token);
    }
  };
}
