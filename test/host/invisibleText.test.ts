// Issue 31, "The screen and the disk": in VS Code, every place that shows a call's arguments or a
// server's tool names shows hidden, direction and control characters as escapes, as the approval
// prompt does; names that differ only by such characters read differently. A real server
// (fixtures/servers/invisible-names.cjs) lists such names.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import { CallPipeline } from '../../src/core/calls/callPipeline';
import { SchemaValidator } from '../../src/core/tools/schemaValidator';
import { OutputChannelSink } from '../../src/vscode/calls/outputSink';
import { taskItem } from '../../src/vscode/tree/treeItems';
import { FIXTURES, makePool, plain, type Harness } from './treeHarness';
import { promptShown, until } from './wait';

const SERVER = path.join(FIXTURES, 'invisible-names.cjs');
const inv = { command: process.execPath, args: [SERVER], env: { ELECTRON_RUN_AS_NODE: '1' } };
/** Characters that must never reach the screen raw. */
// eslint-disable-next-line no-control-regex -- these are the characters, by code point
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{E0000}-\u{E007F}]/u;
const ARGS = { path: 'notes/\u202etxt.exe', note: 'a\u200bb\u{E0041}', clear: '\u001b[2J' };

/** A real output channel whose every write is also kept, to read back. */
function recordedChannel(): { readonly channel: vscode.OutputChannel; readonly text: () => string } {
  const real = vscode.window.createOutputChannel('MCP Tool Host (test)');
  let text = '';
  const channel = new Proxy(real, {
    get(target, key) {
      if (key === 'append') return (t: string) => ((text += t), target.append(t));
      if (key === 'appendLine') return (t: string) => ((text += `${t}\n`), target.appendLine(t));
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { channel, text: () => text };
}

describe('names and arguments that hide characters, in VS Code (issue 31)', () => {
  let h: Harness | undefined;
  const started = async () => {
    h = makePool();
    h.apply({ inv });
    await h.pool.get('inv')!.start();
    await until('the tools listed', () => h!.pool.get('inv')!.tools.length === 6);
    return h;
  };
  /** Output channels the tests made: disposed at the end (one disposed while the Output view shows it logs errors). */
  const channels: vscode.OutputChannel[] = [];
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });
  after(() => channels.forEach((c) => c.dispose()));

  it('the output channel shows the arguments and the tool name of a call as escapes', async () => {
    const { pool } = await started();
    const { channel, text } = recordedChannel();
    channels.push(channel);
    const sink = new OutputChannelSink(channel, { maxResultChars: () => 200_000, saveFullResult: async () => ({ leftOut: 'no result here is that long' }) });
    const pipeline = new CallPipeline(pool, new SchemaValidator(), { approve: async () => 'allow-once' }, sink, {});
    const outcome = await pipeline.call({ server: 'inv', tool: 'read\u200b_file', args: ARGS, origin: 'palette' });
    assert.equal(outcome.kind, 'ok', JSON.stringify(outcome));
    const shown = text();
    assert.doesNotMatch(shown, HIDDEN, shown);
    assert.match(shown, /▶ inv \/ read\\u200B_file /);
    assert.ok(shown.includes('arguments: {"path":"notes/\\u202Etxt.exe","note":"a\\u200Bb\\uDB40\\uDC41","clear":"\\u001b[2J"}'), shown);
  });

  it('the Tools view: rows of names that differ only by hidden characters read differently, label and tooltip', async () => {
    const harness = await started();
    const server = harness.server('inv');
    const rows = harness.tree.getChildren(server.node).map((node) => ({ node, item: harness.tree.getTreeItem(node) })).filter((r) => r.node.kind === 'tool');
    assert.deepEqual(rows.map((r) => r.item.label), ['read_file', 'read\\u200B_file', 'read_\\u00ADfile', 'read_file\\u034F', '\\u202Eelif_daer', 'echo']);
    const twin = rows[1];
    const tip = plain(harness.tree.resolveTreeItem(twin.item, twin.node).tooltip);
    assert.doesNotMatch(tip, HIDDEN);
    assert.match(tip, /read\\u200B_file/);
  });

  it("a task row names the tool and the task as escapes", () => {
    const entry = { server: 'inv', tool: 'read\u200b_file', taskId: 't\u202e1', startedAt: new Date().toISOString(), reference: { endpointId: 'e', generation: 'v1' as const, taskId: 't\u202e1', originalOperation: 'tools/call' }, status: 'working' as const, live: true };
    const item = taskItem({ kind: 'task', server: 'inv', taskId: entry.taskId, id: 'task/inv/t1' }, entry);
    assert.equal(item.label, 'read\\u200B_file (task)');
    assert.doesNotMatch(String(item.tooltip), HIDDEN);
    assert.match(String(item.tooltip), /Task t\\u202E1 of read\\u200B_file/);
  });

  describe('in the running extension', () => {
    let api: McpToolHostApi;
    const settings = () => vscode.workspace.getConfiguration('mcpToolHost');
    before(async () => {
      api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
      await settings().update('servers', { ...settings().inspect<Record<string, unknown>>('servers')?.globalValue, inv }, vscode.ConfigurationTarget.Global);
      await until('inv running with its tools', () => api.pool.get('inv')?.state.kind === 'running' && api.pool.get('inv')!.tools.length === 6);
    });
    after(async () => {
      const servers = { ...settings().inspect<Record<string, unknown>>('servers')?.globalValue };
      delete servers.inv;
      await settings().update('servers', servers, vscode.ConfigurationTarget.Global);
    });

    it('the approval prompt names a tool whose name hides a character with the escape, beside its arguments', async () => {
      const shown = promptShown(api, /^Approve /);
      const pending = vscode.commands.executeCommand('mcpToolHost.callTool', { server: 'inv', tool: 'read\u200b_file', args: ARGS });
      const title = await shown;
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      assert.equal(((await pending) as { kind: string }).kind, 'denied');
      assert.doesNotMatch(title, HIDDEN);
      assert.match(title, /^Approve "read\\u200B_file" on inv\? /);
    });
  });
});
