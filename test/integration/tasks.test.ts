import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TaskBoard, type SavedTask, type TaskMemory } from '../../src/core/calls/taskBoard';
import { FIXTURES, makeHost, node, until } from './helpers';

/** A TaskMemory that a second board can read, as workspace state survives a window reload. */
function memory(): TaskMemory & { saved: readonly SavedTask[] } {
  const kept = { saved: [] as readonly SavedTask[], load: () => kept.saved, save: (tasks: readonly SavedTask[]) => void (kept.saved = tasks) };
  return kept;
}

const polls = (dir: string) => (fs.existsSync(path.join(dir, 'polls.log')) ? fs.readFileSync(path.join(dir, 'polls.log'), 'utf8').trim().split('\n') : []);

// The same cases in both eras: 2025-11-25 tasks, and the 2026-07-28 tasks extension (SEP-2663, MODERN=1).
for (const era of ['2025-11-25', '2026-07-28'] as const) describe(`tool calls that the server runs as tasks (${era})`, function () {
  this.timeout(60_000);
  const modern = era === '2026-07-28' ? { MODERN: '1' } : {};
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-tasks-test-'));
  const saved = memory();
  const board = new TaskBoard(saved);
  // A call timeout of 1 s: every task here outlives it.
  const host = makeHost({ t: node(path.join(FIXTURES, 'tasks.cjs'), { timeoutSeconds: 1, env: { TASKS_DIR: dir, ...modern } }) }, 'allow-once', { tasks: board });
  before(async () => {
    await host.pool.get('t')!.start();
    assert.equal((host.pool.get('t')!.state as { protocolVersion?: string }).protocolVersion, era);
  });
  after(async () => {
    await host.close();
    board.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => (host.events.length = 0));

  it('a tool that requires tasks runs as one past the call timeout, its status on the call\'s lines, its result like any result', async () => {
    const seen: string[] = [];
    const listener = board.onDidChange(() => seen.push(board.entries().map((e) => `${e.tool}:${e.status}:${e.live}`).join(',')));
    // 4.5 s: a changed status gets a line at most every 2 s (TASK_LINE_MS), and polls back off, so a later step shows even on a busy machine.
    const outcome = await host.pipeline.call({ server: 't', tool: 'build', args: { seconds: 4.5 }, origin: 'api' });
    listener.dispose();
    assert.ok(outcome.kind === 'ok' && outcome.result.text === 'build finished after 4.5 s', JSON.stringify(outcome));
    assert.ok(host.events.some((e) => /^task task-\d+-\w+: the server runs this call as a task/.test(e)), host.events.join('\n'));
    assert.ok(host.events.includes('task working: step 1 of 9'), host.events.join('\n'));
    assert.ok(host.events.some((e) => /^task working: step [2-9] of 9$/.test(e)), host.events.join('\n'));
    assert.match(host.events.at(-1)!, /^end result \(\d+ ms\):$/);
    // The board showed it running, and let it go once its result was shown.
    assert.ok(seen.includes('build:working:true'), seen.join(' | '));
    assert.deepEqual(board.entries(), []);
    assert.deepEqual(saved.saved, []);
  });

  it('a plain call\'s progress is shown and keeps it alive past the 1 s call timeout (in the 2026-07-28 era through the Tasks package too)', async () => {
    const outcome = await host.pipeline.call({ server: 't', tool: 'progressive', args: { seconds: 1.8 }, origin: 'api' });
    assert.ok(outcome.kind === 'ok' && outcome.result.text === 'progressive: 6 steps', JSON.stringify(outcome));
    assert.ok(host.events.includes('progress 6/6'), host.events.join('\n'));
    assert.ok(!host.logs.some((l) => /unknown token|progress notification/i.test(l)), host.logs.join('\n'));
  });

  it('a tool that may run as a task is called as one', async () => {
    const outcome = await host.pipeline.call({ server: 't', tool: 'report', args: {}, origin: 'api' });
    assert.ok(outcome.kind === 'ok' && outcome.result.text === 'report finished after 1 s', JSON.stringify(outcome));
  });

  it('a failed task fails the call with what the server said', async () => {
    const outcome = await host.pipeline.call({ server: 't', tool: 'breaks', args: { seconds: 0.5 }, origin: 'api' });
    assert.deepEqual(outcome, { kind: 'failed', message: 'The task failed: the build broke', sent: true });
    assert.deepEqual(board.entries(), []);
  });

  it('cancelling the call cancels the task on the server', async () => {
    const controller = new AbortController();
    const call = host.pipeline.call({ server: 't', tool: 'build', args: { seconds: 30 }, origin: 'api', signal: controller.signal });
    await until('the task to start', () => board.entries().length === 1);
    controller.abort();
    assert.deepEqual(await call, { kind: 'cancelled' });
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { seconds: number; cancelled?: boolean });
    assert.equal(files.find((t) => t.seconds === 30)?.cancelled, true);
    assert.deepEqual(board.entries(), []);
  });

  it('Cancel Task on the board cancels it too', async () => {
    const call = host.pipeline.call({ server: 't', tool: 'build', args: { seconds: 31 }, origin: 'api' });
    await until('the task to start', () => board.entries().length === 1);
    const [entry] = board.entries();
    assert.equal(board.cancel('t', entry.taskId), true);
    assert.deepEqual(await call, { kind: 'cancelled' });
    assert.equal(board.cancel('t', entry.taskId), false, 'nothing left to cancel');
    const kept = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { seconds: number; cancelled?: boolean });
    assert.equal(kept.find((t) => t.seconds === 31)?.cancelled, true, 'the server heard tasks/cancel');
  });

  it('a hostile task: a 0 ms poll interval is not polled flat out, and its status cannot forge lines', async () => {
    const before = polls(dir).length;
    const outcome = await host.pipeline.call({ server: 't', tool: 'hostile', args: { seconds: 2 }, origin: 'api' });
    assert.equal(outcome.kind, 'ok');
    const asked = polls(dir).length - before;
    // 2 s at the 250 ms floor: about 8 polls (the package's own 10 ms floor would be 200).
    assert.ok(asked >= 3 && asked <= 12, `${asked} polls in 2 s`);
    const status = host.events.filter((e) => e.startsWith('task working'));
    assert.ok(status.length > 0);
    // eslint-disable-next-line no-control-regex -- the escape is what must not get through
    for (const line of status) assert.doesNotMatch(line, /[\u001b\n\r]/, JSON.stringify(line));
  });

  it('a task outlives its session: after the server restarts (a window reload), Fetch Result picks it up', async () => {
    const call = host.pipeline.call({ server: 't', tool: 'build', args: { seconds: 3 }, origin: 'api' });
    await until('the task to start', () => board.entries().length === 1);
    await host.pool.get('t')!.stop();
    const cut = await call;
    assert.equal(cut.kind, 'failed', JSON.stringify(cut));
    // Kept for the next session, as a reload would find it, in its era's generation.
    assert.equal(saved.saved.length, 1);
    assert.equal(saved.saved[0].reference.generation, era === '2026-07-28' ? 'v2' : 'v1');
    const reloaded = new TaskBoard(saved);
    const [earlier] = reloaded.entries();
    assert.deepEqual({ tool: earlier.tool, status: earlier.status, live: earlier.live }, { tool: 'build', status: 'earlier', live: false });
    reloaded.dispose();
    // This session's board kept it too; the server starts again (a new process, the same task files).
    assert.equal(board.entries()[0].status, 'earlier');
    await host.pool.get('t')!.start();
    // Asked again, the server says it still runs.
    assert.deepEqual(await host.pipeline.checkEarlierTasks('t'), []);
    assert.deepEqual([board.entries()[0].status, board.entries()[0].live], ['working', false]);
    assert.match(board.entries()[0].statusMessage ?? '', /^step \d of 6$/);
    host.events.length = 0;
    const fetched = await host.pipeline.fetchTaskResult({ server: 't', taskId: earlier.taskId, origin: 'api' });
    assert.ok(fetched.kind === 'ok' && fetched.result.text === 'build finished after 3 s', JSON.stringify(fetched));
    assert.equal(host.events[0], 'begin t/build');
    assert.ok(host.events.includes(`task ${earlier.taskId}: started ${earlier.startedAt}; asking the server for it`), host.events.join('\n'));
    assert.deepEqual(board.entries(), []);
    assert.deepEqual(saved.saved, []);
  });

  it('a task the server no longer knows: Fetch Result says so, and the task is dropped', async () => {
    const call = host.pipeline.call({ server: 't', tool: 'build', args: { seconds: 5 }, origin: 'api' });
    await until('the task to start', () => board.entries().length === 1);
    await host.pool.get('t')!.stop();
    await call;
    for (const f of fs.readdirSync(dir)) if (f.endsWith('.json')) fs.rmSync(path.join(dir, f));
    await host.pool.get('t')!.start();
    const [entry] = board.entries();
    const fetched = await host.pipeline.fetchTaskResult({ server: 't', taskId: entry.taskId, origin: 'api' });
    assert.equal(fetched.kind, 'protocol-error', JSON.stringify(fetched));
    assert.match((fetched as { message: string }).message, /Unknown task/);
    assert.deepEqual(board.entries(), []);
    // Asked on its own (as at each start of the server), it is dropped too, saying why.
    const gone = { ...entry, taskId: 'task-gone-too', reference: { ...entry.reference, taskId: 'task-gone-too' } };
    board.started(gone, () => undefined);
    board.ended('t', gone.taskId, false);
    assert.deepEqual(await host.pipeline.checkEarlierTasks('t'), ['Task task-gone-too of "build" is no longer known to the server: invalid params: Unknown task: task-gone-too']);
    assert.deepEqual(board.entries(), []);
  });

  it('a server that does not run tasks gets a plain call, even for a tool that declares them', async () => {
    const plain = makeHost({ p: node(path.join(FIXTURES, 'tasks.cjs'), { env: { NO_TASKS: '1', TASKS_DIR: dir, ...modern } }) }, 'allow-once', { tasks: board });
    try {
      await plain.pool.get('p')!.start();
      const outcome = await plain.pipeline.call({ server: 'p', tool: 'build', args: {}, origin: 'api' });
      assert.ok(outcome.kind === 'ok' && outcome.result.text === 'build: done at once (not as a task)', JSON.stringify(outcome));
    } finally {
      await plain.close();
    }
  });
});

