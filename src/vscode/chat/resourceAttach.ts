// `@mcp /resource`: a resource picked (or a template filled field by field), read, and attached to
// the request the model gets, with its size and token count shown and a cap on the tokens.
import * as vscode from 'vscode';
import { mdCode, mdText } from '../../core/chat/markdown';
import { byteSize } from '../../core/chat/promptText';
import { partsText } from '../../core/chat/resourceText';
import type { PromptOffers, ResourceOffers, TemplateEntry } from '../../core/offers/offerTypes';
import { sanitizeLine, shownName } from '../../core/render/sanitize';
import { capTokens, chatAttachmentCap, framedAttachment } from './attachmentText';
import type { ChatDeps } from './chatDeps';
import { readChatSettings, serverEnabled } from './chatSettings';
import { askFields } from './offerInput';
import { pickOfferServer } from '../resources/pickOffer';
import { runToolLoop } from './toolLoop';

/** An attachment as the model gets it, and what the user is told of it. */
export interface Attachment {
  readonly server: string;
  readonly uri: string;
  readonly bytes: number;
  readonly tokens: number;
  /** The tokens before the cut, when the cap cut it. */
  readonly tokensBefore?: number;
  readonly text: string;
}

/**
 * What `/resource` did. VS Code keeps it with the response and hands it back in later requests'
 * history: the attachment's text (already cut to the cap) rides along, so later turns of the
 * conversation give the model the same resource without reading the server again.
 */
export interface ResourceMetadata {
  readonly command: 'resource';
  readonly outcome: 'attached' | 'cancelled' | 'problem' | 'denied' | 'failed';
  readonly attachment?: Attachment;
}

/** The line the user reads about an attachment: where from, bytes, tokens, the cut. */
export function attachmentLine(a: Omit<Attachment, 'text'>, cap: number): string {
  const what = vscode.l10n.t('Attached {0} from **{1}**: {2}, ~{3} tokens (o200k_base)', mdCode(a.uri), mdText(a.server), byteSize(a.bytes), a.tokens.toLocaleString('en-US'));
  const cut = a.tokensBefore !== undefined ? ` ${vscode.l10n.t('(cut from ~{0} tokens to the cap of {1}: setting `mcpToolHost.chat.maxAttachmentTokens`)', a.tokensBefore.toLocaleString('en-US'), cap.toLocaleString('en-US'))}` : '';
  return `> ${what}${cut}`;
}

/** `SERVER URI question...` when the line starts with a server's name and a URI; else the whole line is the question and the resource is picked. */
function resourceLine(text: string, servers: readonly string[]): { server?: string; uri?: string; question: string } {
  const match = /^\s*(\S+)\s+(\S+:\S*)\s*([\s\S]*)$/.exec(text);
  if (match && servers.includes(match[1])) return { server: match[1], uri: match[2], question: match[3] };
  return { question: text.trim() };
}

/** A resource or a filled template's URI, picked from the server's listings. */
async function pickResource(resources: ResourceOffers, prompts: PromptOffers, server: string): Promise<string | undefined> {
  const [listed, templates] = await Promise.all([resources.resources(server), resources.templates(server)]);
  type Item = vscode.QuickPickItem & { uri?: string; template?: TemplateEntry };
  const items: Item[] = [
    ...listed.items.map((r) => ({ label: sanitizeLine(r.title ?? r.name), description: sanitizeLine(r.uri), detail: r.size !== undefined ? byteSize(r.size) : undefined, uri: r.uri })),
    ...templates.items.map((t) => ({ label: sanitizeLine(t.title ?? t.name), description: sanitizeLine(t.uriTemplate), detail: vscode.l10n.t('template: fill in {0}', t.variables.join(', ')), template: t })),
  ];
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Attach a Resource: {0}', shownName(server)), placeHolder: vscode.l10n.t('Pick a resource'), matchOnDescription: true });
  if (!picked) return undefined;
  if (picked.uri) return picked.uri;
  const template = picked.template!;
  const fields = template.variables.map((name) => ({ name, required: true }));
  const values = await askFields(fields, {}, true, (name, value, context, signal) => prompts.complete({ server, ref: { type: 'ref/resource', uri: template.uriTemplate }, argument: { name, value }, context, signal }));
  if (!values) return undefined;
  const expanded = resources.expand(template, values);
  if ('problem' in expanded) {
    void vscode.window.showErrorMessage(expanded.problem);
    return undefined;
  }
  return expanded.uri;
}

export async function answerResource(deps: ChatDeps, request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const done = (outcome: ResourceMetadata['outcome'], attachment?: Attachment): vscode.ChatResult => ({
    metadata: { command: 'resource', outcome, attachment } satisfies ResourceMetadata,
  });
  if (!deps.offers) {
    stream.markdown(vscode.l10n.t('Resources are not available here.'));
    return done('problem');
  }
  const resources = deps.offers.resources();
  const line = resourceLine(request.prompt, deps.pool.connections.map((c) => c.name));
  const server = line.server ?? (await pickOfferServer(deps.pool, 'resources', vscode.l10n.t('Attach a Resource')));
  if (!server) return done('cancelled');
  if (!serverEnabled(readChatSettings(), server)) {
    stream.markdown(vscode.l10n.t('**{0}** is turned off for chat (setting `mcpToolHost.chat.enabledServers`).', mdText(server)));
    return done('problem');
  }
  const uri = line.uri ?? (await pickResource(resources, deps.offers.prompts(), server));
  if (!uri) {
    stream.markdown(vscode.l10n.t('No resource was attached.'));
    return done('cancelled');
  }
  const abort = new AbortController();
  const cancelled = token.onCancellationRequested(() => abort.abort());
  let attachment: Attachment;
  try {
    stream.progress(vscode.l10n.t('Reading {0} from {1}...', uri, server));
    const outcome = await resources.read({ server, uri, origin: 'chat', signal: abort.signal });
    if (outcome.kind !== 'ok') {
      stream.markdown(vscode.l10n.t('Could not read {0} from **{1}**: {2}', mdCode(uri), mdText(server), mdText(outcome.message)));
      return done(outcome.kind);
    }
    const cap = chatAttachmentCap();
    const capped = capTokens(partsText(outcome.parts), cap);
    attachment = { server, uri, bytes: outcome.bytes, ...capped };
    stream.markdown(`${attachmentLine(attachment, cap)}\n\n`);
  } finally {
    cancelled.dispose();
  }
  const question = line.question || 'The user attached this resource without a question: say in a few lines what it holds.';
  const framed = framedAttachment(attachment.server, attachment.uri, attachment.text, false);
  const result = await runToolLoop(deps, { ...request, prompt: question } as vscode.ChatRequest, context, stream, token, [framed]);
  return { ...result, metadata: { ...(result.metadata ?? {}), ...done('attached', attachment).metadata } };
}
