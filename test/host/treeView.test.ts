// The Tools view around the tree: incremental updates and scale, the badge, the status bar, and
// the view's commands in the real extension.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import type { McpToolHostApi } from '../../src/extension';
import { ConfigError } from '../../src/core/errors';
import { Emitter } from '../../src/core/events';
import type { DoctorReport } from '../../src/core/connection/serverDoctor';
import { reportStart } from '../../src/vscode/servers/addServerCommand';
import { addServer, type AddServerQuestions } from '../../src/vscode/servers/addServerWizard';
import { ServerStatusBar } from '../../src/vscode/tree/statusBar';
import type { TreeNode } from '../../src/vscode/tree/treeNodes';
import { ErrorBadge } from '../../src/vscode/tree/viewBadge';
import { DEMO, demoEntry, makePool, type Harness } from './treeHarness';
import { sleep, until } from './wait';

describe('Tools view: updates and scale', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('a change of one server refreshes that server row alone, at once', async () => {
    h = makePool({ hang: new Set(['b']) });
    h.apply({ a: { command: 'node' }, b: { command: 'node' } });
    h.tree.getChildren();
    await sleep(100); // the refresh that apply() asked for
    const fired: (TreeNode | TreeNode[] | undefined)[] = [];
    const sub = h.tree.onDidChangeTreeData((e) => fired.push(e));
    const t0 = Date.now();
    void h.pool.get('b')!.start();
    await until('a refresh', () => fired.length > 0, 2000);
    sub.dispose();
    assert.ok(Date.now() - t0 < 500, 'within half a second');
    assert.deepEqual(fired, [[h.tree.serverNode('b')]]);
  });

  it('stays fast with 50 servers and 10,000 tools', () => {
    const toolsOf = (s: number): Tool[] =>
      Array.from({ length: 200 }, (_, i) => ({
        name: `tool_${s}_${i}`,
        description: `Tool ${i} of server ${s}. `.repeat(5),
        inputSchema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer', minimum: 0 } }, required: ['a'] },
        annotations: i % 3 ? { readOnlyHint: true, openWorldHint: false } : undefined,
      }));
    const cache = Object.fromEntries(Array.from({ length: 50 }, (_, s) => [`s${s}`, toolsOf(s)]));
    h = makePool({ cache });
    h.apply(Object.fromEntries(Object.keys(cache).map((n) => [n, { command: 'node' }])));
    const t0 = performance.now();
    let count = 0;
    for (const server of h.tree.getChildren()) {
      const item = h.tree.getTreeItem(server);
      assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed, 'big servers start collapsed');
      for (const tool of h.tree.getChildren(server)) {
        h.tree.getTreeItem(tool);
        count++;
      }
    }
    const ms = performance.now() - t0;
    assert.equal(count, 10_000);
    console.log(`  10,000 tool rows built in ${ms.toFixed(0)} ms`);
    assert.ok(ms < 1500, `built in ${ms.toFixed(0)} ms`);
    const one = h.tree.getChildren(h.tree.getChildren()[0])[0];
    const t1 = performance.now();
    h.tree.resolveTreeItem(h.tree.getTreeItem(one), one);
    assert.ok(performance.now() - t1 < 50, 'a tooltip is quick');
  });
});

describe('Tools view: badge and status bar', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('the badge counts failed servers and broken entries, and disappears when all is well', async () => {
    h = makePool();
    h.apply({ missing: { command: 'definitely-not-installed-mcp' }, ok: { command: 'node' } }, 'user', [new ConfigError('bad', 'broken')]);
    const view: { badge?: vscode.ViewBadge } = {};
    const badge = new ErrorBadge(h.pool, view);
    assert.deepEqual(view.badge, { value: 1, tooltip: '1 configuration entry is broken' });
    await h.pool.get('missing')!.start();
    assert.deepEqual(view.badge, { value: 2, tooltip: '1 server failed, 1 configuration entry is broken' });
    h.apply({ ok: { command: 'node' } });
    assert.equal(view.badge, undefined);
    badge.dispose();
  });

  it('the status bar shows running servers, calls in flight and failures, and focuses the view', async () => {
    h = makePool();
    h.apply({ demo: demoEntry, idle: { command: 'node' } });
    const calls = new Emitter<number>();
    let inFlight = 0;
    const bar = new ServerStatusBar(h.pool, { get callsInFlight() { return inFlight; }, onDidChangeCallsInFlight: calls.event });
    assert.equal(bar.item.text, '$(tools) MCP 0/2');
    await h.pool.get('demo')!.start();
    assert.equal(bar.item.text, '$(tools) MCP 1/2');
    calls.fire((inFlight = 1));
    assert.equal(bar.item.text, '$(sync~spin) MCP 1/2  1 call');
    assert.match(String(bar.item.tooltip), /1 of 2 servers running\n1 call in flight/);
    assert.equal((bar.item.command as vscode.Command).command, 'mcpToolHost.tools.focus');
    bar.dispose();
  });
});

