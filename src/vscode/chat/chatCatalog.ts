import type * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerPool } from '../../core/connection/serverPool';
import type { ServerConnection } from '../../core/connection/serverConnection';
import { ServerState } from '../../core/connection/serverState';
import { displayName, type EffectiveAnnotations } from '../../core/tools/annotations';
import { toolAnnotations, type ApprovalRules } from '../../core/policy/approvalPolicy';
import type { BudgetCandidate } from '../../core/chat/toolBudget';
import { serverEnabled, toolEnabled, type ChatSettings } from './chatSettings';

/** One tool chat may offer: its server, its definition, and what it may do. */
export interface ChatTool extends BudgetCandidate {
  readonly definition: Tool;
  readonly annotations: EffectiveAnnotations;
}

/** What chat can use right now: the tools of running, enabled servers, and the servers that are down. */
export interface ChatCatalog {
  readonly tools: readonly ChatTool[];
  /** Enabled servers that are not running, with their state in words. */
  readonly down: readonly { readonly server: string; readonly state: string }[];
  /** Servers turned off for chat by `mcpToolHost.chat.enabledServers`. */
  readonly disabledServers: readonly string[];
  /** The tool lists `tools` came from, as the pool holds them (their identity tells a search index it is current). */
  readonly lists: readonly { readonly server: string; readonly tools: readonly Tool[] }[];
}

/** How long a request waits for servers that are still starting (the first request after activation). */
export const STARTING_WAIT_MS = 15_000;
/** How long it then waits for a running server's first tool list (a server may have none at all). */
export const LISTING_WAIT_MS = 3_000;

/** A server is "running" before its tools are listed: its tools are the cached ones, or none yet. */
const listing = (c: ServerConnection) => c.state.kind === 'running' && (c.toolsFromCache || (c.tools.length === 0 && !!c.state.capabilities?.tools));

/** Waits (bounded) until no enabled server is starting or listing its tools, reporting which ones it waits for. */
export async function waitForStartingServers(pool: ServerPool, settings: ChatSettings, token: vscode.CancellationToken, report: (names: string[]) => void): Promise<void> {
  const enabled = () => pool.connections.filter((c) => serverEnabled(settings, c.name));
  const starting = () => enabled().filter((c) => c.state.kind === 'starting');
  const end = Date.now() + STARTING_WAIT_MS;
  let listingEnd: number | undefined;
  let reported = false;
  for (;;) {
    if (token.isCancellationRequested || Date.now() > end) return;
    const waiting = starting();
    if (waiting.length === 0) {
      listingEnd ??= Date.now() + LISTING_WAIT_MS;
      const stillListing = enabled().filter(listing);
      if (stillListing.length === 0 || Date.now() > listingEnd) return;
      waiting.push(...stillListing);
    }
    if (!reported) report(waiting.map((c) => c.name));
    reported = true;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function chatCatalog(pool: ServerPool, settings: ChatSettings, rules?: ApprovalRules): ChatCatalog {
  const tools: ChatTool[] = [];
  const down: { server: string; state: string }[] = [];
  const disabledServers: string[] = [];
  const lists: { server: string; tools: readonly Tool[] }[] = [];
  for (const c of pool.connections) {
    if (!serverEnabled(settings, c.name)) {
      disabledServers.push(c.name);
      continue;
    }
    if (!ServerState.isRunning(c.state)) {
      down.push({ server: c.name, state: ServerState.label(c.state) });
      continue;
    }
    tools.push(...toolsOf(c, settings, rules));
    lists.push({ server: c.name, tools: c.tools });
  }
  return { tools, down, disabledServers, lists };
}

function toolsOf(c: ServerConnection, settings: ChatSettings, rules: ApprovalRules | undefined): ChatTool[] {
  return c.tools
    .filter((t) => toolEnabled(settings, c.name, t.name))
    .map((t) => ({ server: c.name, tool: t.name, title: displayName(t), description: t.description, definition: t, annotations: toolAnnotations(rules, c.name, t, c.definition.trustAnnotations) }));
}
