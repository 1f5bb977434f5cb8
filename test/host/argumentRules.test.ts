import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import type { CallOutcome } from '../../src/core/calls/callPipeline';
import { promptShown, until } from './wait';

const within = <T>(ms: number, what: string, p: Thenable<T>) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms (a prompt appeared?)`)), ms))]);

/** Argument rules from mcpToolHost.rules in the real extension host, against the demo server. */
describe('argument rules in the real extension host', () => {
  let api: McpToolHostApi;
  const config = () => vscode.workspace.getConfiguration('mcpToolHost');
  const call = (tool: string, args: Record<string, unknown>) => vscode.commands.executeCommand<CallOutcome>('mcpToolHost.callTool', { server: 'demo', tool, args });
  const setRules = (rules: unknown[] | undefined) => config().update('rules', rules, vscode.ConfigurationTarget.Global);

  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    await vscode.commands.executeCommand('mcpToolHost.addDemoServer');
    await until('demo running', () => api.pool.get('demo')?.state.kind === 'running' && api.pool.get('demo')!.tools.length > 0);
    api.pipeline.grants.clear();
  });
  afterEach(() => setRules(undefined));
  after(async () => {
    api.pipeline.grants.clear();
    await config().update('servers', undefined, vscode.ConfigurationTarget.Global);
  });

  it('a deny rule in user settings ends a destructive call with no prompt, says which rule, and the audit log records it', async () => {
    await setRules([{ name: 'keep the welcome note', server: 'demo', tool: 'delete_note', when: [{ pointer: '/name', equals: 'welcome' }], effect: 'deny', reason: 'the walkthrough needs it' }]);
    const outcome = await within(5000, 'a denied delete_note', call('delete_note', { name: 'welcome' }));
    assert.equal(outcome.kind, 'denied');
    assert.match(outcome.kind === 'denied' ? outcome.rule ?? '' : '', /^denied by rule 'keep the welcome note' \(user settings\): the walkthrough needs it/);
    const last = (await auditRecords()).filter((r) => r.tool === 'delete_note').at(-1);
    assert.equal(last?.outcome, 'denied');
    assert.match(last?.decision ?? '', /^denied by rule 'keep the welcome note'/);
  });

  it('an allow rule lets an open-world call run without a prompt; a changed setting holds at the next call, without a reload', async () => {
    await setRules([{ name: 'local fetches', server: 'demo', tool: 'fetch_url', when: [{ pointer: '/url', regex: '^http://127\\.0\\.0\\.1:9/' }], effect: 'allow' }]);
    const outcome = await within(5000, 'an allowed fetch_url', call('fetch_url', { url: 'http://127.0.0.1:9/none' }));
    assert.equal(outcome.kind, 'tool-error', 'allowed and sent (nothing listens on port 9)');
    await setRules([{ name: 'no fetches', server: 'demo', tool: 'fetch_url', effect: 'deny' }]);
    assert.equal((await within(5000, 'a denied fetch_url', call('fetch_url', { url: 'http://127.0.0.1:9/none' }))).kind, 'denied');
  });

  it('an ask rule asks before a call that would never ask (add_note is not destructive), and offers no grant', async () => {
    await setRules([{ name: 'secret notes', server: 'demo', tool: 'add_note', when: [{ pointer: '/name', prefix: 'secret' }], effect: 'ask' }]);
    const forecast = api.pipeline.forecast({ server: 'demo', tool: 'add_note', args: { name: 'secret-plan', text: 'x' } });
    assert.equal(forecast.kind, 'asks');
    assert.equal(forecast.kind === 'asks' && forecast.offerGrants, false);
    assert.match(forecast.sentence, /^asks: needs approval by rule 'secret notes' \(user settings\)/);
    const shown = promptShown(api, /^Approve "Add Note" \(add_note\) on demo\?/);
    const pending = call('add_note', { name: 'secret-plan', text: 'x' });
    await shown;
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal((await pending).kind, 'denied', 'Escape denied');
    assert.equal((await within(5000, 'an add_note the rule does not name', call('add_note', { name: 'plan', text: 'x' }))).kind, 'ok');
  });

  it('a deny rule with a problem is kept as an ask that says so (a typo never loosens)', async () => {
    await setRules([{ name: 'typo', server: 'demo', tool: 'delete_note', when: [{ pointer: 'name', equals: 'x' }], effect: 'deny' }]);
    const forecast = await until('the rules read again', () => {
      const f = api.pipeline.forecast({ server: 'demo', tool: 'delete_note', args: { name: 'y' } });
      return f.kind === 'asks' && /rule 'typo'/.test(f.sentence) ? f : undefined;
    });
    assert.match(forecast.sentence, /the rule has a problem, so it asks/);
  });
});

/** The audit log's records, as "Open Audit Log" shows the file. */
async function auditRecords(): Promise<{ tool: string; decision: string; outcome: string }[]> {
  await vscode.commands.executeCommand('mcpToolHost.openAuditLog');
  const file = await until('the audit log open', () => vscode.window.activeTextEditor?.document.uri.fsPath.endsWith('audit.jsonl') && vscode.window.activeTextEditor.document.uri.fsPath);
  await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  return fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { tool: string; decision: string; outcome: string });
}