describe('Tools view: commands in the real extension', () => {
  let api: McpToolHostApi;
  let saved: unknown;
  const config = () => vscode.workspace.getConfiguration('mcpToolHost');

  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    saved = config().inspect('servers')?.globalValue;
    await config().update('servers', { treedemo: demoEntry, treemissing: { command: 'definitely-not-installed-mcp' } }, vscode.ConfigurationTarget.Global);
    await until('treedemo running', () => api.pool.get('treedemo')?.state.kind === 'running' && api.pool.get('treedemo')!.tools.length > 0);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await config().update('servers', saved, vscode.ConfigurationTarget.Global);
  });

  it('registers the view commands', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    for (const c of ['addServer', 'showSchema', 'openServerConfiguration', 'runDoctor', 'openWalkthrough', 'tree.callTool', 'tree.showSchema', 'tree.copyName', 'tree.start', 'tree.stop', 'tree.restart', 'tree.showLog', 'tree.openConfiguration', 'tree.runDoctor']) {
      assert.ok(all.has(`mcpToolHost.${c}`), `mcpToolHost.${c}`);
    }
  });

  it('Show Schema opens the definition as read-only JSON', async () => {
    // The view's rows follow the pool after a short coalescing delay: wait for the tool's row itself.
    const toolNode = () => api.tree.getChildren(api.tree.serverNode('treedemo')).find((n) => n.kind === 'tool' && n.tool === 'fetch_url');
    await until('the fetch_url row', () => toolNode() !== undefined);
    const node = toolNode()!;
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('mcpToolHost.tree.showSchema', node);
    assert.equal(editor.document.uri.scheme, 'mcp-tool-schema');
    assert.equal(editor.document.languageId, 'json');
    const json = JSON.parse(editor.document.getText()) as Tool;
    assert.equal(json.name, 'fetch_url');
    assert.equal(json.annotations?.readOnlyHint, true);
    assert.ok(json.inputSchema.properties?.url);
  });

  it('Copy Name puts the tool name on the clipboard', async () => {
    await vscode.commands.executeCommand('mcpToolHost.tree.copyName', { server: 'treedemo', tool: 'delete_note' });
    assert.equal(await vscode.env.clipboard.readText(), 'delete_note');
  });

  it('Run Doctor reports each step for a healthy server and names the failed step of a broken one', async () => {
    const good = await vscode.commands.executeCommand<DoctorReport>('mcpToolHost.runDoctor', 'treedemo');
    assert.equal(good.ok, true);
    assert.deepEqual(good.steps.map((s) => `${s.step} ${s.ok}`), ['spawn true', 'initialize true', 'tools true']);
    assert.equal(api.pool.get('treedemo')?.state.kind, 'running', 'the live server was left alone');
    const bad = await vscode.commands.executeCommand<DoctorReport>('mcpToolHost.tree.runDoctor', api.tree.serverNode('treemissing'));
    assert.equal(bad.ok, false);
    assert.equal(bad.executable, null);
    assert.deepEqual(bad.steps.map((s) => `${s.step} ${s.ok}`), ['spawn false']);
  });

  it('Open Configuration opens user settings with the server entry selected', async () => {
    await vscode.commands.executeCommand('mcpToolHost.tree.openConfiguration', api.tree.serverNode('treedemo'));
    const editor = await until('settings editor', () => vscode.window.activeTextEditor);
    assert.match(editor.document.uri.path, /settings\.json$/);
    assert.equal(editor.document.getText(editor.selection), '"treedemo"');
  });

  it('Add Server writes a stdio entry with the suggested name to user settings, and it starts', async () => {
    const answers: AddServerQuestions = {
      kind: async () => 'stdio',
      commandLine: async (check) => {
        assert.match(String(check('node "unclosed')), /not closed/);
        return `"${process.execPath}" "${DEMO}"`;
      },
      url: async () => assert.fail('no URL step for stdio'),
      name: async (suggested, check) => {
        assert.equal(suggested, 'demo-2');
        assert.match(String(check('treedemo')), /already have/);
        return suggested;
      },
    };
    const result = await addServer(answers, new Set([...api.pool.connections.map((c) => c.name), 'demo']));
    assert.deepEqual(result, { kind: 'added', name: 'demo-2', entry: { command: process.execPath, args: [DEMO] } });
    // "starting it…" lasts until the server runs (it may not be in the pool yet), then says so
    const reported = reportStart(api.pool, 'demo-2');
    const written = config().inspect<Record<string, unknown>>('servers')?.globalValue;
    assert.deepEqual(written?.['demo-2'], { command: process.execPath, args: [DEMO] });
    await until('demo-2 configured', () => api.pool.get('demo-2'));
    assert.equal((await reported)?.kind, 'running');
  });

  it('Sign Out (loaded with dist/forms.js) stops a running server: its connection still holds the tokens', async () => {
    assert.equal(api.pool.get('treedemo')?.state.kind, 'running');
    await vscode.commands.executeCommand('mcpToolHost.signOut', 'treedemo');
    assert.equal(api.pool.get('treedemo')?.state.kind, 'stopped');
  });
});
