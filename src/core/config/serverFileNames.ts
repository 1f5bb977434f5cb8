// A module of its own, so a bundle may copy it without the configuration parser (esbuild.mjs).

/** The files a workspace folder may define servers in, in order of precedence. */
export const WORKSPACE_SERVER_FILES = ['.vscode/mcp.json', '.mcp.json'] as const;