for (const era of ['2025-11-25', '2026-07-28'] as const) describe(`a task whose server goes away during a poll (${era})`, function () {
  this.timeout(30_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-tasks-gone-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is kept for the next session: a poll that failed on our side is not the server\'s word that the task ended', async () => {
    // A window reload stops the server while a task poll is in flight: whether the poll fails or
    // the exit is seen first is a race, and losing it dropped the task (the UI test caught it, sometimes).
    const saved = memory();
    const board = new TaskBoard(saved);
    const modern = era === '2026-07-28' ? { MODERN: '1' } : {};
    const host = makeHost({ t: node(path.join(FIXTURES, 'tasks.cjs'), { timeoutSeconds: 1, env: { TASKS_DIR: dir, EXIT_ON_POLL: '1', ...modern } }) }, 'allow-once', { tasks: board });
    try {
      await host.pool.get('t')!.start();
      const cut = await host.pipeline.call({ server: 't', tool: 'build', args: { seconds: 10 }, origin: 'api' });
      assert.equal(cut.kind, 'failed', JSON.stringify(cut));
      assert.equal(saved.saved.length, 1, 'the task was dropped');
      assert.deepEqual(board.entries().map((e) => [e.tool, e.status, e.live]), [['build', 'earlier', false]]);
    } finally {
      await host.close();
      board.dispose();
    }
  });
});

