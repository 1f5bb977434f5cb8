import * as vscode from 'vscode';
import type { ToolIndexCache } from '../../core/search/toolSearch';
import type { BrowseServer } from '../../core/search/browse';
import { loadSearch } from '../../core/search/load';
import { mdCode, mdText } from '../../core/chat/markdown';
import { modelToolNames, type ChatToolRef } from '../../core/chat/modelToolNames';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, SEARCH_TOOL_NAME, browseIntro, searchToolDefinition } from '../../core/chat/searchTool';
import { READ_RESULT_TOOL_NAME, readResultDefinition } from '../../core/chat/readResult';
import { sanitizeLine } from '../../core/render/sanitize';
import type { ChatCatalog, ChatTool } from './chatCatalog';
import { resultPart } from './chatCallStep';
import { toModelTool } from './chatMessages';
import type { ChatSettings } from './chatSettings';

/** One search of a chat request (the ChatResult's metadata lists them, tests read it). */
export interface ChatSearchRecord {
  readonly query: string;
  /** `server/tool` of each tool found, best first. */
  readonly found: readonly string[];
  /** `server/tool` of each tool whose name the result listed for browsing (when it listed any). */
  readonly listed?: readonly string[];
}

/** The search tool as the model sees it. */
export function searchModelTool(name: string, toolCount: number): vscode.LanguageModelChatTool {
  return searchToolDefinition(name, toolCount);
}

/** The one search index of this window (@mcp and the language-model search tool), kept while the tool lists stay the same. */
export function chatSearchIndex(): ChatSearchIndex {
  return (shared ??= new ChatSearchIndex());
}
let shared: ChatSearchIndex | undefined;

/** A search index over the chat catalogue, rebuilt only when a tool list or the chat settings changed. */
class ChatSearchIndex {
  private _cache: ToolIndexCache | undefined;

  /**
   * Up to `limit` enabled tools of `catalog` that match `query`, best first, and the names of the
   * other tools of the servers that fit best (only enabled tools: the index holds nothing else).
   */
  find(catalog: ChatCatalog, settings: ChatSettings, query: string, limit: number): { found: ChatTool[]; browse: BrowseServer[] } {
    const search = loadSearch();
    this._cache ??= new search.ToolIndexCache();
    // The settings that filter tools out are part of the key: a tool turned off is out of the next index.
    const stamp = JSON.stringify([settings.enabledServers, settings.disabledTools]);
    const byKey = new Map(catalog.tools.map((t) => [`${t.server}\u0000${t.tool}`, t]));
    const index = this._cache.index(catalog.lists, stamp, () => catalog.tools);
    const { hits, browse } = search.searchAndBrowse(index, query, limit);
    return { found: hits.flatMap((hit) => byKey.get(`${hit.server}\u0000${hit.tool}`) ?? []), browse };
  }
}

/**
 * What the model may call in one request: in search mode, `search_tools`, the pinned tools and
 * what it found; `read_result` once a result was cut.
 */
export class OfferedTools {
  /** Every tool of the catalog by its model name (names stable across rounds), and the search and read tools' names. */
  private readonly _names: Map<string, ChatTool | ChatToolRef>;
  private readonly _offered = new Map<string, ChatTool>();
  readonly searchName: string | undefined;
  readonly readName: string;
  /** Whether a result was cut this request, so the model gets the read tool from the next round on. */
  reading = false;

  constructor(private readonly _catalog: ChatCatalog, initial: readonly ChatTool[], search: boolean) {
    // In search mode every tool gets its name up front, so a tool has the same name whenever it is found.
    this._names = modelToolNames<ChatTool | ChatToolRef>([...(search ? [SEARCH_REF] : []), READ_REF, ...(search ? _catalog.tools : initial)]);
    const initialSet = new Set(initial);
    let readName = READ_RESULT_TOOL_NAME;
    for (const [name, tool] of this._names) {
      if (tool === SEARCH_REF) this.searchName = name;
      else if (tool === READ_REF) readName = name;
      else if (isTool(tool) && initialSet.has(tool)) this._offered.set(name, tool);
    }
    this.readName = readName;
  }

