import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import type { CallOutcome } from '../../src/core/calls/callPipeline';
import type { InterfaceEvent } from '../../src/vscode/apps/appPanel';
import { sleep, until } from './wait';

// A tool's interface (MCP Apps) in the real workbench, against the npm example server
// basic-vanillajs over stdio: "initialized" only fires when the app's own script ran inside the
// sandboxed srcdoc frame under our CSP and its ui/initialize crossed the relay and came back.
const BASIC = path.resolve(__dirname, '../../../node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js');
const BUDGET = path.resolve(__dirname, '../../../node_modules/@modelcontextprotocol/server-budget-allocator/dist/index.js');
const settings = () => vscode.workspace.getConfiguration('mcpToolHost');
const userServers = () => ({ ...(settings().inspect<Record<string, unknown>>('servers')?.globalValue ?? {}) });
const getTime = () => vscode.commands.executeCommand<CallOutcome>('mcpToolHost.callTool', { server: 'clock', tool: 'get-time', args: {} });
const interfaceTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('mcpToolHost.app'));

describe('tool interfaces (MCP Apps) in the real extension host', () => {
  let api: McpToolHostApi;
  let events: InterfaceEvent[] = [];
  let listener: vscode.Disposable | undefined;
  const saw = (what: InterfaceEvent['what']) => until(`the interface ${what}`, () => events.some((e) => e.what === what && e.tool === 'get-time'), 30_000);

  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    listener = api.onDidInterface((e) => events.push(e));
    // Neither example server annotates its tools (so they count as destructive and open-world): rules allow them.
    await settings().update('rules', [{ name: 'clock', server: 'clock', tool: 'get-time', effect: 'allow' }, { name: 'budget', server: 'budget', tool: 'get-budget-data', effect: 'allow' }], vscode.ConfigurationTarget.Global);
    await settings().update('servers', { ...userServers(), clock: { command: process.execPath, args: [BASIC, '--stdio'], env: { ELECTRON_RUN_AS_NODE: '1' } } }, vscode.ConfigurationTarget.Global);
    await until('clock running', () => api.pool.get('clock')?.state.kind === 'running' && api.pool.get('clock')!.tools.length > 0, 30_000);
  });
  beforeEach(() => (events = []));
  after(async () => {
    listener?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const servers = userServers();
    delete servers.clock;
    delete servers.demo;
    delete servers.budget;
    await settings().update('servers', Object.keys(servers).length ? servers : undefined, vscode.ConfigurationTarget.Global);
    await settings().update('rules', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('apps.enabled', undefined, vscode.ConfigurationTarget.Global);
  });

  it('calling get-time opens its interface in a webview; the app initialises through the sandboxed frame and gets the input and the result', async () => {
    const outcome = await getTime();
    assert.equal(outcome.kind, 'ok');
    await saw('initialized');
    await saw('input-sent');
    await saw('result-sent');
    assert.deepEqual(
      events.map((e) => e.what),
      ['opened', 'initialized', 'input-sent', 'result-sent'],
    );
    assert.equal(interfaceTabs().length, 1, 'one interface tab');
    assert.match(interfaceTabs()[0].label, /get-time \(interface\)/);
  });

  it('"Open Interface" shows the last one again, fed again; a second call replaces it (one tab)', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await until('the interface closed', () => events.some((e) => e.what === 'closed'));
    await vscode.commands.executeCommand('mcpToolHost.openInterface');
    await saw('result-sent');
    assert.equal(interfaceTabs().length, 1);
    events = [];
    assert.equal((await getTime()).kind, 'ok');
    await saw('result-sent');
    assert.equal(interfaceTabs().length, 1, 'the earlier panel was closed');
  });

  it("the demo server's bar_chart has its own interface (offline, hand-written protocol): it initialises and is fed", async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('mcpToolHost.addDemoServer');
    await until('demo running', () => api.pool.get('demo')?.state.kind === 'running' && api.pool.get('demo')!.tools.length > 0);
    events = [];
    const outcome = await vscode.commands.executeCommand<CallOutcome>('mcpToolHost.callTool', { server: 'demo', tool: 'bar_chart', args: { values: [3, 1, 4, 1, 5] } });
    assert.equal(outcome.kind, 'ok');
    await until('the bar chart interface fed', () => events.some((e) => e.tool === 'bar_chart' && e.what === 'result-sent'), 30_000);
    assert.deepEqual(events.filter((e) => e.tool === 'bar_chart').map((e) => e.what), ['opened', 'initialized', 'input-sent', 'result-sent']);
    assert.equal(interfaceTabs().length, 1);
    assert.match(interfaceTabs()[0].label, /bar_chart \(interface\)/);
  });

  it("a second npm example, budget-allocator (a 437 KB interface with structured results), renders and is fed", async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await settings().update('servers', { ...userServers(), budget: { command: process.execPath, args: [BUDGET, '--stdio'], env: { ELECTRON_RUN_AS_NODE: '1' } } }, vscode.ConfigurationTarget.Global);
    await until('budget running', () => api.pool.get('budget')?.state.kind === 'running' && api.pool.get('budget')!.tools.length > 0, 30_000);
    events = [];
    const outcome = await vscode.commands.executeCommand<CallOutcome>('mcpToolHost.callTool', { server: 'budget', tool: 'get-budget-data', args: {} });
    assert.equal(outcome.kind, 'ok');
    await until('the budget interface fed', () => events.some((e) => e.tool === 'get-budget-data' && e.what === 'result-sent'), 30_000);
    assert.deepEqual(events.filter((e) => e.tool === 'get-budget-data').map((e) => e.what), ['opened', 'initialized', 'input-sent', 'result-sent']);
    assert.match(interfaceTabs()[0].label, /get-budget-data \(interface\)/);
  });

  it('with mcpToolHost.apps.enabled off, the call runs and no interface opens', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await settings().update('apps.enabled', false, vscode.ConfigurationTarget.Global);
    events = [];
    assert.equal((await getTime()).kind, 'ok');
    await sleep(1500);
    assert.deepEqual(events, []);
    assert.equal(interfaceTabs().length, 0);
  });
});
