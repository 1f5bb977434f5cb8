// Servers ranked by all their tools' words together: when a search is unsure, the model can browse
// the tool names of the servers that fit best. A request often names what a server is for ("the
// team chat") in words only some other tool of that server uses.
import { BOOST, FIELDS, MAX_HITS, docOf, searchTerms, type SearchableTool } from './toolSearch';
import { memoSearchTerm, splitWords } from './searchWords';
import { TermIndex } from './termIndex';

/** A server that fits a query: its name and the names of its tools, in the order the server lists them. */
export interface ServerHit {
  readonly server: string;
  readonly tools: readonly string[];
  readonly score: number;
}

/**
 * An index of servers, each one document of its tools' fields (names, server, titles, descriptions,
 * parameters) with the boosts of tool search. Built from the same list a ToolIndex is (what the user
 * allows), at the first search.
 */
export class ServerIndex {
  private readonly _servers: { readonly server: string; readonly tools: SearchableTool[] }[] = [];
  private _search: TermIndex | undefined;

  constructor(tools: readonly SearchableTool[]) {
    const byName = new Map<string, SearchableTool[]>();
    for (const tool of tools) {
      let list = byName.get(tool.server);
      if (!list) byName.set(tool.server, (list = []));
      list.push(tool);
    }
    for (const [server, list] of byName) this._servers.push({ server, tools: list });
  }

  /** The servers whose tools as a whole best match `query`, at most `limit` (at most MAX_HITS), best first. */
  search(query: string, limit = 3): ServerHit[] {
    const max = Math.max(0, Math.min(MAX_HITS, Math.floor(limit) || 0));
    const terms = searchTerms(query);
    if (max === 0 || !terms) return [];
    return this._index()
      .search(terms, max)
      .map(({ doc, score }) => ({ server: this._servers[doc].server, tools: this._servers[doc].tools.map((t) => t.tool), score }));
  }

  private _index(): TermIndex {
    if (this._search) return this._search;
    const term = memoSearchTerm();
    const words = (i: number) => {
      const docs = this._servers[i].tools.map(docOf);
      return FIELDS.map((f) => docs.flatMap((d) => splitWords(d[f])));
    };
    this._search = new TermIndex(this._servers.length, words, term, FIELDS.map((f) => BOOST[f]));
    return this._search;
  }
}
