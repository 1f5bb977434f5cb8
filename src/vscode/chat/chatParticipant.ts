import * as vscode from 'vscode';
import { loadChat } from '../lazy/load';
import type { ChatDeps } from './toolLoop';

/** The participant's id, as contributed in package.json (`chatParticipants`). */
export const CHAT_PARTICIPANT_ID = 'mcpToolHost.mcp';

/** Registers `@mcp`; its request handling loads with the first request. The returned disposable removes it. */
export function registerChatParticipant(deps: ChatDeps & { readonly context: vscode.ExtensionContext }): vscode.Disposable {
  let handler: vscode.ChatRequestHandler | undefined;
  const participant = vscode.chat.createChatParticipant(CHAT_PARTICIPANT_ID, (request, context, stream, token) => {
    handler ??= loadChat().createChatHandler(deps);
    return handler(request, context, stream, token);
  });
  participant.iconPath = vscode.Uri.joinPath(deps.context.extensionUri, 'media', 'mcp-chat.svg');
  return participant;
}
