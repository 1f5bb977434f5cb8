import * as vscode from 'vscode';
import { LM_CALL_TOOL, LM_READ_RESOURCE_TOOL, LM_READ_RESULT_TOOL, LM_SEARCH_TOOL } from '../../core/chat/lmToolNames';
import type * as Later from './later';
import type { LmToolDeps } from './lmTools';

/**
 * Registers the language-model tools (package.json `languageModelTools`); their bodies load with
 * dist/chat.js at the first use. Registered whatever `mcpToolHost.lmTools.enabled` says: the
 * contribution's `when` hides them from chats when it is off, and a call then refuses with a sentence.
 */
export function registerLmTools(deps: LmToolDeps, later: () => typeof Later): vscode.Disposable {
  const lazy = (make: (chat: typeof Later) => vscode.LanguageModelTool<unknown>): vscode.LanguageModelTool<unknown> => {
    let tool: vscode.LanguageModelTool<unknown> | undefined;
    const get = () => (tool ??= make(later()));
    return {
      prepareInvocation: (options, token) => get().prepareInvocation?.(options, token),
      invoke: (options, token) => get().invoke(options, token),
    };
  };
  return vscode.Disposable.from(
    vscode.lm.registerTool(LM_SEARCH_TOOL, lazy((chat) => chat.searchTool(deps))),
    vscode.lm.registerTool(LM_CALL_TOOL, lazy((chat) => chat.callTool(deps))),
    vscode.lm.registerTool(LM_READ_RESOURCE_TOOL, lazy((chat) => chat.readResourceTool(deps))),
    vscode.lm.registerTool(LM_READ_RESULT_TOOL, lazy((chat) => chat.readResultTool(deps))),
  );
}
