// Tool search and token counts, loaded at the first search or count: minisearch and gpt-tokenizer's
// o200k_base encoding (~2 MB) are not for activation. In the extension it is dist/search.js
// (esbuild.mjs); elsewhere import these modules as types only and reach them through loadSearch() (load.ts).
export { MAX_HITS, SEARCH_LIMITS, ToolIndex, ToolIndexCache, listedName } from './toolSearch';
export { ServerIndex, type ServerHit } from './serverSearch';
export { BROWSE_LIMITS, browseText, searchAndBrowse, type BrowseResult, type BrowseServer } from './browse';
export { TOKENIZER, textTokens, toolTokens, toolsTokens } from './toolTokens';
export type { QueryTerm } from './termIndex';
