// The `search_tools` tool a chat model gets instead of every tool's definition: its
// definition here, in core, so that the bench counts the very tokens the model is sent.

/** The search tool's name for the model; a server's tool that cleans to the same name gets `_2`. */
export const SEARCH_TOOL_NAME = 'search_tools';
/** The most tools one search returns (a search result is definitions: ~100-300 tokens each). */
export const MAX_SEARCH_LIMIT = 10;
export const DEFAULT_SEARCH_LIMIT = 5;

/** The search tool as a model sees it: what it does, and its input (a query, an optional limit). */
export function searchToolDefinition(name: string, toolCount: number): { name: string; description: string; inputSchema: Record<string, unknown> } {
  return {
    name,
    description: `Search the ${toolCount} tools of the user's MCP servers by what they do (words of their names, descriptions and parameters). Call it when no tool offered so far fits the request. It returns the best matching tools with their definitions; those tools can then be called by name for the rest of this request. It also lists the names of other tools of the servers that fit best: when none of the definitions fits, search with one of those names (or server/name) to get that tool.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What the tool should do, in a few words: for example "create a GitLab merge request" or "take a screenshot of the page"; or a tool name from an earlier result\'s list.' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_LIMIT, description: `How many tools to return (default ${DEFAULT_SEARCH_LIMIT}, at most ${MAX_SEARCH_LIMIT}).` },
      },
      required: ['query'],
    },
  };
}

/** The line before a search result's list of other tools' names (server: names), as the model reads it. */
export function browseIntro(searchName: string): string {
  return `Other tools of the servers that fit best (not callable yet: ${searchName} with a name, or server/name, returns its definition):`;
}
