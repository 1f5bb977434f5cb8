/**
 * The lockfile's name: beside `.mcp.json`, or in the folder that holds `.vscode/` (the workspace
 * folder the editor reads it from). A file of its own: the editor looks for it at activation's
 * weight, and loads the code that reads one only when one is there.
 */
export const LOCKFILE_NAME = 'mcp-tools.lock.json';
