import type { CallToolResult } from '@modelcontextprotocol/client';
import { loadSearch } from '../search/load';
import type { ToolIndex } from '../search/toolSearch';
import type { GatewayCatalog, OfferedTool } from './gatewayCatalog';
import type { GatewayToolDefinition } from './offeredDefinition';
import { toolError } from './callResult';

/** `--tools search`: a huge catalogue offered as two tools, so the client's model reads a few definitions, not all. */
export const SEARCH_TOOL = 'search_tools';
export const CALL_TOOL = 'call_tool';
const DEFAULT_HITS = 5;
const MAX_HITS = 20;
const MAX_QUERY_CHARS = 500;

export const SEARCH_MODE_TOOLS: readonly GatewayToolDefinition[] = [
  {
    name: SEARCH_TOOL,
    title: 'Search tools',
    description: `Finds the tools that fit a task among every tool the configured MCP servers offer. Returns their full definitions (name, description, input schema); call one with ${CALL_TOOL}. It also lists the other tools' names of the servers that fit best ("servers"): when none of the definitions fits, search again with one of those names (or server/name) to get its definition.`,
    inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'What the tool should do, in words; or a tool\'s exact name from an earlier result.' }, limit: { type: 'integer', minimum: 1, maximum: MAX_HITS, description: `How many tools (default ${DEFAULT_HITS}).` } }, required: ['query'] },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: CALL_TOOL,
    title: 'Call a tool',
    description: `Calls a tool ${SEARCH_TOOL} found, by its name, with its arguments. Every call goes through the host's policy: one it does not run returns a tool error that says why.`,
    inputSchema: { type: 'object', properties: { name: { type: 'string', description: `The tool's name, as ${SEARCH_TOOL} gave it.` }, arguments: { type: 'object', description: 'The tool\'s arguments, as its input schema says.' } }, required: ['name'] },
    // What the called tool does is unknown here: the worst, as for any tool whose hints are not trusted.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  },
];

/**
 * One index per catalogue (a list_changed makes a new catalogue list, and so a new index) and set of
 * withheld tools: a tool that changed since it was pinned is found by its name alone, so words of the
 * definition nobody accepted cannot steer a search to it.
 */
const indexes = new WeakMap<readonly OfferedTool[], { readonly withheld: string; readonly index: ToolIndex }>();

/**
 * The best tools for the query, as full definitions, and the other tools' names of the servers that
 * fit best (JSON text, and structured). `servers` is left out when there is none to list.
 */
export function searchTools(catalog: GatewayCatalog, args: Record<string, unknown>, definitionOf: (o: OfferedTool) => GatewayToolDefinition, isWithheld: (o: OfferedTool) => boolean = () => false): CallToolResult {
  const { query, limit = DEFAULT_HITS } = args;
  if (typeof query !== 'string' || query.trim() === '') return toolError(`Not searched: ${SEARCH_TOOL} needs "query", what the tool should do.`);
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_HITS) return toolError(`Not searched: "limit" must be a whole number from 1 to ${MAX_HITS}.`);
  const tools = catalog.tools;
  const withheld = tools.filter(isWithheld);
  const withheldKey = withheld.map((o) => o.name).join('\n');
  const search = loadSearch();
  const kept = indexes.get(tools);
  let index = kept?.withheld === withheldKey ? kept.index : undefined;
  if (!index) {
    const hidden = new Set(withheld);
    index = new search.ToolIndex(tools.map((o) => (hidden.has(o) ? { server: o.server, tool: o.name, definition: { name: o.tool.name, inputSchema: { type: 'object' } } } : { server: o.server, tool: o.name, title: o.tool.title, description: o.tool.description, definition: o.tool })));
    indexes.set(tools, { withheld: withheldKey, index });
  }
  const byName = new Map(tools.map((o) => [o.name, o]));
  const { hits, browse } = search.searchAndBrowse(index, query.slice(0, MAX_QUERY_CHARS), limit);
  const found = hits.map((hit) => byName.get(hit.tool)).filter((o): o is OfferedTool => o !== undefined).map(definitionOf);
  const structured = { tools: found, ...(browse.length ? { servers: browse.map((s) => ({ server: s.server, tools: s.tools, ...(s.more ? { more: s.more } : {}) })) } : {}) };
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}
