import * as vscode from 'vscode';
import { parseDirectCall, parseUse } from '../../core/chat/chatCommandLine';
import { cutForModel, mdBlock, mdText } from '../../core/chat/markdown';
import { serversMarkdown, toolsMarkdown } from './catalogMarkdown';
import { waitForStartingServers } from './chatCatalog';
import { runChatCall } from './chatCallStep';
import { readChatSettings, toolEnabled } from './chatSettings';
import type { ChatDeps } from './chatDeps';
import { problemText } from '../../core/tools/schemaProblems';

/** The most of a `/call` result shown in the answer; the output channel has all of it. */
const MAX_SHOWN_CHARS = 20_000;

/** `/servers` (at once) and `/tools` (once starting servers are up, bounded): answered from the catalog, no model needed. */
export async function answerCatalog(deps: ChatDeps, command: 'servers' | 'tools', stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const settings = readChatSettings();
  if (command === 'tools') await waitForStartingServers(deps.pool, settings, token, (names) => stream.progress(vscode.l10n.t('Waiting for {0} to start...', names.join(', '))));
  const waiting = deps.waitingServers?.();
  stream.markdown(command === 'servers' ? serversMarkdown(deps.pool, settings, waiting) : toolsMarkdown(deps.pool, settings, deps.pipeline.rules, waiting));
  return { metadata: { command } };
}

/** `/call SERVER TOOL {json}`: one call through the pipeline (approval as for a click), its result shown. */
export async function answerDirectCall(deps: ChatDeps, prompt: string, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const parsed = parseDirectCall(prompt);
  if (parsed.kind === 'error') {
    stream.markdown(parsed.message);
    return { metadata: { command: 'call' } };
  }
  if (!toolEnabled(readChatSettings(), parsed.server, parsed.tool)) {
    stream.markdown(vscode.l10n.t('{0} is turned off for chat (settings `mcpToolHost.chat.enabledServers` and `mcpToolHost.chat.disabledTools`).', `${mdText(parsed.server)}/${mdText(parsed.tool)}`));
    return { metadata: { command: 'call', outcome: 'off' } };
  }
  await waitForStartingServers(deps.pool, readChatSettings(), token, (names) => stream.progress(vscode.l10n.t('Waiting for {0} to start...', names.join(', '))));
  const abort = new AbortController();
  const subscription = token.onCancellationRequested(() => abort.abort());
  try {
    const outcome = await runChatCall(deps, parsed, stream, abort.signal);
    if (outcome.kind === 'ok' || outcome.kind === 'tool-error') {
      stream.markdown(`\n${mdBlock(cutForModel(outcome.result, MAX_SHOWN_CHARS, vscode.l10n.t('the "MCP Tool Host" output channel')))}\n`);
    }
    if (outcome.kind === 'invalid-arguments') stream.markdown(`\n${outcome.problems.map((p) => `- ${mdText(problemText(p))}`).join('\n')}\n`);
    return { metadata: { command: 'call', outcome: outcome.kind } };
  } finally {
    subscription.dispose();
  }
}

/** `/use SERVER...`: later requests in this conversation prefer these servers' tools (read back from the history). */
export function answerUse(deps: ChatDeps, prompt: string, stream: vscode.ChatResponseStream): vscode.ChatResult {
  const names = parseUse(prompt);
  if (names.length === 0) {
    stream.markdown(vscode.l10n.t('No preferred server now: requests offer the tools that fit best.'));
    return { metadata: { command: 'use', servers: [] } };
  }
  const unknown = names.filter((n) => !deps.pool.get(n));
  const known = names.filter((n) => deps.pool.get(n));
  const bold = (list: readonly string[]) => list.map((n) => `**${mdText(n)}**`).join(', ');
  if (known.length) stream.markdown(vscode.l10n.t('In this conversation, requests offer the tools of {0} first.', bold(known)));
  if (unknown.length) stream.markdown(`\n\n${vscode.l10n.t('No server is named {0} (`/servers` lists them).', bold(unknown))}`);
  return { metadata: { command: 'use', servers: known } };
}
