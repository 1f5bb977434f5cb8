// A tool's interface (MCP Apps, docs/mcp-apps.md): the webview panel and the host side of its
// conversation, loaded when the first interface opens (dist/forms.js, via lazy/forms.ts).
export { reopenLastInterface, startInterface } from './appSessions';
