// What `@mcp` needs once asked something (the tool loop, slash commands, chat markdown), loaded
// on the first request instead of at activation: dist/chat.js in the extension (esbuild.mjs).
// It may share only stateless modules with dist/extension.js (no class, no module-level `let`):
// esbuild.mjs checks every file the two bundles both hold.
export { createChatHandler } from '../chat/chatHandler';
// The hosted tools in every chat (language-model tools): their bodies, registered by lmToolRegistration.ts.
export { callTool, searchTool } from '../chat/lmTools';
