// A tool's interface (MCP Apps): the host side of its conversation, at the first interface opened.
// Reach it through loadApps() (load.ts); elsewhere import appBridge.ts as a type only. In the extension it is part of dist/core.js, the session runtime (esbuild.mjs). Its modules import
// no code of ours at runtime but each other's leaves (lint): a bundle of its own holds the one copy.
export { openAppConversation } from './appBridge';
