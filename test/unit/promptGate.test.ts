import * as assert from 'node:assert/strict';
import { MAX_PROMPTS_PER_CALL, MAX_PROMPTS_PER_SERVER, PROMPT_WINDOW_MS, PromptGate } from '../../src/core/connection/promptGate';

const naming = (taskId: unknown) => ({ kind: 'request' as const, params: { message: 'm', _meta: { 'io.modelcontextprotocol/related-task': { taskId } } } });
const plain = { kind: 'request' as const, params: { message: 'm' } };

/** A gate on a clock the test moves, and the lines it said. */
function gate() {
  const said: string[] = [];
  let now = 1_000_000;
  const prompts = new PromptGate((s) => said.push(s), () => now);
  return { prompts, said, later: (ms: number) => void (now += ms) };
}

describe('which prompts of a server reach the user (promptGate.ts, issue 31)', () => {
  it('a request that names no task belongs to the calls in flight, all of them; with none it is declined, said once a session', () => {
    const { prompts, said } = gate();
    assert.equal(prompts.admit(plain), undefined);
    assert.equal(prompts.admit(plain), undefined);
    assert.equal(said.length, 1);
    const a = prompts.begin('a');
    const b = prompts.begin('b');
    assert.deepEqual(prompts.admit(plain)?.calls, ['a', 'b']);
    prompts.end(a);
    prompts.end(b);
    prompts.newSession();
    assert.equal(prompts.admit(plain), undefined);
    assert.equal(said.length, 2, 'a new session says it again, once');
  });

  it('a request naming a task belongs to the call following it (a call that became it, or a resumed task), and to no other', () => {
    const { prompts, said } = gate();
    const build = prompts.begin('build');
    build.taskId = 't-1';
    const resumed = prompts.begin('deploy', 't-2');
    prompts.begin('other');
    assert.deepEqual(prompts.admit(naming('t-1'))?.calls, ['build']);
    assert.deepEqual(prompts.admit(naming('t-2'))?.calls, ['deploy']);
    assert.equal(prompts.admit(naming('t-3')), undefined);
    assert.equal(prompts.admit(naming(42)), undefined, 'a task id that is not a string names no task of ours');
    assert.match(said.join('\n'), /task "t-3", which the host does not follow/);
    assert.match(said.join('\n'), /naming a task without a valid id/);
    prompts.end(resumed);
    assert.equal(prompts.admit(naming('t-2')), undefined, 'once no longer followed, its task is not ours');
    assert.equal(said.length, 2, 'each kind of decline said once');
  });

  it('a call sent as a task whose id is not known yet takes a request naming a new task', () => {
    const { prompts } = gate();
    const call = prompts.begin('build');
    assert.equal(prompts.admit(naming('new')), undefined);
    call.becomingTask = true;
    assert.deepEqual(prompts.admit(naming('new'))?.calls, ['build']);
    call.becomingTask = false;
    call.taskId = 'new';
    assert.deepEqual(prompts.admit(naming('new'))?.calls, ['build']);
  });

  it(`at most ${MAX_PROMPTS_PER_CALL} prompts a call: the rest declined, said once for that call`, () => {
    const { prompts, said } = gate();
    const call = prompts.begin('flood');
    const admitted = Array.from({ length: 3 * MAX_PROMPTS_PER_CALL }, () => prompts.admit({ kind: 'call', call })).filter(Boolean);
    assert.equal(admitted.length, MAX_PROMPTS_PER_CALL);
    assert.deepEqual(said, [`The server asked for input more than ${MAX_PROMPTS_PER_CALL} times during its call "flood": declined, and so is every further request of that call (at most ${MAX_PROMPTS_PER_CALL} prompts a call).`]);
  });

  it(`at most ${MAX_PROMPTS_PER_SERVER} prompts a minute for a server; after the minute, more; each crowded minute said once`, () => {
    const { prompts, said, later } = gate();
    const ask = () => prompts.admit({ kind: 'call', call: prompts.begin('t') });
    assert.equal(Array.from({ length: MAX_PROMPTS_PER_SERVER + 5 }, ask).filter(Boolean).length, MAX_PROMPTS_PER_SERVER);
    assert.equal(said.length, 1);
    later(PROMPT_WINDOW_MS / 2);
    assert.equal(ask(), undefined);
    later(PROMPT_WINDOW_MS / 2);
    assert.ok(ask(), 'the minute is over');
    assert.equal(Array.from({ length: MAX_PROMPTS_PER_SERVER }, ask).filter(Boolean).length, MAX_PROMPTS_PER_SERVER - 1);
    assert.equal(said.length, 2, 'the next crowded minute is said again');
  });

  it('a prompt carries a signal that aborts when every call it may belong to has ended', () => {
    const { prompts } = gate();
    const a = prompts.begin('a');
    const b = prompts.begin('b');
    const ended = prompts.admit(plain)!.callsEnded;
    prompts.end(a);
    assert.equal(ended.aborted, false);
    prompts.end(b);
    assert.equal(ended.aborted, true);
  });

  it("the caller's abort closes a call's open prompt at once, and is listened to only while a prompt of it is open", () => {
    const { prompts } = gate();
    const caller = new AbortController();
    let listening = 0;
    const add = caller.signal.addEventListener.bind(caller.signal);
    const remove = caller.signal.removeEventListener.bind(caller.signal);
    caller.signal.addEventListener = (...args: Parameters<AbortSignal['addEventListener']>) => void (listening++, add(...args));
    caller.signal.removeEventListener = (...args: Parameters<AbortSignal['removeEventListener']>) => void (listening--, remove(...args));
    const quiet = prompts.begin('quiet', undefined, caller.signal);
    assert.equal(listening, 0, 'a call that raises no prompt adds no listener');
    prompts.end(quiet);
    const asking = prompts.begin('asking', undefined, caller.signal);
    const ended = prompts.admit(plain)!.callsEnded;
    assert.equal(listening, 1);
    caller.abort();
    assert.equal(ended.aborted, true, 'the prompt closes at the abort, before the call itself ends');
    assert.equal(ended.reason, 'cancelled');
    assert.equal(listening, 0);
    assert.equal(asking.ended, 'cancelled');
  });

  it('a call whose caller aborted before it asked: a request is declined as outside calls, its own prompt closed as it opens', () => {
    const { prompts, said } = gate();
    const caller = new AbortController();
    const late = prompts.begin('late', undefined, caller.signal);
    caller.abort();
    assert.equal(prompts.admit(plain), undefined);
    assert.match(said.join('\n'), /while none of its calls was running/);
    assert.equal(prompts.admit({ kind: 'call', call: late })!.callsEnded.aborted, true);
  });
});
