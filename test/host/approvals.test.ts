import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import type { CallOutcome } from '../../src/core/calls/callPipeline';
import { allowDestructive, promptShown, until } from './wait';

const within = <T>(ms: number, what: string, p: Thenable<T>) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms (a prompt appeared?)`)), ms))]);

describe('approvals in the real extension host', () => {
  let api: McpToolHostApi;
  const call = (tool: string, args: Record<string, unknown>) => vscode.commands.executeCommand<CallOutcome>('mcpToolHost.callTool', { server: 'demo', tool, args });

  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    await vscode.commands.executeCommand('mcpToolHost.addDemoServer');
    await until('demo running', () => api.pool.get('demo')?.state.kind === 'running' && api.pool.get('demo')!.tools.length > 0);
    api.pipeline.grants.clear();
  });
  after(async () => {
    api.pipeline.grants.clear();
    await vscode.workspace.getConfiguration('mcpToolHost').update('servers', undefined, vscode.ConfigurationTarget.Global);
  });

  it('"Always allow this tool" covers the next calls without a prompt, until revoked', async () => {
    const first = call('add_note', { name: 'a', text: 'x' }); // not destructive, not open-world: no prompt at all
    assert.equal((await within(5000, 'add_note', first)).kind, 'ok');
    const shown = promptShown(api, /^Approve "Delete Note" \(delete_note\) on demo\?/);
    const pending = call('delete_note', { name: 'a' });
    await shown;
    await allowDestructive('always');
    assert.equal((await pending).kind, 'ok');
    assert.deepEqual(api.pipeline.grants.all.map((g) => [g.scope, g.server, g.tool]), [['tool-always', 'demo', 'delete_note']]);
    const again = await within(5000, 'the second delete_note', call('delete_note', { name: 'b' }));
    assert.equal(again.kind, 'ok');
    api.pipeline.grants.revokeWhere((g) => g.tool === 'delete_note');
    const askedAgain = promptShown(api, /^Approve "Delete Note" \(delete_note\) on demo\?/);
    const asked = call('delete_note', { name: 'c' });
    await askedAgain;
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal((await asked).kind, 'denied', 'asked again after the grant was revoked, and Escape denied');
  });

  it('"Allow this tool for this session" is remembered for the session only', async () => {
    const shown = promptShown(api, /^Approve "Fetch URL" \(fetch_url\) on demo\?/);
    const pending = call('fetch_url', { url: 'http://127.0.0.1:9/none' });
    await shown;
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const outcome = await pending;
    assert.equal(outcome.kind, 'tool-error', 'the demo fetch fails (nothing listens), but it was allowed and sent');
    assert.deepEqual(api.pipeline.grants.all.map((g) => g.scope), ['tool-session']);
  });

  it('registers Manage Approvals, Reset Approvals and Open Audit Log', async () => {
    const all = await vscode.commands.getCommands(true);
    for (const c of ['manageApprovals', 'resetApprovals', 'openAuditLog']) assert.ok(all.includes(`mcpToolHost.${c}`));
  });

  it('Manage Approvals and Reset Approvals (loaded with dist/forms.js) say there is nothing to do, and ask nothing', async () => {
    api.pipeline.grants.clear();
    await within(5000, 'Manage Approvals', vscode.commands.executeCommand('mcpToolHost.manageApprovals'));
    await within(5000, 'Reset Approvals', vscode.commands.executeCommand('mcpToolHost.resetApprovals'));
    assert.deepEqual(api.pipeline.grants.all, []);
  });
});
