import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TaskBoard } from '../../src/core/calls/taskBoard';
import type { FormRequest } from '../../src/core/elicitation/formElicitation';
import type { UrlRequest } from '../../src/core/elicitation/urlElicitation';
import { EVERYTHING, makeHost, node } from '../integration/helpers';
import { runOnTerminal } from '../integration/cliRun';

// Issue 32, "A task that asks never asks": server-everything's Simulate Research Query with
// `ambiguous: true` runs as a 2025-11-25 task that goes input_required and queues an
// elicitation/create (related-task) that only `tasks/result` delivers (spec, Tasks).

const RESEARCH = 'simulate-research-query';
const ARGS = { topic: 'python', ambiguous: true };

/** `work`, or a failure naming `what` after `ms` (a task that never asks would wait forever). */
function within<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms`)), ms)));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

describe('scenario: a 2025-11-25 task that asks for input (server-everything, Simulate Research Query)', function () {
  this.timeout(60_000);
  const asked: (FormRequest | UrlRequest)[] = [];
  const board = new TaskBoard();
  const host = makeHost({ everything: node(EVERYTHING, { args: [EVERYTHING, 'stdio'] }) }, 'allow-once', {
    tasks: board,
    elicit: async (request) => {
      asked.push(request);
      return { action: 'accept', content: { interpretation: 'snake' } };
    },
  });
  before(() => host.pool.get('everything')!.start());
  after(async () => {
    await host.close();
    board.dispose();
  });

  it('the queued question reaches the user (naming the call), the answer reaches the task, and the task completes with it', async () => {
    const seen: string[] = [];
    const listener = board.onDidChange(() => seen.push(...board.entries().map((e) => e.status)));
    const started = performance.now();
    const outcome = await within('the research task', 30_000, host.pipeline.call({ server: 'everything', tool: RESEARCH, args: ARGS, origin: 'api' }));
    const ms = Math.round(performance.now() - started);
    listener.dispose();
    assert.ok(outcome.kind === 'ok', JSON.stringify(outcome));
    assert.match(outcome.result.text, /\*\*Clarification\*\*: snake/);
    assert.equal(asked.length, 1);
    const form = asked[0] as FormRequest;
    assert.deepEqual(form.calls, [RESEARCH]);
    assert.match(form.message, /could have multiple interpretations/);
    assert.deepEqual(form.fields.map((f) => f.name), ['interpretation']);
    assert.ok(seen.includes('input_required'), seen.join(' '));
    assert.deepEqual(board.entries(), []);
    console.log(`      (research task with its answer, end to end: ${ms} ms)`);
  });
});

describe('scenario: the same task from the CLI, answered on a terminal', function () {
  this.timeout(60_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-scenario-cli-'));
  before(() => fs.writeFileSync(path.join(dir, 'everything.json'), JSON.stringify({ servers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } })));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('mcp-tool-host call asks the question on the terminal; the chosen interpretation is in the result', async () => {
    const started = Date.now();
    // "y": answer the form; "3": the third interpretation (Monty Python comedy group).
    const r = await runOnTerminal(['call', 'everything', RESEARCH, '--config', 'everything.json', '--args', JSON.stringify(ARGS)], ['y', '3'], { cwd: dir, env: { ...process.env, XDG_STATE_HOME: dir } });
    const ms = Date.now() - started;
    assert.match(r.output, /"everything" asks during its call "simulate-research-query": The research query "python" could have multiple interpretations/);
    assert.match(r.output, /Monty Python comedy group/);
    assert.match(r.output, /\*\*Clarification\*\*: comedy/);
    assert.equal(r.code, 0, r.output);
    console.log(`      (the CLI, question answered on a terminal, end to end: ${ms} ms)`);
  });
});
