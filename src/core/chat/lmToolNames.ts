/** The language-model tools' names, as contributed in package.json (`languageModelTools`). Alone in a file: activation needs only these. */
export const LM_SEARCH_TOOL = 'mcpToolHost_searchTools';
export const LM_CALL_TOOL = 'mcpToolHost_callTool';
export const LM_READ_RESOURCE_TOOL = 'mcpToolHost_readResource';
export const LM_READ_RESULT_TOOL = 'mcpToolHost_readResult';
