// What `@mcp` loads at its first request (chat/later.ts): dist/chat.js in the extension (esbuild.mjs).
// It may share only stateless modules with dist/extension.js (no class, no module-level `let`):
// esbuild.mjs checks every file the two bundles both hold.
export * from '../chat/later';
