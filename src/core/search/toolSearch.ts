// Full-text search over tool definitions: what `search_tools` in @mcp and the
// language-model search tool answer with. Loaded through loadSearch() (src/core/search/load.ts):
// minisearch stays out of dist/extension.js.
import type { Tool } from '@modelcontextprotocol/client';
import { sanitizeLine } from '../render/sanitize';
import { memoSearchTerm, queryTerms, queryWords, searchTerm, splitWords, SYNONYM_WEIGHT } from './searchWords';
import { TermIndex, type QueryTerm } from './termIndex';

/** A tool that search may find: its server, its name, and the words it is found by. */
export interface SearchableTool {
  readonly server: string;
  readonly tool: string;
  readonly title?: string;
  readonly description?: string;
  readonly definition: Tool;
}

/** One match, best first; `score` only orders the hits of one search. */
export interface ToolHit {
  readonly server: string;
  readonly tool: string;
  readonly score: number;
  /** The query was this tool's name (or `server/name`), as a browse list shows it: the tool comes first. */
  readonly exact?: true;
}

/** The longest tool or server name a browse list shows (longer names are cut there). */
export const LISTED_NAME_LENGTH = 64;

/**
 * A server-sent name as it may be shown to a model in a list of names: only letters, digits and
 * `_ - .` (any run of other characters becomes one `_`), at most LISTED_NAME_LENGTH characters.
 * Searching with this text (or `server/name`) finds the tool by its exact name.
 */
export function listedName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, LISTED_NAME_LENGTH) || '_';
}

/** What a hostile server may make us read per tool: longer text is cut before it is indexed. */
export const SEARCH_LIMITS = {
  /** A name or a title. */
  name: 200,
  /** A description (real ones are well under 2,000 characters; the rest is rarely about what the tool does). */
  description: 4_000,
  /** Parameters read from the input schema (top level only). */
  params: 40,
  /** A parameter's description. */
  paramDescription: 300,
  /** A query. */
  query: 500,
} as const;

/** The most hits one search returns. */
export const MAX_HITS = 50;

/** Fields and how much a match in each counts (tuned on bench/search/requests.json). */
export const BOOST = { name: 3, server: 1.5, title: 2, description: 1, params: 0.7 } as const;
export const FIELDS = ['name', 'server', 'title', 'description', 'params'] as const;

export interface Doc {
  readonly name: string;
  readonly server: string;
  readonly title: string;
  readonly description: string;
  readonly params: string;
}

const cut = (text: string | undefined, max: number) => sanitizeLine((text ?? '').slice(0, max));

/** A parameter's description and the values it takes (an `enum` of "undo", "restart" says what the tool does). */
function paramWords(schema: unknown, into: string[]): void {
  const properties = schema && typeof schema === 'object' ? (schema as { properties?: unknown }).properties : undefined;
  if (!properties || typeof properties !== 'object') return;
  for (const [key, value] of Object.entries(properties).slice(0, SEARCH_LIMITS.params)) {
    if (into.length >= SEARCH_LIMITS.params * 3) return;
    const v = value && typeof value === 'object' ? (value as { description?: unknown; enum?: unknown }) : {};
    into.push(cut(key, SEARCH_LIMITS.name), typeof v.description === 'string' ? cut(v.description, SEARCH_LIMITS.paramDescription) : '');
    if (Array.isArray(v.enum)) into.push(cut(v.enum.filter((e) => typeof e === 'string').join(' '), SEARCH_LIMITS.paramDescription));
  }
}

/** The words a tool is found by, sanitised and cut to SEARCH_LIMITS. */
export function docOf(tool: SearchableTool): Doc {
  const params: string[] = [];
  paramWords(tool.definition?.inputSchema, params);
  return {
    name: cut(tool.tool, SEARCH_LIMITS.name),
    // "The github tool that ...": the server's name is a word of each of its tools.
    server: cut(tool.server, SEARCH_LIMITS.name),
    title: cut(tool.title, SEARCH_LIMITS.name),
    description: cut(tool.description, SEARCH_LIMITS.description),
    params: params.join(' '),
  };
}

/** A query's terms as an index looks for them (cut, sanitised; synonyms count less); null when it has no word. */
export function searchTerms(query: string): QueryTerm[] | null {
  const text = cut(query, SEARCH_LIMITS.query);
  if (splitWords(text).length === 0) return null;
  // A synonym's match counts less than the word's own.
  const words = queryWords(text);
  const own = new Set(words.map(searchTerm));
  const terms: QueryTerm[] = [];
  for (const word of words) {
    for (const term of queryTerms(word) ?? []) {
      terms.push({ term, boost: own.has(term) ? 1 : SYNONYM_WEIGHT, prefix: term.length >= 3, fuzzy: term.length >= 5 ? 0.2 : false });
    }
  }
  return terms;
}

