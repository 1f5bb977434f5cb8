// The JSONC parser, a bundle of its own in the extension (dist/jsonc.js): an mcp.json or an
// arguments editor needs it, a server start does not. Reach it through loadJsonc() (load.ts).
export { applyEdits, findNodeAtLocation, modify, parse, parseTree, printParseErrorCode, visit } from 'jsonc-parser';
