import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CallOutcome } from '../../src/core/calls/callPipeline';
import type { McpToolHostApi } from '../../src/extension';
import { promptShown, until } from './wait';

// Issue 32, where features meet, in the real extension host: a task that asks for input
// (server-everything's Simulate Research Query), and a form whose call ends while it is open.

const EVERYTHING = path.resolve(__dirname, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const ELICITS = path.resolve(__dirname, '../../../test/fixtures/servers/elicits.cjs');
const settings = () => vscode.workspace.getConfiguration('mcpToolHost');
const accept = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
const env = { ELECTRON_RUN_AS_NODE: '1' };

describe('scenario in VS Code: a task that asks, a form whose call ends', function () {
  this.timeout(90_000);
  let api: McpToolHostApi;
  /** The task row of server-everything in the Tools view, as the tree provider gives it. */
  const taskRow = () => {
    const server = api.tree.getChildren().find((n) => n.kind === 'server' && n.server === 'everything');
    const node = server && api.tree.getChildren(server).find((n) => n.kind === 'task');
    return node && { node, item: api.tree.getTreeItem(node) };
  };
  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    const servers = settings().inspect<Record<string, unknown>>('servers')?.globalValue;
    await settings().update(
      'servers',
      {
        ...servers,
        // Idle timeout 1 s: the question is answered well after it.
        everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], env, timeoutSeconds: 1 },
        slowform: { command: process.execPath, args: [ELICITS], env, timeoutSeconds: 1 },
      },
      vscode.ConfigurationTarget.Global,
    );
    await until('everything and slowform running with their tools', () => ['everything', 'slowform'].every((n) => api.pool.get(n)?.state.kind === 'running' && api.pool.get(n)!.tools.length > 0), 40_000);
  });
  after(async () => {
    const servers = { ...settings().inspect<Record<string, unknown>>('servers')?.globalValue };
    delete servers.everything;
    delete servers.slowform;
    await settings().update('servers', servers, vscode.ConfigurationTarget.Global);
  });

  it('a call from the palette or tree becomes a task that asks: the form appears, the row says what it waits for, and the task completes with the answer', async () => {
    const started = Date.now();
    const form = promptShown(api, /^"everything" asks for input during its call "simulate-research-query"$/, 40_000);
    const call = vscode.commands.executeCommand<CallOutcome>('mcpToolHost.callTool', { server: 'everything', tool: 'simulate-research-query', args: { topic: 'python', ambiguous: true } });
    await form;
    // While the form is open, the task's row says what the task waits for.
    const row = await until('the task row to say it waits for an answer', () => {
      const r = taskRow();
      return r && /^waiting for your answer: The research query "python" could have multiple interpretations/.test(String(r.item.description)) && r;
    });
    assert.match(String(row.item.tooltip), /Waits for your answer: The research query "python"/);
    assert.equal(row.item.command?.command, 'mcpToolHost.showTask');
    await new Promise((r) => setTimeout(r, 2_000)); // the user reads: longer than the 1 s idle timeout
    const field = promptShown(api, /^everything \(1\/1\): Clarification/);
    await accept(); // Answer…
    await field;
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext'); // the second choice: the snake
    await accept();
    const outcome = await call;
    assert.ok(outcome?.kind === 'ok', JSON.stringify(outcome));
    assert.match(outcome.result.text, /\*\*Clarification\*\*: snake/);
    await until('the task row to go', () => !taskRow());
    console.log(`      (research task from the palette, answered after 2 s: ${Date.now() - started} ms end to end)`);
  });

  it('a call cancelled while its form is open closes the form: the next form appears at once, and its slow answer still counts', async () => {
    const controller = new AbortController();
    let shown = promptShown(api, /^"slowform" asks for input during its call "profile"$/);
    const cancelled = api.pipeline.call({ server: 'slowform', tool: 'profile', args: {}, origin: 'api', signal: controller.signal });
    await shown;
    controller.abort();
    assert.deepEqual(await cancelled, { kind: 'cancelled' });
    // Prompts are shown one at a time: a form left open would hold the next one back.
    shown = promptShown(api, /^"slowform" asks for input during its call "profile"$/, 10_000);
    const next = api.pipeline.call({ server: 'slowform', tool: 'profile', args: {}, origin: 'api' });
    await shown;
    await new Promise((r) => setTimeout(r, 1_500)); // longer than the 1 s idle timeout
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext'); // Decline
    await accept();
    const outcome = await next;
    assert.ok(outcome.kind === 'ok', JSON.stringify(outcome));
    assert.deepEqual(JSON.parse(outcome.result.text), { action: 'decline' });
  });
});
