import * as assert from 'node:assert/strict';
import { abortSignalOf, CallCancel } from '../../src/core/callSignal';

describe("a call's light signal (CallCancel)", () => {
  it('calls each listener once, in order, with the reason an AbortSignal would have', () => {
    const cancel = new CallCancel();
    const heard: string[] = [];
    const first = () => heard.push(`first:${String(cancel.signal.aborted)}`);
    const second = () => heard.push('second');
    const removed = () => heard.push('removed');
    cancel.signal.addEventListener('abort', first);
    cancel.signal.addEventListener('abort', first, { once: true });
    cancel.signal.addEventListener('abort', second);
    cancel.signal.addEventListener('abort', removed);
    cancel.signal.removeEventListener('abort', removed);
    assert.equal(cancel.signal.aborted, false);
    assert.doesNotThrow(() => cancel.signal.throwIfAborted());
    cancel.abort();
    cancel.abort('again');
    assert.deepEqual(heard, ['first:true', 'second'], 'a listener added twice is called once; a removed one never; a second abort changes nothing');
    assert.ok(cancel.signal.reason instanceof DOMException && cancel.signal.reason.name === 'AbortError');
    assert.throws(() => cancel.signal.throwIfAborted(), (err: unknown) => err === cancel.signal.reason);
    cancel.signal.addEventListener('abort', () => heard.push('late'));
    assert.deepEqual(heard, ['first:true', 'second'], 'a listener added after the abort is never called');
  });

  it('keeps the reason it was given, and a listener that throws does not stop the others', async () => {
    const cancel = new CallCancel();
    const heard: string[] = [];
    const reported: unknown[] = [];
    // The thrown error is reported as uncaught, as an EventTarget reports it: heard here, not by the test runner.
    const runner = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', (err) => reported.push(err));
    try {
      cancel.signal.addEventListener('abort', () => {
        throw new Error('listener failed');
      });
      cancel.signal.addEventListener('abort', () => heard.push('after'));
      cancel.abort('stopped by the client');
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.removeAllListeners('uncaughtException');
      for (const listener of runner) process.on('uncaughtException', listener);
    }
    assert.equal(cancel.signal.reason, 'stopped by the client');
    assert.deepEqual(heard, ['after']);
    assert.deepEqual(reported.map((e) => (e as Error).message), ['listener failed']);
  });

  it('gives an API that needs an AbortSignal one that follows it, made once', () => {
    const real = new AbortController().signal;
    assert.equal(abortSignalOf(real), real, 'an AbortSignal is passed as it is');
    assert.equal(abortSignalOf(undefined), undefined);
    const cancel = new CallCancel();
    const made = abortSignalOf(cancel.signal);
    assert.ok(made instanceof AbortSignal);
    assert.equal(abortSignalOf(cancel.signal), made, 'one AbortSignal for a light one');
    const both = AbortSignal.any([made, new AbortController().signal]);
    cancel.abort('gone');
    assert.equal(made.aborted, true);
    assert.equal(made.reason, 'gone');
    assert.equal(both.aborted, true, 'it works where the platform wants a real one');
    const already = new CallCancel();
    already.abort('before');
    assert.equal(abortSignalOf(already.signal).reason, 'before', 'one made after the abort is aborted');
  });
});
