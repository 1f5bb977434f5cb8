import * as vscode from 'vscode';
import type * as Later from './later';
import type { ChatDeps } from './chatDeps';

/** The participant's id, as contributed in package.json (`chatParticipants`). */
export const CHAT_PARTICIPANT_ID = 'mcpToolHost.mcp';

/** Registers `@mcp`; its request handling loads with the first request. The returned disposable removes it. */
export function registerChatParticipant(deps: ChatDeps & { readonly context: vscode.ExtensionContext }, later: () => typeof Later): vscode.Disposable {
  let handler: vscode.ChatRequestHandler | undefined;
  const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, (request, context, stream, token) => {
    handler ??= later().createChatHandler(deps);
    return handler(request, context, stream, token);
  });
  participant.iconPath = vscode.Uri.joinPath(deps.context.extensionUri, 'media', 'mcp-chat.svg');
  return participant;
}
