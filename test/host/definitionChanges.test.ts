import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import type { CallOutcome } from '../../src/core/calls/callPipeline';
import type { TreeNode } from '../../src/vscode/tree/treeNodes';
import { allowDestructive, promptShown, until } from './wait';

const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/servers/hostile.cjs');

describe('a tool that changes after first sight (trust on first use)', () => {
  let api: McpToolHostApi;
  const toolRow = () => {
    const server = api.tree.getChildren().find((n) => n.kind === 'server' && n.server === 'hostile');
    const node = server && api.tree.getChildren(server).find((n) => n.kind === 'tool' && n.tool === 'rug_pull');
    return node && { node, item: api.tree.getTreeItem(node as TreeNode) };
  };

  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    await vscode.workspace.getConfiguration('mcpToolHost').update('servers', { hostile: { command: process.execPath, args: [FIXTURE] } }, vscode.ConfigurationTarget.Global);
    await until('the hostile server to list rug_pull', toolRow);
  });
  after(() => vscode.workspace.getConfiguration('mcpToolHost').update('servers', undefined, vscode.ConfigurationTarget.Global));

  it('marks the tool as changed, and Accept Changes clears the mark', async () => {
    assert.ok(toolRow(), 'the hostile server lists rug_pull');
    assert.doesNotMatch(String(toolRow()!.item.description), /changed/);
    const shown = promptShown(api, / on hostile\? \[/);
    const pending = vscode.commands.executeCommand<CallOutcome>('mcpToolHost.callTool', { server: 'hostile', tool: 'rug_pull', args: {} });
    await shown;
    await allowDestructive('once');
    assert.equal((await pending).kind, 'ok');
    await until('the changed mark', () => /changed/.test(String(toolRow()?.item.description)), 10_000);
    const row = toolRow()!;
    assert.match(String(row.item.description), /^changed! · /);
    assert.match(String(row.item.contextValue), /;changed;$/);
    await vscode.commands.executeCommand('mcpToolHost.acceptChanges', row.node);
    assert.doesNotMatch(String(toolRow()!.item.description), /changed/);
  });
});
