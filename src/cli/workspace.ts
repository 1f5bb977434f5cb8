import * as path from 'node:path';
import type { VariableContext } from '../core/config/variables';

/** What `${workspaceFolder}` and friends resolve against in the CLI: the current directory, and this process's environment. */
export function cliVariables(): VariableContext {
  const cwd = process.cwd();
  return { workspaceFolders: [{ name: path.basename(cwd), path: cwd }], env: process.env };
}
