// What a `search_tools` result carries besides the definitions it found: the other tool names of
// the servers that fit the query best, so that a model can browse when the words missed (a request
// names what a server is for in words only another of its tools uses), then ask for one by name.
// One function for every surface (chat, the gateway) and the bench, so the tokens counted are the ones sent.
import { ServerIndex } from './serverSearch';
import { listedName, type ToolHit, type ToolIndex } from './toolSearch';

/** How much a browse list may hold: server-sent names are cut and counted before a model reads them. */
export const BROWSE_LIMITS = {
  /** Servers listed. */
  servers: 3,
  /** Tool names listed per server; the rest are counted ("+12 more"). */
  toolsPerServer: 40,
} as const;

/** One server of a browse list: its name and its tools' names, both as listedName shows them. */
export interface BrowseServer {
  readonly server: string;
  readonly tools: readonly string[];
  /** Tools of the server not listed (over the cap). */
  readonly more: number;
}

/** A search's hits and the browse list that goes with them. */
export interface BrowseResult {
  readonly hits: ToolHit[];
  readonly browse: BrowseServer[];
}

/** One server index per tool index: built from the same list, at the first browse. */
const serverIndexes = new WeakMap<ToolIndex, ServerIndex>();

/**
 * Searches `index` and lists the tools of the `servers` best servers for `query` that are not among
 * the hits (a server left with none is not listed). No list when the query was a tool's exact name:
 * the model already knows what it wants. Only tools of `index` can be listed, so what the user
 * turned off (left out of the index) never is.
 */
export function searchAndBrowse(index: ToolIndex, query: string, limit: number, servers: number = BROWSE_LIMITS.servers): BrowseResult {
  const hits = index.search(query, limit);
  if (hits[0]?.exact || servers <= 0) return { hits, browse: [] };
  let serverIndex = serverIndexes.get(index);
  if (!serverIndex) serverIndexes.set(index, (serverIndex = new ServerIndex(index.tools)));
  const found = new Set(hits.map((h) => `${h.server}\u0000${h.tool}`));
  const browse: BrowseServer[] = [];
  for (const best of serverIndex.search(query, Math.min(servers, BROWSE_LIMITS.servers))) {
    const rest = best.tools.filter((tool) => !found.has(`${best.server}\u0000${tool}`));
    if (rest.length === 0) continue;
    const shown = rest.slice(0, BROWSE_LIMITS.toolsPerServer);
    browse.push({ server: listedName(best.server), tools: shown.map(listedName), more: rest.length - shown.length });
  }
  return { hits, browse };
}

/** The list as a model reads it: one line a server, "server: a, b, c (+4 more)"; '' when empty. */
export function browseText(browse: readonly BrowseServer[]): string {
  return browse.map((s) => `${s.server}: ${s.tools.join(', ')}${s.more > 0 ? ` (+${s.more} more)` : ''}`).join('\n');
}
