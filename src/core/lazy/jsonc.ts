// The JSONC parser, in a module of its own that loads on first use (ARCHITECTURE.md "Limits"): an
// mcp.json or an arguments editor needs it, a server start does not. Reach it through
// `loadJsonc()` (load.ts); elsewhere jsonc-parser may only be imported as types (eslint.config.mjs).
// It imports nothing of ours, for the reason heavy.ts gives.
export { findNodeAtLocation, parse, parseTree, printParseErrorCode, visit } from 'jsonc-parser';
