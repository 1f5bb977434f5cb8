import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import type { TreeNode } from '../../src/vscode/tree/treeNodes';
import { until } from './wait';

const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/servers/tasks.cjs');
const settings = () => vscode.workspace.getConfiguration('mcpToolHost');
const iconOf = (item: vscode.TreeItem) => (item.iconPath as vscode.ThemeIcon).id;

/** Long calls that the server runs as tasks, in the real extension: the task row, Cancel Task, Fetch Result. */
describe('tasks in VS Code: a call the server runs as a task', () => {
  let api: McpToolHostApi;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-tasks-'));
  /** The server's rows in the Tools view, as the tree provider gives them. */
  const rows = () => {
    const server = api.tree.getChildren().find((n) => n.kind === 'server' && n.server === 'jobs');
    return server ? api.tree.getChildren(server).map((node) => ({ node, item: api.tree.getTreeItem(node) })) : [];
  };
  const taskRow = () => rows().find((r) => r.node.kind === 'task');

  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    // A 1 s call timeout: every task here outlives it.
    const jobs = { command: process.execPath, args: [FIXTURE], env: { TASKS_DIR: dir }, timeoutSeconds: 1 };
    await settings().update('servers', { ...settings().inspect<Record<string, unknown>>('servers')?.globalValue, jobs }, vscode.ConfigurationTarget.Global);
    await until('jobs running with its tools', () => api.pool.get('jobs')?.state.kind === 'running' && api.pool.get('jobs')!.tools.length > 0);
  });
  after(async () => {
    const servers = { ...settings().inspect<Record<string, unknown>>('servers')?.globalValue };
    delete servers.jobs;
    await settings().update('servers', servers, vscode.ConfigurationTarget.Global);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a running task is a row above the tools, with its status; the status bar counts it; Cancel Task cancels it on the server', async () => {
    const call = api.pipeline.call({ server: 'jobs', tool: 'build', args: { seconds: 30 }, origin: 'api' });
    const row = await until('the task row to say its step', () => {
      const r = taskRow();
      return r && /^working · step \d+ of 60$/.test(String(r.item.description)) && r;
    }).catch(async (err: Error) => {
      throw new Error(`${err.message}; rows: ${JSON.stringify(rows().map((r) => [r.node.kind, r.item.label, r.item.description]))}; tasks: ${JSON.stringify(api.tasks.entries())}; call: ${JSON.stringify(await Promise.race([call, new Promise((r) => setTimeout(() => r('pending'), 100))]))}`);
    });
    assert.equal(row.item.label, 'build (task)');
    assert.equal(row.item.contextValue, 'mcpTask;live;');
    assert.equal(iconOf(row.item), 'sync~spin');
    assert.equal(rows()[0].node.kind, 'task', 'above the tools');
    assert.equal(api.tasks.running, 1);
    await vscode.commands.executeCommand('mcpToolHost.cancelTask', row.node);
    assert.deepEqual(await call, { kind: 'cancelled' });
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { cancelled?: boolean });
    assert.ok(files.some((t) => t.cancelled), 'the server marked it cancelled');
    await until('the row to go', () => !taskRow());
  });

  it('a task cut off from its call (the server restarted) stays, is asked about at the next start, and Fetch Result shows its result', async () => {
    const call = api.pipeline.call({ server: 'jobs', tool: 'build', args: { seconds: 4 }, origin: 'api' });
    await until('the task row', () => taskRow()?.item.contextValue === 'mcpTask;live;');
    await api.pool.get('jobs')!.stop();
    assert.equal((await call).kind, 'failed');
    const earlier = await until('the row to be from an earlier session', () => {
      const r = taskRow();
      return r?.item.contextValue === 'mcpTask;earlier;' && r;
    });
    assert.equal(earlier.item.description, 'from an earlier session');
    assert.equal(iconOf(earlier.item), 'history');
    assert.equal(earlier.item.command?.command, 'mcpToolHost.fetchTaskResult');
    // The server starts again: the host asks it about the task, and the row says what it said.
    await api.pool.get('jobs')!.start();
    await until('the row to show what the server says now', () => /^working · step \d of 8 · from an earlier session$/.test(String(taskRow()?.item.description)));
    const node = taskRow()!.node as TreeNode & { kind: 'task' };
    const outcome = await vscode.commands.executeCommand<{ kind: string; result?: { text: string } }>('mcpToolHost.fetchTaskResult', node);
    assert.deepEqual([outcome.kind, outcome.result?.text], ['ok', 'build finished after 4 s']);
    await until('the row to go once the result is shown', () => !taskRow(), 15_000);
    assert.equal(api.tasks.entries('jobs').length, 0);
  });
});
