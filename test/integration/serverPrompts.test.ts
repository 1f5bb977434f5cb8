import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FormRequest } from '../../src/core/elicitation/formElicitation';
import type { UrlRequest } from '../../src/core/elicitation/urlElicitation';
import { FIXTURES, makeHost, node } from './helpers';

const ELICITS = path.join(FIXTURES, 'elicits.cjs');

/** A user who answers every form at once and remembers who asked, during which calls. */
function scriptedUser() {
  const asked: string[] = [];
  const elicit = async (request: FormRequest | UrlRequest) => {
    asked.push(`${request.server} (${(request.calls ?? []).join(', ')}): ${request.message}`);
    return { action: 'accept' as const, content: { ok: true } };
  };
  return { asked, elicit };
}

/** The lines of the host's log that mention `pattern`. */
const lines = (logs: readonly string[], pattern: RegExp) => logs.filter((l) => pattern.test(l));

/** Issue 31, "Prompts a server can raise": a server asks the user only during its own calls, and only so often. */
describe('prompts a server raises: only during its calls, and only so many', function () {
  this.timeout(60_000);

  for (const [at, when] of [['initialized', 'after initialized'], ['list', 'during tools/list']] as const) {
    it(`a form sent ${when}, when no call of the server runs, is declined without asking; the log says so once`, async () => {
      const user = scriptedUser();
      const host = makeHost({ e: node(ELICITS, { env: { ASK_AT: at } }) }, 'allow-once', { elicit: user.elicit });
      try {
        const server = host.pool.get('e')!;
        await server.start();
        await server.listed();
        // Two more listings: with ASK_AT=list, two more requests outside any call.
        await server.refreshTools();
        await server.refreshTools();
        const outcome = await host.pipeline.call({ server: 'e', tool: 'outside', args: {}, origin: 'api' });
        assert.ok(outcome.kind === 'ok', JSON.stringify(outcome));
        const answers = JSON.parse(outcome.result.text) as { when: string; action?: string }[];
        assert.ok(answers.length >= 1);
        assert.deepEqual(answers.map((a) => a.action), answers.map(() => 'decline'), 'the server heard a decline');
        assert.deepEqual(user.asked, [], 'the user was not asked');
        assert.equal(lines(host.logs, /asked for input while none of its calls was running/).length, 1, host.logs.join('\n'));
      } finally {
        await host.close();
      }
    });
  }

  it('a form that names a task the host does not follow is declined, even during a call', async () => {
    const user = scriptedUser();
    const host = makeHost({ e: node(ELICITS) }, 'allow-once', { elicit: user.elicit });
    try {
      await host.pool.get('e')!.start();
      const outcome = await host.pipeline.call({ server: 'e', tool: 'other-task', args: {}, origin: 'api' });
      assert.ok(outcome.kind === 'ok', JSON.stringify(outcome));
      assert.deepEqual(JSON.parse(outcome.result.text), { action: 'decline' });
      assert.deepEqual(user.asked, []);
      assert.equal(lines(host.logs, /task "never-started", which the host does not follow/).length, 1, host.logs.join('\n'));
    } finally {
      await host.close();
    }
  });

  it('one call that sends 500 forms at once: the user is asked 10 times, the other 490 are declined with one line in the log', async () => {
    const user = scriptedUser();
    const host = makeHost({ e: node(ELICITS) }, 'allow-once', { elicit: user.elicit });
    try {
      await host.pool.get('e')!.start();
      const outcome = await host.pipeline.call({ server: 'e', tool: 'flood', args: {}, origin: 'api' });
      assert.ok(outcome.kind === 'ok', JSON.stringify(outcome));
      assert.deepEqual(JSON.parse(outcome.result.text), { accept: 10, decline: 490, cancel: 0, error: 0 });
      assert.equal(user.asked.length, 10);
      assert.equal(user.asked[0], 'e (flood): One more question');
      assert.equal(lines(host.logs, /more than 10 times during its call "flood"/).length, 1, host.logs.join('\n'));
    } finally {
      await host.close();
    }
  });

  it('the same in the 2026-07-28 era: 500 forms in one input_required round, 10 asked, the rest declined', async () => {
    const user = scriptedUser();
    const host = makeHost({ e: node(ELICITS, { env: { MODERN: '1' } }) }, 'allow-once', { elicit: user.elicit });
    try {
      await host.pool.get('e')!.start();
      const outcome = await host.pipeline.call({ server: 'e', tool: 'flood', args: {}, origin: 'api' });
      assert.ok(outcome.kind === 'ok', JSON.stringify(outcome));
      assert.deepEqual(JSON.parse(outcome.result.text), { accept: 10, decline: 490, cancel: 0, error: 0 });
      assert.equal(user.asked.length, 10);
      assert.equal(lines(host.logs, /more than 10 times during its call "flood"/).length, 1, host.logs.join('\n'));
    } finally {
      await host.close();
    }
  });

  it('all of a server\'s calls together: at most 20 prompts a minute, the rest declined with one line', async () => {
    const user = scriptedUser();
    const host = makeHost({ e: node(ELICITS) }, 'allow-once', { elicit: user.elicit });
    try {
      await host.pool.get('e')!.start();
      const flood = async (count: number) => {
        const outcome = await host.pipeline.call({ server: 'e', tool: 'flood', args: { count }, origin: 'api' });
        assert.ok(outcome.kind === 'ok', JSON.stringify(outcome));
        return JSON.parse(outcome.result.text) as { accept: number; decline: number };
      };
      assert.deepEqual(await flood(8), { accept: 8, decline: 0, cancel: 0, error: 0 });
      assert.deepEqual(await flood(8), { accept: 8, decline: 0, cancel: 0, error: 0 });
      assert.deepEqual(await flood(8), { accept: 4, decline: 4, cancel: 0, error: 0 });
      assert.deepEqual(await flood(8), { accept: 0, decline: 8, cancel: 0, error: 0 });
      assert.equal(user.asked.length, 20);
      assert.equal(lines(host.logs, /more than 20 times in a minute/).length, 1, host.logs.join('\n'));
    } finally {
      await host.close();
    }
  });
});

describe('prompts a server raises during a task the host follows (2025-11-25, related-task)', function () {
  this.timeout(60_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-prompts-task-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a form that names the call\'s own task is asked, naming the call, and the answer reaches the task', async () => {
    const user = scriptedUser();
    const host = makeHost({ t: node(path.join(FIXTURES, 'tasks.cjs'), { env: { TASKS_DIR: dir } }) }, 'allow-once', { elicit: user.elicit });
    try {
      await host.pool.get('t')!.start();
      const outcome = await host.pipeline.call({ server: 't', tool: 'confirm', args: { seconds: 1 }, origin: 'api' });
      assert.ok(outcome.kind === 'ok', JSON.stringify(outcome));
      assert.equal(outcome.result.text, 'confirm: {"action":"accept","content":{"ok":true}}');
      assert.deepEqual(user.asked, ['t (confirm): Go on with the task?']);
    } finally {
      await host.close();
    }
  });
});
