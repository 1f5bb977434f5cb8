// The resources attached (`/resource`) in earlier turns of a conversation, given to the model again
// with each later request: from the text kept in the earlier answer's metadata, never read from the
// server again, and within the attachment cap all together.
import * as vscode from 'vscode';
import { mdCode, mdText } from '../../core/chat/markdown';
import { visibleLine } from '../../core/render/sanitize';
import { capTokens, framedAttachment } from './attachmentText';

type Turn = vscode.ChatRequestTurn | vscode.ChatResponseTurn;

/** An earlier attachment: where from, and its tokens as sent again (0 when it was not). */
export interface EarlierAttachment {
  readonly server: string;
  readonly uri: string;
  readonly tokens: number;
}

export interface EarlierAttachments {
  /** The model message each response turn's attachment comes back as. */
  readonly messages: ReadonlyMap<Turn, string>;
  readonly resent: readonly EarlierAttachment[];
  /** Attachments the cap left no room for, named to the user and the model. */
  readonly left: readonly EarlierAttachment[];
}

/** Below this many tokens left in the cap an earlier attachment is left out rather than cut to a stub. */
const LEAST_USEFUL_TOKENS = 100;

/**
 * The attachment a response turn's metadata holds. The metadata is ours, yet a chat can be saved
 * and imported again: every field is checked, and the text is counted and cut again below.
 */
function attachmentOf(turn: Turn): { server: string; uri: string; text: string } | undefined {
  if ('prompt' in turn) return undefined;
  const meta: unknown = turn.result.metadata;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const { command, outcome, attachment } = meta as Record<string, unknown>;
  if (command !== 'resource' || outcome !== 'attached' || typeof attachment !== 'object' || attachment === null) return undefined;
  const { server, uri, text } = attachment as Record<string, unknown>;
  return typeof server === 'string' && typeof uri === 'string' && typeof text === 'string' ? { server, uri, text } : undefined;
}

/** The earlier attachments, newest first, each cut to what is left of `cap` tokens. */
export function earlierAttachments(history: readonly Turn[], cap: number): EarlierAttachments {
  const messages = new Map<Turn, string>();
  const resent: EarlierAttachment[] = [];
  const left: EarlierAttachment[] = [];
  let room = cap;
  for (let i = history.length - 1; i >= 0; i--) {
    const turn = history[i];
    const found = attachmentOf(turn);
    if (!found) continue;
    if (room < LEAST_USEFUL_TOKENS) {
      left.push({ server: found.server, uri: found.uri, tokens: 0 });
      messages.set(turn, `(The user attached the MCP resource ${visibleLine(found.uri)} from the server "${visibleLine(found.server)}" earlier; it is not sent again: the attachments of this conversation passed the cap.)`);
      continue;
    }
    const capped = capTokens(found.text, room);
    room -= capped.tokens;
    resent.push({ server: found.server, uri: found.uri, tokens: capped.tokens });
    messages.set(turn, framedAttachment(found.server, found.uri, capped.text, true));
  }
  return { messages, resent, left };
}

/** What the user reads about earlier attachments that go with this request (nothing when there are none). */
export function earlierAttachmentsLine(earlier: EarlierAttachments, cap: number): string {
  const lines: string[] = [];
  for (const a of earlier.resent) lines.push(vscode.l10n.t('Sent again with this request: {0} from **{1}**, attached earlier in this conversation (~{2} tokens).', mdCode(a.uri), mdText(a.server), a.tokens.toLocaleString('en-US')));
  for (const a of earlier.left) lines.push(vscode.l10n.t('Not sent again: {0} from **{1}** (the earlier attachments passed the cap of {2} tokens, setting `mcpToolHost.chat.maxAttachmentTokens`). Attach it again with `/resource` if the model needs it.', mdCode(a.uri), mdText(a.server), cap.toLocaleString('en-US')));
  return lines.length ? `${lines.map((l) => `> ${l}`).join('\n>\n')}\n\n` : '';
}