describe('a hostile 2026-07-28 server of the tasks extension', function () {
  this.timeout(60_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-tasks-hostile-'));
  const board = new TaskBoard(memory());
  const script = path.join(FIXTURES, 'tasks.cjs');
  const host = makeHost(
    {
      t: node(script, { timeoutSeconds: 1, env: { TASKS_DIR: dir, MODERN: '1' } }),
      u: node(script, { timeoutSeconds: 1, env: { TASKS_DIR: dir, MODERN: '1', NO_TASKS: '1', UNASKED_TASKS: '1' } }),
    },
    'allow-once',
    { tasks: board },
  );
  before(() => Promise.all([host.pool.get('t')!.start(), host.pool.get('u')!.start()]));
  after(async () => {
    await host.close();
    board.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a call answered twice: the first answer counts, the second is dropped', async () => {
    const outcome = await host.pipeline.call({ server: 't', tool: 'twice', args: { seconds: 0.5 }, origin: 'api' });
    assert.ok(outcome.kind === 'ok' && outcome.result.text === 'twice finished after 0.5 s', JSON.stringify(outcome));
  });

  it('an answer under an id the host never used is dropped; the call times out, and the session goes on', async () => {
    const outcome = await host.pipeline.call({ server: 't', tool: 'wrong_id', args: {}, origin: 'api' });
    assert.equal(outcome.kind, 'timeout', JSON.stringify(outcome));
    assert.match((outcome as { message: string }).message, /no result or progress for 1 s/);
    const next = await host.pipeline.call({ server: 't', tool: 'build', args: { seconds: 0.3 }, origin: 'api' });
    assert.ok(next.kind === 'ok' && next.result.text === 'build finished after 0.3 s', JSON.stringify(next));
  });

  it('a call never answered times out at the call timeout', async () => {
    const started = Date.now();
    const outcome = await host.pipeline.call({ server: 't', tool: 'silent', args: {}, origin: 'api' });
    assert.equal(outcome.kind, 'timeout', JSON.stringify(outcome));
    assert.match((outcome as { message: string }).message, /no result or progress for 1 s/);
    assert.ok(Date.now() - started < 5_000);
  });

  it('a task id of 100,000 characters is refused, not followed, shown or kept', async () => {
    const outcome = await host.pipeline.call({ server: 't', tool: 'huge_id', args: {}, origin: 'api' });
    assert.equal(outcome.kind, 'failed', JSON.stringify(outcome));
    assert.match((outcome as { message: string }).message, /^The server gave its task an id of 100005 characters \(at most 200 are accepted\)/);
    assert.ok(host.events.every((e) => e.length < 1000), 'no line carries the id');
    assert.deepEqual(board.entries(), []);
  });

  it('a task handle for a call that asked for none (no extension declared) fails the call, saying so', async () => {
    const outcome = await host.pipeline.call({ server: 'u', tool: 'build', args: {}, origin: 'api' });
    assert.deepEqual(outcome, { kind: 'failed', message: "Unsupported result type 'task' for tools/call", sent: true });
    assert.deepEqual(board.entries(), []);
  });
});

describe('a 2026-07-28 task that asks for input (input_required, tasks/update)', function () {
  this.timeout(60_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-tasks-ask-'));
  const asked: string[] = [];
  const host = makeHost({ t: node(path.join(FIXTURES, 'tasks.cjs'), { timeoutSeconds: 1, env: { TASKS_DIR: dir, MODERN: '1' } }) }, 'allow-once', {
    tasks: new TaskBoard(memory()),
    elicit: async (request) => {
      asked.push(`${request.server} (${(request.calls ?? []).join(', ')}): ${request.message}`);
      return { action: 'accept', content: { branch: 'release' } };
    },
  });
  before(() => host.pool.get('t')!.start());
  after(async () => {
    await host.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the form goes to the same prompt as elicitation, naming server and call; the answer reaches the task, which completes', async () => {
    const outcome = await host.pipeline.call({ server: 't', tool: 'ask', args: {}, origin: 'api' });
    assert.ok(outcome.kind === 'ok', JSON.stringify(outcome));
    assert.equal(outcome.result.text, 'ask: {"action":"accept","content":{"branch":"release"}}');
    assert.deepEqual(asked, ['t (ask): Which branch?']);
    assert.ok(host.events.includes('task input_required: waiting for an answer'), host.events.join('\n'));
  });
});

describe('the task board', function () {
  it('reads kept tasks as untrusted: damaged or oversized entries are dropped', () => {
    const reference = { endpointId: 'e', generation: 'v1' as const, taskId: 'a', originalOperation: 'tools/call' };
    const good: SavedTask = { server: 's', tool: 't', taskId: 'a', startedAt: '2026-11-23T00:00:00.000Z', reference };
    const kept = [good, { ...good, taskId: 'x'.repeat(201), reference: { ...reference, taskId: 'x'.repeat(201) } }, { ...good, taskId: 'b' }, null, { server: 1 }] as unknown as SavedTask[];
    const board = new TaskBoard({ load: () => kept, save: () => undefined });
    assert.deepEqual(board.entries().map((e) => e.taskId), ['a']);
    board.dispose();
  });

  it('keeps at most 50 tasks for the next session, the newest', () => {
    let saved: readonly SavedTask[] = [];
    const board = new TaskBoard({ load: () => [], save: (tasks) => void (saved = tasks) });
    for (let i = 0; i < 60; i++) {
      const taskId = `task-${String(i).padStart(2, '0')}`;
      board.started({ server: 's', tool: 't', taskId, startedAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), reference: { endpointId: 'e', generation: 'v1', taskId, originalOperation: 'tools/call' } }, () => undefined);
    }
    assert.equal(saved.length, 50);
    assert.equal(saved[0].taskId, 'task-59');
    board.dispose();
  });
});
