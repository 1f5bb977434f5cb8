import type { ChatToolRef } from './modelToolNames';

/** VS Code's limit on the tools of one request (and what most models accept). */
export const MAX_CHAT_TOOLS = 128;

/** A tool that could be offered, with the words a person would use for it. */
export interface BudgetCandidate extends ChatToolRef {
  readonly title?: string;
  readonly description?: string;
}

export interface BudgetChoice<T extends BudgetCandidate> {
  /** The tools offered, in the order given (not ranked), at most `max`. */
  readonly selected: readonly T[];
  /** The tools that did not fit, in the order given. */
  readonly leftOut: readonly T[];
  /** Why the selection preferred some tools: servers and tools the user named. */
  readonly preferred: { readonly servers: readonly string[]; readonly tools: readonly string[] };
}

const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'that', 'this', 'from', 'into', 'what', 'which', 'does', 'are', 'you', 'use', 'its', 'can', 'please', 'tool', 'tools', 'all', 'any', 'one', 'not']);

/** Lower-case words of three letters or more, snake_case and camelCase split, stop words out. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3 && !STOP_WORDS.has(w));
}

/** Whether `name` appears in `text` as a whole word (case-insensitive). */
export function mentions(text: string, name: string): boolean {
  if (!name) return false;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w])${escaped}($|[^\\w])`, 'i').test(text);
}

/**
 * Picks at most `max` tools for one chat request. All of them when they fit. Otherwise, first
 * the tools of servers pinned with `/use` or named in the prompt, and tools named in the prompt;
 * then the rest by relevance: how many of the prompt's words appear in the tool's name, title and
 * description (ties keep the given order). The chosen tools keep the given order.
 */
export function selectTools<T extends BudgetCandidate>(candidates: readonly T[], options: { prompt: string; pinnedServers?: readonly string[]; max?: number }): BudgetChoice<T> {
  const max = options.max ?? MAX_CHAT_TOOLS;
  const servers = [...new Set(candidates.map((c) => c.server))];
  const named = new Set([...(options.pinnedServers ?? []).filter((s) => servers.includes(s)), ...servers.filter((s) => mentions(options.prompt, s))]);
  const namedTools = new Set(candidates.filter((c) => mentions(options.prompt, c.tool)).map((c) => c.tool));
  const preferred = { servers: [...named], tools: [...namedTools] };
  if (candidates.length <= max) return { selected: candidates, leftOut: [], preferred };

  const promptWords = new Set(words(options.prompt));
  const score = (c: T) => {
    const own = new Set(words(`${c.tool} ${c.title ?? ''} ${c.description ?? ''}`));
    let overlap = 0;
    for (const w of promptWords) if (own.has(w)) overlap++;
    return (namedTools.has(c.tool) ? 2000 : 0) + (named.has(c.server) ? 1000 : 0) + overlap;
  };
  const ranked = candidates.map((c, index) => ({ c, index, score: score(c) })).sort((a, b) => b.score - a.score || a.index - b.index);
  const keep = new Set(ranked.slice(0, max).map((r) => r.index));
  return {
    selected: candidates.filter((_, i) => keep.has(i)),
    leftOut: candidates.filter((_, i) => !keep.has(i)),
    preferred,
  };
}

/**
 * The tools the user named, for a request that searches the rest: the tools of servers
 * pinned with `/use` or named in the prompt, and tools named in the prompt, at most `max` (the
 * most relevant of them when more). Nothing else: the model finds other tools by searching.
 */
export function namedTools<T extends BudgetCandidate>(candidates: readonly T[], options: { prompt: string; pinnedServers?: readonly string[]; max?: number }): BudgetChoice<T> {
  const { preferred } = selectTools(candidates, { ...options, max: Number.POSITIVE_INFINITY });
  const chosen = candidates.filter((c) => preferred.servers.includes(c.server) || preferred.tools.includes(c.tool));
  const { selected, leftOut } = selectTools(chosen, options);
  return { selected, leftOut, preferred };
}