/**
 * A search index over a fixed list of tools (the enabled tools of running servers: build it from
 * what the user allows, and nothing else can be found). Names are split at snake_case, camelCase
 * and kebab-case; every text is sanitised and cut (SEARCH_LIMITS) before it is read. The
 * index (termIndex.ts) is built at the first search, not in the constructor; a changed tool list
 * needs a new ToolIndex (ToolIndexCache keeps one per list).
 */
export class ToolIndex {
  private _search: TermIndex | undefined;
  private _byName: Map<string, number[]> | undefined;

  constructor(private readonly _tools: readonly SearchableTool[]) {}

  /** How many tools the index holds. */
  get size(): number {
    return this._tools.length;
  }

  /** The tools it was built from (what the user allows). */
  get tools(): readonly SearchableTool[] {
    return this._tools;
  }

  /**
   * The tools that best match `query` (words, any case; fuzzy and prefix matches count less),
   * at most `limit` (default 5, at most MAX_HITS), best first. An empty query finds nothing. A
   * query that is a tool's listed name or `server/name` (listedName, any case) finds that tool
   * first: the model asks for a name it read in a browse list, and words alone may rank another higher.
   */
  search(query: string, limit = 5): ToolHit[] {
    const max = Math.max(0, Math.min(MAX_HITS, Math.floor(limit) || 0));
    const terms = searchTerms(query);
    if (max === 0 || !terms) return [];
    const exact = this._exact(query);
    const hits = this._index()
      .search(terms, max + exact.length)
      .filter(({ doc }) => !exact.includes(doc))
      .map(({ doc, score }): ToolHit => ({ server: this._tools[doc].server, tool: this._tools[doc].tool, score }));
    const first = exact.map((doc): ToolHit => ({ server: this._tools[doc].server, tool: this._tools[doc].tool, score: Infinity, exact: true }));
    return [...first, ...hits].slice(0, max);
  }

  /** The tools whose listed name or `server/name` is the query, in list order. */
  private _exact(query: string): number[] {
    const name = query.trim().toLowerCase();
    if (!name || name.length > 2 * LISTED_NAME_LENGTH + 1 || /\s/.test(name)) return [];
    if (!this._byName) {
      const byName = new Map<string, number[]>();
      const add = (key: string, i: number) => {
        const list = byName.get(key) ?? [];
        if (!list.includes(i)) byName.set(key, [...list, i]);
      };
      this._tools.forEach((t, i) => {
        const tool = listedName(t.tool).toLowerCase();
        add(tool, i);
        add(`${listedName(t.server).toLowerCase()}/${tool}`, i);
      });
      this._byName = byName;
    }
    return this._byName.get(name) ?? [];
  }

  private _index(): TermIndex {
    if (this._search) return this._search;
    const term = memoSearchTerm();
    const words = (i: number) => {
      const doc = docOf(this._tools[i]);
      return FIELDS.map((f) => splitWords(doc[f]));
    };
    this._search = new TermIndex(this._tools.length, words, term, FIELDS.map((f) => BOOST[f]));
    return this._search;
  }
}

/** One server's tools as the pool lists them: the array's identity says whether they changed. */
export interface ToolGroup {
  readonly server: string;
  readonly tools: readonly unknown[];
}

/**
 * Keeps the last ToolIndex and builds a new one only when the tool lists changed: another server,
 * another tools array (the pool replaces it on every listing), or another `stamp` (say, the chat
 * settings that filter tools out).
 */
export class ToolIndexCache {
  private _key: { groups: readonly ToolGroup[]; stamp: string } | undefined;
  private _index: ToolIndex | undefined;

  index(groups: readonly ToolGroup[], stamp: string, tools: () => readonly SearchableTool[]): ToolIndex {
    const key = this._key;
    const same = key && key.stamp === stamp && key.groups.length === groups.length && key.groups.every((g, i) => g.server === groups[i].server && g.tools === groups[i].tools);
    if (same && this._index) return this._index;
    this._key = { groups: groups.map((g) => ({ server: g.server, tools: g.tools })), stamp };
    return (this._index = new ToolIndex(tools()));
  }
}
