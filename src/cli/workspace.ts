import * as path from 'node:path';
import type { VariableContext } from '../core/config/variables';
import { INPUT_VARIABLE_PREFIX } from '../core/config/secretVariables';

/**
 * The folder a workspace's config file belongs to, as VS Code reads it: `.vscode/mcp.json` (or
 * `.vscode/settings.json`) the folder that holds `.vscode`, `.mcp.json` its own folder; undefined
 * for any other file. Not the current directory: a repository's file run from elsewhere (the home
 * folder) would otherwise be judged against that folder, and read files there.
 */
export function workspaceOfConfig(file: string | undefined): string | undefined {
  if (!file) return undefined;
  const resolved = path.resolve(file);
  const dir = path.dirname(resolved);
  if (path.basename(dir) === '.vscode') return path.dirname(dir);
  if (path.basename(resolved) === '.mcp.json') return dir;
  return undefined;
}

/** The CLI's workspace: the folder of a workspace's config file, else the current directory. */
export function cliWorkspace(configFile: string | undefined): string {
  return workspaceOfConfig(configFile) ?? process.cwd();
}

/** The environment variable that gives the CLI the value of `${input:id}`: MCP_TOOL_HOST_INPUT_ and the id in upper case, `_` for anything but a letter or digit. */
export function inputVariable(id: string): string {
  return `${INPUT_VARIABLE_PREFIX}${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * What `${workspaceFolder}` and friends resolve against in the CLI: its workspace (cliWorkspace),
 * and this process's environment; `${input:id}` from its variable (inputVariable), else asked on a
 * terminal (host.ts). An input's value is a secret, masked like the others.
 */
export function cliVariables(configFile: string | undefined): VariableContext {
  const folder = cliWorkspace(configFile);
  const inputs = new Proxy<Record<string, string>>({}, { get: (_, id) => (typeof id === 'string' ? process.env[inputVariable(id)] : undefined) });
  return { workspaceFolders: [{ name: path.basename(folder), path: folder }], env: process.env, inputs, inputHint: (id) => `set ${inputVariable(id)} to its value, or run on a terminal to be asked (serve and session never ask)` };
}
