// The task rows of the Tools view: a status change redraws the task's row alone, so its inline
// Cancel Task button keeps its row while the task runs; a task that comes or goes redraws its server.
import * as assert from 'node:assert/strict';
import { TaskBoard, type SavedTask } from '../../src/core/calls/taskBoard';
import { ToolTreeProvider } from '../../src/vscode/tree/toolTree';
import * as treeLater from '../../src/vscode/tree/later';
import type { TaskNode, TreeNode } from '../../src/vscode/tree/treeNodes';
import { makePool, type Harness } from './treeHarness';
import { sleep, until } from './wait';

const task = (taskId: string): SavedTask => ({
  server: 'jobs',
  tool: 'build',
  taskId,
  startedAt: new Date().toISOString(),
  reference: { endpointId: 'jobs', generation: 'v2', taskId, originalOperation: 'tools/call' },
});

describe('Tools view: task rows', () => {
  let h: Harness;
  let board: TaskBoard;
  let tree: ToolTreeProvider;
  let fired: (TreeNode | TreeNode[] | undefined)[];
  afterEach(async () => {
    tree?.dispose();
    board?.dispose();
    await h?.close();
  });

  /** A tree over a board with one running task "t1" under "jobs", drawn once; then the refreshes it asks for are recorded. */
  async function drawn() {
    h = makePool();
    h.apply({ jobs: { command: 'node' }, other: { command: 'node' } });
    board = new TaskBoard();
    tree = new ToolTreeProvider(h.pool, () => ({ tree: treeLater }), { approveAll: () => false }, undefined, board);
    board.started(task('t1'), () => undefined);
    const server = tree.getChildren().find((n) => n.kind === 'server' && n.server === 'jobs')!;
    await sleep(100); // the refreshes that apply() and started() asked for
    fired = [];
    tree.onDidChangeTreeData((e) => fired.push(e));
    return { server, row: () => tree.getChildren(server).find((n): n is TaskNode => n.kind === 'task')! };
  }
  const refreshed = async () => {
    await until('a refresh', () => fired.length > 0, 2000);
    await sleep(50); // and no other
    return fired.splice(0);
  };

  it('a status change of a running task refreshes that task row alone, the same node with the same id', async () => {
    const { row } = await drawn();
    const before = row();
    board.status('jobs', 't1', 'working', 'step 2 of 8');
    assert.deepEqual(await refreshed(), [[before]], 'the task row, not its server');
    assert.equal(row(), before, 'the same node: the view keeps its handle');
    assert.equal(tree.getTreeItem(before).id, 'task:["jobs","t1"]');
    assert.equal(tree.getTreeItem(before).description, 'working · step 2 of 8');
    board.question('jobs', ['t1'], 'Which branch?');
    assert.deepEqual(await refreshed(), [[before]], 'a question it asks: its row too');
  });

  it('a task that starts or ends refreshes its server, and its row keeps its node while it runs', async () => {
    const { server, row } = await drawn();
    const first = row();
    board.started(task('t2'), () => undefined);
    assert.deepEqual(await refreshed(), [[server]], 'a new task: its server');
    assert.equal(tree.getChildren(server).filter((n) => n.kind === 'task').length, 2);
    assert.ok(tree.getChildren(server).includes(first), 'the first task keeps its node');
    board.ended('jobs', 't2', true);
    assert.deepEqual(await refreshed(), [[server]], 'a task gone: its server');
    // Cut off from its call: still there, now from an earlier session (its row only).
    board.ended('jobs', 't1', false);
    assert.deepEqual(await refreshed(), [[first]]);
    assert.equal(tree.getTreeItem(first).contextValue, 'mcpTask;earlier;');
  });
});
