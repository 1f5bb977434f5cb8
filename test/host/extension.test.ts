import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import type { CallOutcome } from '../../src/core/calls/callPipeline';
import type { TreeNode } from '../../src/vscode/tree/toolTree';
import { FIXTURES } from './treeHarness';
import { allowDestructive, promptOpened, promptShown, startAtLaunchPrompt, until } from './wait';

const EXTENSION_ID = 'mcp-tool-host.mcp-tool-host';

const servers = () => vscode.workspace.getConfiguration('mcpToolHost');
const setServers = (value: unknown, target = vscode.ConfigurationTarget.Global) => servers().update('servers', value, target);

describe('MCP Tool Host in the real extension host', () => {
  let api: McpToolHostApi;
  const items = (node?: TreeNode) => api.tree.getChildren(node).map((n) => ({ node: n, item: api.tree.getTreeItem(n) }));

  before(async () => {
    await setServers(undefined);
    await setServers(undefined, vscode.ConfigurationTarget.Workspace);
    const ext = vscode.extensions.getExtension<McpToolHostApi>(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    api = await ext.activate();
  });

  after(async () => {
    await setServers(undefined);
    await setServers(undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('registers its commands', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const c of ['callTool', 'addDemoServer', 'importServers', 'openSettings', 'refresh', 'startServer', 'stopServer', 'restartServer', 'showServerLog', 'showOutput']) {
      assert.ok(all.includes(`mcpToolHost.${c}`), `mcpToolHost.${c} registered`);
    }
  });

  it('shows an empty tree (so the welcome view) when no server is configured', () => {
    assert.deepEqual(api.tree.getChildren(), []);
  });

  it('"Add Demo Server" writes user settings and the demo tools appear with their badges', async () => {
    await vscode.commands.executeCommand('mcpToolHost.addDemoServer');
    const configured = servers().inspect<Record<string, { args: string[] }>>('servers')?.globalValue;
    assert.ok(configured?.demo, 'demo server in user settings');
    await until('demo running', () => api.pool.get('demo')?.state.kind === 'running' && api.pool.get('demo')!.tools.length > 0);
    const [server] = items();
    assert.equal(server.item.label, 'demo');
    assert.match(String(server.item.description), /^9 tools · v0\.1\.0$/);
    assert.equal(server.item.contextValue, 'mcpServer;running;');
    const tools = items(server.node);
    const byLabel = new Map(tools.map((t) => [t.item.label, t.item]));
    assert.equal(byLabel.get('List Notes')?.description, 'read-only');
    assert.equal(byLabel.get('Delete Note')?.description, 'destructive', 'idempotent is left to the tooltip: the row stays readable at the default width');
    assert.equal(byLabel.get('Fetch URL')?.description, 'read-only · open-world');
    assert.equal(byLabel.get('echo')?.description, 'destructive? · open-world?');
    assert.equal(byLabel.get('Add Note')?.description, 'writes');
    assert.equal(byLabel.get('Delete Note')?.contextValue, 'mcpTool;destructive;idempotent;');
    assert.deepEqual(byLabel.get('Read Note')?.command?.arguments, [{ server: 'demo', tool: 'read_note' }]);
    assert.match((api.tree.resolveTreeItem(byLabel.get('echo')!, tools.find((t) => t.item.label === 'echo')!.node).tooltip as vscode.MarkdownString).value.replace(/\\/g, '').replace(/&nbsp;/g, ' '), /destructive: yes \(spec default\)/);
  });

  it('calls a read-only tool without a prompt', async () => {
    const outcome = await vscode.commands.executeCommand<CallOutcome>('mcpToolHost.callTool', { server: 'demo', tool: 'read_note', args: { name: 'welcome' } });
    assert.equal(outcome.kind, 'ok');
    if (outcome.kind === 'ok') assert.match(outcome.result.text, /Notes live in the demo server/);
  });

  const DELETE_PROMPT = /^Approve "Delete Note" \(delete_note\) on demo\?/;
  /** Calls delete_note from the palette's command, and waits until its approval prompt is there (`when`). */
  const deleteNote = async (name: string, when: typeof promptShown | typeof promptOpened) => {
    const shown = when(api, DELETE_PROMPT);
    const pending = vscode.commands.executeCommand<CallOutcome>('mcpToolHost.callTool', { server: 'demo', tool: 'delete_note', args: { name } });
    await shown;
    return { pending }; // wrapped: an async function returning the thenable would wait for the call itself
  };

  it('a destructive call\'s prompt starts on Deny: a hurried Enter (double Enter) denies, nothing is sent', async () => {
    const { pending } = await deleteNote('shopping', promptOpened);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.equal((await pending).kind, 'denied');
  });

  it('an "allow" chosen before the approval prompt could be read is ignored; a deliberate one runs', async () => {
    const opened = promptOpened(api, /^Approve "Fetch URL" \(fetch_url\) on demo\?/);
    const armed = promptShown(api, /^Approve "Fetch URL" \(fetch_url\) on demo\?/);
    const pending = vscode.commands.executeCommand<CallOutcome>('mcpToolHost.callTool', { server: 'demo', tool: 'fetch_url', args: { url: 'http://127.0.0.1:9/none' } });
    await opened;
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem'); // "Allow once", too soon
    const early = await Promise.race([pending.then(() => 'answered'), armed.then(() => 'still asking')]);
    assert.equal(early, 'still asking');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.equal((await pending).kind, 'tool-error', 'allowed and sent (nothing listens on that port)');
  });

  it('asks before a destructive call; choosing "Allow once" allows it once', async () => {
    const { pending } = await deleteNote('shopping', promptShown);
    await allowDestructive('once');
    const outcome = await pending;
    assert.equal(outcome.kind, 'ok');
    if (outcome.kind === 'ok') assert.equal(outcome.result.text, 'Deleted "shopping".');
  });

  it('Escape on the approval denies, and nothing is sent', async () => {
    const { pending } = await deleteNote('welcome', promptShown);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal((await pending).kind, 'denied');
    const list = await vscode.commands.executeCommand<CallOutcome>('mcpToolHost.callTool', { server: 'demo', tool: 'list_notes', args: {} });
    assert.ok(list.kind === 'ok' && list.result.text.includes('welcome'), 'the note still exists');
  });

  it('a broken entry shows its own error while the others keep running', async () => {
    const current = servers().inspect<Record<string, unknown>>('servers')?.globalValue ?? {};
    await setServers({ ...current, broken: { args: ['x'] } });
    const row = await until('config error row', () => items().find((i) => i.node.kind === 'configError'));
    assert.equal(row.item.tooltip, 'Server "broken": "command" is required for a stdio server (for example "npx").');
    assert.equal(api.pool.get('demo')?.state.kind, 'running', 'demo was not restarted or stopped');
    await setServers(current);
  });

  it('a server that cannot start shows why under its row', async () => {
    const current = servers().inspect<Record<string, unknown>>('servers')?.globalValue ?? {};
    await setServers({ ...current, missing: { command: 'definitely-not-installed-mcp' } });
    await until('missing in error', () => api.pool.get('missing')?.state.kind === 'error');
    const row = items().find((i) => i.item.label === 'missing')!;
    assert.equal(row.item.contextValue, 'mcpServer;error;');
    const [reason] = items(row.node);
    assert.match(String(reason.item.label), /^Command "definitely-not-installed-mcp" was not found\. Searched PATH: /);
    await setServers(current);
  });

  it("a server the administrator's allowlist refuses shows why and which policy file, and never starts", async () => {
    const current = servers().inspect<Record<string, unknown>>('servers')?.globalValue ?? {};
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-allowlist-'));
    const marker = path.join(dir, 'started');
    const policy = path.join(dir, 'policy.json');
    fs.writeFileSync(policy, JSON.stringify({ allowedServers: [{ command: process.execPath, args: [path.join(FIXTURES, 'notes.cjs')] }] }));
    process.env.MCP_TOOL_HOST_POLICY_FILE = policy;
    try {
      await setServers({ ...current, unlisted: { command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`], env: { ELECTRON_RUN_AS_NODE: '1' } } });
      await until('unlisted in error', () => api.pool.get('unlisted')?.state.kind === 'error');
      const row = items().find((i) => i.item.label === 'unlisted')!;
      const [reason] = items(row.node);
      assert.match(String(reason.item.label), new RegExp(`Not started: the administrator's policy \\(${policy.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) allows only the servers it lists`));
      assert.equal(fs.existsSync(marker), false, 'the refused server ran');
      assert.equal(api.pool.get('demo')?.state.kind, 'running', 'the others keep running');
    } finally {
      delete process.env.MCP_TOOL_HOST_POLICY_FILE;
      await setServers(current);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a server the allowlist refuses is refused before it asks for its ${input:...} values, and its row names the policy and opens it", async () => {
    const current = servers().inspect<Record<string, unknown>>('servers')?.globalValue ?? {};
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-allowlist-'));
    const policy = path.join(dir, 'policy.json');
    fs.writeFileSync(policy, JSON.stringify({ allowedServers: [{ command: process.execPath, args: [path.join(FIXTURES, 'notes.cjs')] }] }));
    process.env.MCP_TOOL_HOST_POLICY_FILE = policy;
    try {
      await setServers({ ...current, asksfirst: { command: process.execPath, args: ['-e', '0'], env: { ELECTRON_RUN_AS_NODE: '1', TOKEN: '${input:asksfirst_token}' } } });
      // Asking first would leave it starting behind a password box for a token it may never use.
      await until('asksfirst refused', () => api.pool.get('asksfirst')?.state.kind === 'error', 10_000);
      const state = api.pool.get('asksfirst')!.state;
      assert.equal(state.kind === 'error' && state.refusedBy, policy, 'the state names the policy file that refused it');
      const row = items().find((i) => i.item.label === 'asksfirst')!;
      assert.equal(row.item.description, 'refused by policy');
      const tooltip = api.tree.resolveTreeItem(row.item, row.node).tooltip as vscode.MarkdownString;
      assert.match(tooltip.value, /Refused by the administrator's policy/);
      assert.ok(tooltip.value.replace(/\\/g, '').includes(`Policy file: ${policy}`), `the tooltip names the file: ${tooltip.value}`);
      const children = items(row.node).map((c) => String(c.item.label));
      assert.match(children[0], /allows only the servers it lists/);
      assert.deepEqual(children.slice(1), ['Open the Policy', 'Restart', 'Show Log']);
      await vscode.commands.executeCommand('mcpToolHost.openPolicyFile', 'asksfirst');
      await until('the policy file open', () => vscode.window.activeTextEditor?.document.uri.fsPath === policy);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      delete process.env.MCP_TOOL_HOST_POLICY_FILE;
      await setServers(current);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('changing only a timeout keeps the server running (no restart)', async () => {
    const before = api.pool.get('demo');
    const current = servers().inspect<Record<string, Record<string, unknown>>>('servers')?.globalValue ?? {};
    await setServers({ ...current, demo: { ...current.demo, timeoutSeconds: 120 } });
    await until('definition updated', () => api.pool.get('demo')?.definition.timeoutSeconds === 120);
    assert.equal(api.pool.get('demo'), before, 'same connection');
    assert.equal(before?.state.kind, 'running');
  });

  /** The demo server's entry, as the workspace's "wsdemo" defines it (with `args` after the demo's own). */
  const workspaceDemo = (...args: string[]) => {
    const demo = servers().inspect<Record<string, { command: string; args: string[] }>>('servers')?.globalValue?.demo;
    assert.ok(demo);
    return { wsdemo: { ...demo, args: [...demo.args, ...args] } };
  };

  it('the launch prompt starts on "Do not start", and a key pressed before it could be read never answers it', async () => {
    const opened = promptOpened(api, /^Run server "wsdemo" defined by this workspace\?$/);
    const shown = promptShown(api, /^Run server "wsdemo" defined by this workspace\?$/);
    await setServers(workspaceDemo(), vscode.ConfigurationTarget.Workspace);
    await opened;
    // A stray Enter the moment it appears (meant for an editor, a terminal, the prompt before): nothing.
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await shown;
    assert.deepEqual(api.pool.get('wsdemo')?.state, { kind: 'starting', message: 'Waiting for you to allow it to start' }, 'the stray Enter answered the prompt');
    // Enter once it reads: the prompt starts on "Do not start".
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await until('wsdemo stopped', () => api.pool.get('wsdemo')?.state.kind === 'stopped');
  });

  it('after "Do not start", a change of its file does not ask again; Start asks', async () => {
    const opened: string[] = [];
    const listener = api.onDidOpenPrompt((title) => opened.push(title));
    try {
      // The repository edits the entry (a new launch): no prompt, and the row says why.
      await setServers(workspaceDemo('--edited'), vscode.ConfigurationTarget.Workspace);
      const edited = () => {
        const spec = api.pool.get('wsdemo')?.definition.spec;
        return spec?.type === 'stdio' && spec.args.includes('--edited');
      };
      await until('the edited wsdemo', edited);
      await until('wsdemo not started', () => api.pool.get('wsdemo')?.state.kind === 'stopped' && 'message' in api.pool.get('wsdemo')!.state);
      await new Promise((r) => setTimeout(r, 1000));
      assert.deepEqual(opened, [], 'the edited file asked again');
      const row = items().find((i) => i.item.label === 'wsdemo')!;
      assert.match(String(row.item.description), /^not started: you chose "Do not start"/);
      // The user starts it: asked again, and it runs.
      const shown = promptShown(api, /^Run server "wsdemo" defined by this workspace\?$/);
      const started = vscode.commands.executeCommand('mcpToolHost.startServer', 'wsdemo');
      await shown;
      await startAtLaunchPrompt();
      await started;
      await until('wsdemo running', () => api.pool.get('wsdemo')?.state.kind === 'running' && api.pool.get('wsdemo')!.tools.length > 0);
    } finally {
      listener.dispose();
    }
  });

  it('does not trust annotations of a workspace-defined server', async () => {
    await until('wsdemo running', () => api.pool.get('wsdemo')?.state.kind === 'running' && api.pool.get('wsdemo')!.tools.length > 0);
    const row = items().find((i) => i.item.label === 'wsdemo')!;
    const listNotes = items(row.node).find((t) => t.item.label === 'List Notes')!;
    assert.equal(listNotes.item.description, 'declared read-only, not trusted');
    assert.match((api.tree.resolveTreeItem(listNotes.item, listNotes.node).tooltip as vscode.MarkdownString).value.replace(/\\/g, '').replace(/&nbsp;/g, ' '), /assumed: annotations not trusted/);
    await setServers(undefined, vscode.ConfigurationTarget.Workspace);
  });

  it("reads the workspace's .vscode/mcp.json (JSONC), asks before the first start, and drops the server when the file goes", async () => {
    const folder = vscode.workspace.workspaceFolders![0].uri;
    const demo = servers().inspect<Record<string, { command: string; args: string[] }>>('servers')?.globalValue?.demo;
    assert.ok(demo);
    const file = vscode.Uri.joinPath(folder, '.vscode', 'mcp.json');
    const text = `{\n  // VS Code's format, with a comment and a trailing comma\n  "servers": { "filedemo": { "type": "stdio", "command": ${JSON.stringify(demo.command)}, "args": ${JSON.stringify(demo.args)}, }, },\n}\n`;
    const shown = promptShown(api, /^Run server "filedemo" defined by this workspace\?$/);
    await vscode.workspace.fs.writeFile(file, Buffer.from(text));
    await until('filedemo configured', () => api.pool.get('filedemo'));
    await shown;
    await startAtLaunchPrompt();
    await until('filedemo running', () => api.pool.get('filedemo')?.state.kind === 'running' && api.pool.get('filedemo')!.tools.length > 0);
    assert.equal(api.pool.get('filedemo')?.definition.source, 'workspace');
    await vscode.workspace.fs.delete(file);
    await until('filedemo removed', () => !api.pool.get('filedemo'));
  });

  it('"Refresh" lists the tools of a running server again', async () => {
    const demo = servers().inspect<Record<string, { command: string; args: string[] }>>('servers')?.globalValue?.demo;
    assert.ok(demo);
    await setServers({ ...servers().inspect<Record<string, unknown>>('servers')?.globalValue, counting: { ...demo, args: [path.join(FIXTURES, 'counting-tools.cjs')] } });
    await until('counting running', () => api.pool.get('counting')?.state.kind === 'running' && api.pool.get('counting')!.tools.length > 0);
    assert.equal(api.pool.get('counting')!.tools[0].name, 'listed_1');
    await vscode.commands.executeCommand('mcpToolHost.refresh');
    await until('listed again', () => api.pool.get('counting')!.tools[0]?.name === 'listed_2');
  });
});