  /** The callable tool of this model name, if it was offered or found. */
  get(name: string): ChatTool | undefined {
    return this._offered.get(name);
  }

  get names(): string[] {
    return [...(this.searchName ? [this.searchName] : []), ...this._offered.keys()];
  }

  /** The tools for the next model request. */
  modelTools(): vscode.LanguageModelChatTool[] {
    const tools = [...this._offered].map(([name, tool]) => toModelTool(name, tool));
    const read = this.reading ? [readResultDefinition(this.readName)] : [];
    return this.searchName ? [searchModelTool(this.searchName, this._catalog.tools.length), ...read, ...tools] : [...read, ...tools];
  }

  /** Makes found tools callable; returns their model names. */
  offer(found: readonly ChatTool[]): string[] {
    const wanted = new Set(found);
    const names = new Map<ChatTool, string>();
    for (const [name, tool] of this._names) if (isTool(tool) && wanted.has(tool)) names.set(tool, name);
    return found.map((tool) => {
      const name = names.get(tool)!;
      this._offered.set(name, tool);
      return name;
    });
  }
}

/** Stand for the search and read tools among the catalog's tools, so that names never clash. */
const SEARCH_REF: ChatToolRef = { server: '', tool: SEARCH_TOOL_NAME };
const READ_REF: ChatToolRef = { server: '', tool: READ_RESULT_TOOL_NAME };
const isTool = (ref: ChatTool | ChatToolRef): ref is ChatTool => ref !== SEARCH_REF && ref !== READ_REF;

/** Runs one `search_tools` call: finds, offers what it found, shows it, and answers the model with the definitions. */
export function runSearch(
  part: vscode.LanguageModelToolCallPart,
  context: { catalog: ChatCatalog; settings: ChatSettings; offered: OfferedTools; searches: ChatSearchRecord[]; stream: vscode.ChatResponseStream },
): vscode.LanguageModelToolResultPart {
  const input = (typeof part.input === 'object' && part.input !== null ? part.input : {}) as { query?: unknown; limit?: unknown };
  const query = typeof input.query === 'string' ? sanitizeLine(input.query).trim().slice(0, 500) : '';
  if (!query) {
    context.searches.push({ query: '', found: [] });
    return resultPart(part.callId, 'search_tools needs a "query": a few words that say what the tool should do.');
  }
  const limit = typeof input.limit === 'number' && Number.isFinite(input.limit) ? Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.floor(input.limit))) : DEFAULT_SEARCH_LIMIT;
  const { found, browse } = chatSearchIndex().find(context.catalog, context.settings, query, limit);
  const names = context.offered.offer(found);
  const listed = browse.flatMap((s) => s.tools.map((t) => `${s.server}/${t}`));
  context.searches.push({ query, found: found.map((t) => `${t.server}/${t.tool}`), ...(listed.length ? { listed } : {}) });
  const list = found.length ? found.map((t) => mdCode(`${t.server}/${t.tool}`)).join(', ') : vscode.l10n.t('nothing');
  context.stream.markdown(`- ${vscode.l10n.t('Searched the tools for {0}: {1}', `"${mdText(query)}"`, list)}\n`);
  const more = browse.length ? `\n\n${browseIntro(context.offered.searchName ?? SEARCH_TOOL_NAME)}\n${loadSearch().browseText(browse)}` : '';
  if (found.length === 0) return resultPart(part.callId, `No tool matches "${query}". Try other words, or answer without a tool.${more}`);
  const definitions = found.map((tool, i) => {
    const model = toModelTool(names[i], tool);
    return { name: model.name, description: model.description, inputSchema: model.inputSchema };
  });
  return resultPart(part.callId, `Found ${found.length} tools; you can call them now by these names:\n${JSON.stringify(definitions)}${more}`);
}
