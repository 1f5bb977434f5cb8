import * as vscode from 'vscode';
import { checkServerName, entryFromCommandLine, entryFromUrl, suggestServerName, type NewServerEntry } from '../../core/config/newServerEntry';
import { addUserServers } from '../config/userServers';

/** The first step's choices. "demo" and "import" hand over to those commands. */
export type ServerKind = 'stdio' | 'http' | 'demo' | 'import';

/** The questions the wizard asks; undefined means the user cancelled. Tests script these. */
export interface AddServerQuestions {
  kind(): PromiseLike<ServerKind | undefined>;
  commandLine(check: (text: string) => string | undefined): PromiseLike<string | undefined>;
  url(check: (text: string) => string | undefined): PromiseLike<string | undefined>;
  name(suggested: string, check: (text: string) => string | undefined): PromiseLike<string | undefined>;
}

/** What the wizard did: added a server (to user settings), handed over, or nothing. */
export type AddServerResult = { readonly kind: 'added'; readonly name: string; readonly entry: NewServerEntry } | { readonly kind: 'handed-over'; readonly to: 'demo' | 'import' } | undefined;

/**
 * "MCP Tool Host: Add Server...": stdio command line or HTTP URL, then a name, then the entry is written to
 * user settings (`mcpToolHost.servers`), which starts it. Three short steps; Escape cancels.
 */
export async function addServer(ask: AddServerQuestions, takenNames: ReadonlySet<string>): Promise<AddServerResult> {
  const kind = await ask.kind();
  if (!kind) return undefined;
  if (kind === 'demo' || kind === 'import') return { kind: 'handed-over', to: kind };
  const parse = kind === 'stdio' ? entryFromCommandLine : entryFromUrl;
  const check = (text: string) => {
    const r = parse(text);
    return typeof r === 'string' ? r : undefined;
  };
  const answer = kind === 'stdio' ? await ask.commandLine(check) : await ask.url(check);
  if (answer === undefined) return undefined;
  const entry = parse(answer);
  if (typeof entry === 'string') return undefined;
  const name = await ask.name(suggestServerName(entry, takenNames), (text) => checkServerName(text.trim(), takenNames));
  if (name === undefined) return undefined;
  await addUserServers([{ name: name.trim(), entry }]);
  return { kind: 'added', name: name.trim(), entry };
}

/** The wizard's questions as quick-picks and input boxes, each titled with its step. */
export const addServerQuestions: AddServerQuestions = {
  async kind() {
    type Item = vscode.QuickPickItem & { choice: ServerKind };
    const items: Item[] = [
      { choice: 'stdio', label: `$(terminal) ${vscode.l10n.t('Command (stdio)')}`, detail: vscode.l10n.t('Runs a program that speaks MCP on stdin/stdout: npx, uvx, node, python, docker...') },
      { choice: 'http', label: `$(globe) ${vscode.l10n.t('HTTP URL')}`, detail: vscode.l10n.t('Connects to a remote server over Streamable HTTP (falls back to SSE).') },
      { choice: 'demo', label: `$(beaker) ${vscode.l10n.t('Demo server')}`, detail: vscode.l10n.t('The server bundled with this extension: every kind of tool, nothing to install.') },
      { choice: 'import', label: `$(cloud-download) ${vscode.l10n.t('Import...')}`, detail: vscode.l10n.t('Copy servers from Claude Desktop, Cursor or VS Code\'s mcp.json.') },
    ];
    const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('MCP Tool Host: Add Server (1/3)'), placeHolder: vscode.l10n.t('How does the server run?'), matchOnDetail: true });
    return picked?.choice;
  },
  commandLine(check) {
    return vscode.window.showInputBox({
      title: vscode.l10n.t('MCP Tool Host: Add Server (2/3): command'),
      prompt: vscode.l10n.t('The command line that starts the server. Quote words with spaces. Add env or cwd later in settings.'),
      placeHolder: 'npx -y @modelcontextprotocol/server-everything',
      ignoreFocusOut: true,
      validateInput: check,
    });
  },
  url(check) {
    return vscode.window.showInputBox({
      title: vscode.l10n.t('MCP Tool Host: Add Server (2/3): URL'),
      prompt: vscode.l10n.t('The server\'s URL. Add headers (like Authorization) later in settings.'),
      placeHolder: 'https://example.com/mcp',
      ignoreFocusOut: true,
      validateInput: check,
    });
  },
  name(suggested, check) {
    return vscode.window.showInputBox({
      title: vscode.l10n.t('MCP Tool Host: Add Server (3/3): name'),
      prompt: vscode.l10n.t('A name for the server: it labels the server in the Tools view and in settings.'),
      value: suggested,
      ignoreFocusOut: true,
      validateInput: check,
    });
  },
};
