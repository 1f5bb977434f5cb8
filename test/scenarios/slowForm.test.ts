import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { TaskBoard } from '../../src/core/calls/taskBoard';
import type { Elicitor, FormRequest } from '../../src/core/elicitation/formElicitation';
import type { UrlRequest } from '../../src/core/elicitation/urlElicitation';
import { EVERYTHING, FIXTURES, makeHost, node, until } from '../integration/helpers';

// Issue 32, "Time spent answering a form counts against the call's timeout": a call with a 1 s
// idle timeout whose server asks mid-call; the user answers after 2.5 s.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Resolves with the reason when `signal` aborts. */
const whenEnded = (signal: AbortSignal | undefined) => new Promise<unknown>((resolve) => (signal?.aborted ? resolve(signal.reason) : signal?.addEventListener('abort', () => resolve(signal.reason), { once: true })));

for (const era of ['2025-11-25', '2026-07-28'] as const) describe(`scenario: a slow answer to a form during a call (${era})`, function () {
  this.timeout(30_000);
  const modern = era === '2026-07-28' ? { MODERN: '1' } : {};
  let answerAfterMs = 2_500;
  const asked: (FormRequest | UrlRequest)[] = [];
  const ended: unknown[] = [];
  const elicit: Elicitor = async (request) => {
    asked.push(request);
    // The reason its call ended, if it ended before the answer. Then the answer's timer goes: a 60 s
    // one left running kept mocha's process alive that long after its last test.
    let answer: NodeJS.Timeout | undefined;
    const answered = new Promise<'answered'>((resolve) => (answer = setTimeout(() => resolve('answered'), answerAfterMs)));
    const late = await Promise.race([answered, whenEnded(request.callsEnded).then((reason) => ({ reason }))]).finally(() => clearTimeout(answer));
    if (late === 'answered') return { action: 'accept', content: { name: 'Grace', age: 85 } };
    ended.push(late.reason);
    return { action: 'cancel' };
  };
  const host = makeHost(
    {
      // Idle timeout 1 s; in all 60 s.
      e: node(path.join(FIXTURES, 'elicits.cjs'), { timeoutSeconds: 1, env: modern }),
      // Idle timeout 1 s, in all 3 s: the total limit still holds while the user reads.
      short: node(path.join(FIXTURES, 'elicits.cjs'), { timeoutSeconds: 1, maxTotalTimeoutSeconds: 3, env: modern }),
    },
    'allow-once',
    { elicit },
  );
  before(async () => {
    await host.pool.get('e')!.start();
    await host.pool.get('short')!.start();
  });
  after(() => host.close());
  beforeEach(() => {
    asked.length = 0;
    ended.length = 0;
    answerAfterMs = 2_500;
  });

  it('the idle timeout stands still while the user answers: an answer after 2.5 s (idle timeout 1 s) reaches the server, and the call succeeds', async () => {
    const outcome = await host.pipeline.call({ server: 'e', tool: 'profile', args: {}, origin: 'api' });
    assert.ok(outcome.kind === 'ok', JSON.stringify(outcome));
    assert.match(outcome.result.text, /"action":"accept"/);
    assert.match(outcome.result.text, /"name":"Grace"/);
    assert.equal(asked.length, 1);
    assert.deepEqual(ended, []);
  });

  it('the total limit still holds while answering: the prompt knows when its call ends, and is told why it closed (timed out)', async () => {
    answerAfterMs = 60_000;
    const started = Date.now();
    const outcome = await host.pipeline.call({ server: 'short', tool: 'profile', args: {}, origin: 'api' });
    assert.equal(outcome.kind, 'timeout', JSON.stringify(outcome));
    assert.match((outcome as { message: string }).message, /in all \(maxTotalTimeoutSeconds\)/);
    assert.equal(asked.length, 1);
    const endsAt = asked[0].endsAt;
    assert.ok(endsAt !== undefined && endsAt > started + 2_000 && endsAt <= Date.now() + 100, `endsAt ${endsAt} for a call started at ${started}`);
    await until('the prompt to hear its call ended', () => ended.length === 1);
    assert.deepEqual(ended, ['timed-out']);
  });

  it('a call cancelled while its form is open: the prompt hears it, with the reason (cancelled)', async () => {
    answerAfterMs = 60_000;
    const controller = new AbortController();
    const call = host.pipeline.call({ server: 'e', tool: 'profile', args: {}, origin: 'api', signal: controller.signal });
    await until('the form to open', () => asked.length === 1);
    controller.abort();
    assert.deepEqual(await call, { kind: 'cancelled' });
    await until('the prompt to hear its call ended', () => ended.length === 1);
    assert.deepEqual(ended, ['cancelled']);
  });
});

describe('scenario: a slow answer to a task\'s question (server-everything, idle timeout 1 s)', function () {
  this.timeout(60_000);
  const asked: FormRequest[] = [];
  const board = new TaskBoard();
  const host = makeHost({ everything: node(EVERYTHING, { args: [EVERYTHING, 'stdio'], timeoutSeconds: 1 }) }, 'allow-once', {
    tasks: board,
    elicit: async (request) => {
      asked.push(request as FormRequest);
      await sleep(3_000);
      return { action: 'accept', content: { interpretation: 'programming' } };
    },
  });
  before(() => host.pool.get('everything')!.start());
  after(async () => {
    await host.close();
    board.dispose();
  });

  it('the task waits for the answer past the idle timeout, and completes with it', async () => {
    const outcome = await host.pipeline.call({ server: 'everything', tool: 'simulate-research-query', args: { topic: 'python', ambiguous: true }, origin: 'api' });
    assert.ok(outcome.kind === 'ok', JSON.stringify(outcome));
    assert.match(outcome.result.text, /\*\*Clarification\*\*: programming/);
    assert.equal(asked.length, 1);
    // A task runs past the call's timeouts: its prompt names no end.
    assert.equal(asked[0].endsAt, undefined);
    assert.equal(asked[0].tasks?.length, 1);
  });
});
