// The hosted tools in every chat (VS Code language-model tools): the search and
// call tools' bodies, loaded with dist/chat.js at their first use (lmToolRegistration.ts registers them).
import * as vscode from 'vscode';
import type { CallPipeline } from '../../core/calls/callPipeline';
import type { CallOutcome } from '../../core/calls/callPipeline';
import { budgetedResultText } from '../../core/chat/modelResult';
import { LM_READ_RESULT_TOOL } from '../../core/chat/lmToolNames';
import { interfaceWanted } from '../apps/interfaceWanted';
import { modelBudget, readKeptResult } from './resultBudgets';
import {
  callInvocationParts,
  LM_TOOLS_OFF_TEXT,
  parseCallInput,
  parseSearchInput,
  searchInvocationQuery,
  toolDefinitionText,
  searchResultText,
  serverDownText,
  unreachableText,
} from '../../core/chat/lmTools';
import type { ServerPool } from '../../core/connection/serverPool';
import { chatCatalog, waitForStartingServers, type ChatCatalog } from './chatCatalog';
import { readChatSettings, type ChatSettings } from './chatSettings';
import { chatSearchIndex } from './chatToolSearch';
import { loadSearch } from '../../core/search/load';
import { lmToolsEnabled } from './lmToolSettings';
import type { SharedOffers } from '../shared/sharedOffers';

export interface LmToolDeps {
  readonly pool: ServerPool;
  readonly pipeline: CallPipeline;
  /** Resources for `#mcpResource`. */
  readonly offers?: SharedOffers;
  /** Opens a called tool's interface (MCP Apps), as a call from the Tools view or `@mcp` does. */
  readonly openInterface?: (call: { server: string; tool: string; args: Record<string, unknown>; fromChat: true }) => Promise<((outcome: CallOutcome) => void) | undefined>;
}

const textResult = (text: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);

/** What chat may use now, after waiting (bounded) for servers still starting: the same catalogue, settings and limits as `@mcp`. */
async function catalogNow(deps: LmToolDeps, token: vscode.CancellationToken): Promise<{ catalog: ChatCatalog; settings: ChatSettings }> {
  const settings = readChatSettings();
  await waitForStartingServers(deps.pool, settings, token, () => undefined);
  return { catalog: chatCatalog(deps.pool, settings, deps.pipeline.rules), settings };
}

/** `mcpToolHost_searchTools`: matching tools of running, enabled servers, with what a call needs. Disabled ones are never searched. */
export function searchTool(deps: LmToolDeps): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation(options) {
      const input = parseSearchInput(options.input);
      if (!input.ok) return { invocationMessage: vscode.l10n.t('Searching the hosted MCP tools') };
      const query = searchInvocationQuery(input.value);
      return {
        invocationMessage: new vscode.MarkdownString(vscode.l10n.t('Searching the hosted MCP tools for {0}', query)),
        pastTenseMessage: new vscode.MarkdownString(vscode.l10n.t('Searched the hosted MCP tools for {0}', query)),
      };
    },
    async invoke(options, token) {
      if (!lmToolsEnabled()) return textResult(LM_TOOLS_OFF_TEXT);
      const input = parseSearchInput(options.input);
      if (!input.ok) return textResult(input.error);
      const { catalog, settings } = await catalogNow(deps, token);
      // Only catalogue tools come back (ChatSearchIndex.find): a disabled tool is never revealed.
      const { found, browse } = chatSearchIndex().find(catalog, settings, input.value.query, input.value.limit);
      return textResult(searchResultText(input.value.query, found, { down: catalog.down.map((d) => d.server) }, loadSearch().browseText(browse)));
    },
  };
}

/**
 * `mcpToolHost_callTool`: one call through the CallPipeline with origin 'lm-tool' (our approval,
 * argument rules, rate limit, audit, sanitised result). VS Code is not asked to confirm as well:
 * its confirmation is one for every hosted tool and can be auto-approved, so ours must ask anyway,
 * and asking twice would teach people to click through (docs/chat.md "In every chat").
 */
export function callTool(deps: LmToolDeps): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation(options) {
      const input = parseCallInput(options.input);
      if (!input.ok) return { invocationMessage: vscode.l10n.t('Calling a hosted MCP tool') };
      const { tool, server, args } = callInvocationParts(input.value);
      return {
        invocationMessage: new vscode.MarkdownString(vscode.l10n.t('Calling {0} on {1} {2}', tool, server, args)),
        pastTenseMessage: new vscode.MarkdownString(vscode.l10n.t('Called {0} on {1} {2}', tool, server, args)),
      };
    },
    async invoke(options, token) {
      if (!lmToolsEnabled()) return textResult(LM_TOOLS_OFF_TEXT);
      const input = parseCallInput(options.input);
      if (!input.ok) return textResult(input.error);
      const { server, tool, args } = input.value;
      const { catalog } = await catalogNow(deps, token);
      // Found once: a chat's catalogue may hold thousands of tools, and the definition is wanted again below.
      const found = catalog.tools.find((t) => t.server === server && t.tool === tool);
      if (!found) {
        const down = catalog.down.find((d) => d.server === server);
        return textResult(down ? serverDownText(server, down.state) : unreachableText(server, tool));
      }
      const abort = new AbortController();
      const cancelled = token.onCancellationRequested(() => abort.abort());
      // A tool with its own interface (MCP Apps) opens it beside the chat, fed the arguments and the result.
      const withInterface = deps.openInterface !== undefined && interfaceWanted(deps.pool, server, tool);
      const toInterface = deps.openInterface && withInterface ? deps.openInterface({ server, tool, args, fromChat: true }) : undefined;
      try {
        const outcome = await deps.pipeline.call({ server, tool, args, origin: 'lm-tool', signal: abort.signal, keepRaw: withInterface });
        if (toInterface) void toInterface.then((send) => send?.(outcome));
        // The chat's own budget for a tool's output, when it gives one, caps ours.
        const answer = budgetedResultText(outcome, modelBudget(deps.pool, { server, tool }, LM_READ_RESULT_TOOL, options.tokenizationOptions?.tokenBudget));
        // Arguments that miss the schema get the definition again: the search that found the tool may be rounds behind.
        return textResult(outcome.kind === 'invalid-arguments' ? `${answer.text}\n\n${toolDefinitionText(found)}` : answer.text);
      } finally {
        cancelled.dispose();
      }
    },
  };
}

/** `mcpToolHost_readResult`: more of a result `mcpToolHost_callTool` cut to its budget, a page or a search. */
export function readResultTool(deps: LmToolDeps): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation(options) {
      const input = (typeof options.input === 'object' && options.input !== null ? options.input : {}) as { pattern?: unknown; offset?: unknown };
      const message = typeof input.pattern === 'string'
        ? vscode.l10n.t('Searching a cut MCP tool result for {0}', searchInvocationQuery({ query: input.pattern, limit: 1 }))
        : vscode.l10n.t('Reading a cut MCP tool result from offset {0}', String(typeof input.offset === 'number' ? input.offset : 0));
      return { invocationMessage: new vscode.MarkdownString(message) };
    },
    invoke(options) {
      if (!lmToolsEnabled()) return textResult(LM_TOOLS_OFF_TEXT);
      return textResult(readKeptResult(deps.pool, options.input, LM_READ_RESULT_TOOL, options.tokenizationOptions?.tokenBudget));
    },
  };
}
