// `mcpToolHost_readResource` (`#mcpResource`): the model reads a resource of a hosted server in any
// chat. The read is asked for by the model, so it goes through the approval a tool call would
// (ReadRequest.byModel: open-world by default unless the server is trusted), and what comes back
// is capped like a tool's result.
import * as vscode from 'vscode';
import { LM_TOOLS_OFF_TEXT } from '../../core/chat/lmTools';
import { parseReadInput, readResultText } from '../../core/chat/resourceText';
import { shownName, visibleJson } from '../../core/render/sanitize';
import { readChatSettings, serverEnabled } from './chatSettings';
import type { LmToolDeps } from './lmTools';
import { lmToolsEnabled } from './lmToolSettings';

/** How many resources a listing gives the model: enough to choose, bounded like a search. */
const MAX_LISTED = 50;

const textResult = (text: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);

export function readResourceTool(deps: LmToolDeps): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation(options) {
      const input = parseReadInput(options.input);
      if (!input.ok) return { invocationMessage: vscode.l10n.t('Reading an MCP resource') };
      const { server, uri } = input.value;
      return uri
        ? { invocationMessage: vscode.l10n.t('Reading {0} from {1}', shownName(uri), shownName(server)), pastTenseMessage: vscode.l10n.t('Read {0} from {1}', shownName(uri), shownName(server)) }
        : { invocationMessage: vscode.l10n.t('Listing the resources of {0}', shownName(server)), pastTenseMessage: vscode.l10n.t('Listed the resources of {0}', shownName(server)) };
    },
    async invoke(options, token) {
      if (!lmToolsEnabled()) return textResult(LM_TOOLS_OFF_TEXT);
      const input = parseReadInput(options.input);
      if (!input.ok) return textResult(input.error);
      const { server, uri } = input.value;
      const connection = deps.pool.get(server);
      if (!connection || !serverEnabled(readChatSettings(), server)) return textResult(`Not read: there is no MCP server named "${server}" that chat may use.`);
      if (connection.state.kind !== 'running') return textResult(`Not read: the MCP server "${server}" is not running (${connection.state.kind}).`);
      if (!deps.offers) return textResult('Not read: resources are not available here.');
      const resources = deps.offers.resources();
      if (!uri) {
        const listed = await resources.resources(server);
        const items = listed.items.slice(0, MAX_LISTED).map((r) => ({ uri: r.uri, name: r.name, mimeType: r.mimeType, size: r.size }));
        const more = listed.items.length > MAX_LISTED ? ` (the first ${MAX_LISTED} of ${listed.items.length})` : '';
        return textResult(`Resources of "${server}"${more}; read one with {"server", "uri"}:\n${visibleJson(items)}`);
      }
      const abort = new AbortController();
      const cancelled = token.onCancellationRequested(() => abort.abort());
      try {
        const outcome = await resources.read({ server, uri, origin: 'lm-tool', byModel: true, signal: abort.signal });
        return textResult(readResultText(server, uri, outcome));
      } finally {
        cancelled.dispose();
      }
    },
  };
}
