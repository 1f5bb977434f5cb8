// Result budgets on the VS Code side: the window's store of whole results, each tool's budget from
// the settings, and the line the chat shows when a result was cut for the model.
import * as vscode from 'vscode';
import type { ServerPool } from '../../core/connection/serverPool';
import type { ModelBudget } from '../../core/chat/modelResult';
import { readResult } from '../../core/chat/readResult';
import { boundedCount, clampBudget, DEFAULT_RESULT_TOKENS, resultBudget, type ResultFit } from '../../core/chat/resultBudget';
import { ResultStore } from '../../core/chat/resultStore';
import { loadSearch } from '../../core/search/load';
import { SECTION } from '../shared/section';

/** The whole results of this window (one extension host): a handle from another window is unknown here. */
export function windowResults(): ResultStore {
  return (shared ??= new ResultStore());
}
let shared: ResultStore | undefined;

/** `mcpToolHost.chat.resultTokens`: the user's default budget. */
export function defaultResultTokens(): number {
  return clampBudget(vscode.workspace.getConfiguration(SECTION).get<number>('chat.resultTokens', DEFAULT_RESULT_TOKENS) ?? DEFAULT_RESULT_TOKENS);
}

/** Tokens by o200k_base, in bounded time whatever the text. */
export const countTokens = (text: string): number => boundedCount(text, loadSearch().textTokens);

/** A tool's budget: the server's entry or the user's default, and never more than `cap` (what the model or the chat has room for). */
export function toolBudget(pool: ServerPool, server: string, tool: string, cap?: number): number {
  const budget = resultBudget(pool.get(server)?.definition, tool, defaultResultTokens());
  return cap !== undefined && cap > 0 ? Math.min(budget, Math.max(100, Math.floor(cap))) : budget;
}

/** What a surface needs to fit one call's result and keep the whole of it. */
export function modelBudget(pool: ServerPool, target: { server: string; tool: string }, readTool: string, cap?: number): ModelBudget {
  return { budget: toolBudget(pool, target.server, target.tool, cap), count: countTokens, keep: (pieces) => windowResults().put(pieces, target), readTool };
}

/** A read of a kept result, within the budget of the tool that produced it. */
export function readKeptResult(pool: ServerPool, input: unknown, readTool: string, cap?: number): string {
  return readResult(windowResults(), input, (server, tool) => toolBudget(pool, server, tool, cap), countTokens, readTool);
}

/** The line the chat shows under a call whose result was cut for the model (Markdown). */
export function cutLine(fit: ResultFit, kept: boolean): string {
  const n = (v: number) => v.toLocaleString();
  const shown = vscode.l10n.t('The model got {0} of about {1} tokens of this result (budget {2}, `mcpToolHost.chat.resultTokens`)', n(fit.text.headTokens + fit.mediaTokens), n(fit.totalTokens), n(fit.budget));
  const rest = kept
    ? vscode.l10n.t('it can read the rest with `read_result`; the whole result is in the output channel.')
    : vscode.l10n.t('the rest is too large to keep for the model; the whole result is in the output channel.');
  return `  - ${shown}: ${rest}\n`;
}
