import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import type { CallOutcome } from '../../src/core/calls/callPipeline';
import { FIXTURES, plain } from './treeHarness';
import { until } from './wait';

/** A sandboxed stdio server (issue 17) in the real extension host: its row, its tooltip, and what its tools may touch. */
describe('sandboxed servers in the real extension host', function () {
  this.timeout(60_000);
  let api: McpToolHostApi;
  let dir: string;
  const config = () => vscode.workspace.getConfiguration('mcpToolHost');
  const probe = (args: Record<string, unknown>) => vscode.commands.executeCommand<CallOutcome>('mcpToolHost.callTool', { server: 'boxed', tool: 'probe', args });

  before(async function () {
    if (process.platform !== 'linux') this.skip();
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'boxed-')));
    fs.mkdirSync(path.join(dir, 'allowed'));
    const boxed = {
      // The extension host's Node (Electron on desktop, hence the variable).
      command: process.execPath,
      args: [path.join(FIXTURES, 'sandbox-probe.cjs')],
      env: { ELECTRON_RUN_AS_NODE: '1' },
      sandbox: { filesystem: { allowWrite: [path.join(dir, 'allowed')] }, network: 'none' },
    };
    await config().update('servers', { boxed }, vscode.ConfigurationTarget.Global);
    // The probe declares no annotations (so it may be destructive): an argument rule lets its calls run unasked.
    await config().update('rules', [{ name: 'probe', server: 'boxed', tool: 'probe', effect: 'allow' }], vscode.ConfigurationTarget.Global);
    await until('the sandboxed server running', () => api.pool.get('boxed')?.state.kind === 'running' && api.pool.get('boxed')!.tools.length > 0, 40_000);
  });
  after(async () => {
    await config().update('servers', undefined, vscode.ConfigurationTarget.Global);
    await config().update('rules', undefined, vscode.ConfigurationTarget.Global);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the Tools view marks the server sandboxed, and its tooltip says what it may reach', async () => {
    api.tree.getChildren(undefined); // the rows are made as the view asks for them
    const node = api.tree.serverNode('boxed')!;
    const item = api.tree.getTreeItem(node);
    assert.match(String(item.description), /sandboxed/);
    const resolved = (await api.tree.resolveTreeItem(item, node)) ?? item;
    const tip = plain(resolved.tooltip);
    assert.match(tip, /[Ss]andbox/);
    assert.ok(tip.includes(path.join(dir, 'allowed')), tip);
    assert.match(tip, /network/i);
  });

  it('a tool of the sandboxed server writes in its allowed folder only, and reaches no network', async () => {
    const inside = await probe({ action: 'write', target: path.join(dir, 'allowed', 'a.txt') });
    assert.equal(inside.kind === 'ok' && inside.result.text, 'allowed');
    const outside = await probe({ action: 'write', target: path.join(dir, 'outside.txt') });
    assert.match(outside.kind === 'ok' ? outside.result.text : '', /^denied: E(ROFS|ACCES|PERM)/);
    assert.equal(fs.existsSync(path.join(dir, 'outside.txt')), false);
    const server = net.createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((server.address() as net.AddressInfo).port);
      const connect = await probe({ action: 'connect', target: port });
      assert.match(connect.kind === 'ok' ? connect.result.text : JSON.stringify(connect), /^denied: /);
    } finally {
      server.close();
    }
  });
});
