// Where the rules of the VS Code settings are read, as decisions and the Rules and Approvals view name them.

export const USER_RULES = 'user settings';
export const WORKSPACE_RULES = 'workspace settings';

/** A folder's own `.vscode/settings.json` in a multi-root workspace. */
export function folderRules(name: string): string {
  return `folder settings (${name})`;
}
