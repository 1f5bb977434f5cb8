import * as assert from 'node:assert/strict';
import { ProgressCoalescer, type Progress } from '../../src/core/calls/progressCoalescer';

describe('progress coalescing', () => {
  it('shows a flood as the first few a second and the last, and counts the rest', () => {
    const shown: Progress[] = [];
    const coalescer = new ProgressCoalescer((p) => shown.push(p), 20, () => 0);
    for (let i = 1; i <= 100_000; i++) coalescer.push({ progress: i, total: 100_000 });
    assert.equal(shown.length, 20);
    assert.equal(coalescer.flush(), 100_000 - 21);
    assert.equal(shown.length, 21);
    assert.deepEqual(shown.at(-1), { progress: 100_000, total: 100_000 });
  });

  it('shows every notification of a call that reports at a human pace', () => {
    const shown: Progress[] = [];
    let now = 0;
    const coalescer = new ProgressCoalescer((p) => shown.push(p), 20, () => now);
    for (let i = 1; i <= 50; i++) {
      coalescer.push({ progress: i });
      now += 100;
    }
    assert.equal(coalescer.flush(), 0);
    assert.deepEqual(shown.map((p) => p.progress), Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('a first second is a whole second even when the clock starts near zero (a young process)', async () => {
    const shown: Progress[] = [];
    const coalescer = new ProgressCoalescer((p) => shown.push(p), 2, () => 500); // performance.now() 500 ms into a process
    for (let i = 1; i <= 5; i++) coalescer.push({ progress: i });
    await new Promise((r) => setTimeout(r, 650));
    assert.deepEqual(shown.map((p) => p.progress), [1, 2], 'the held one waits for the end of a whole second');
    coalescer.flush();
  });

  it('shows the held notification when the second ends, without waiting for the result', async () => {
    const shown: Progress[] = [];
    const coalescer = new ProgressCoalescer((p) => shown.push(p), 2);
    for (let i = 1; i <= 5; i++) coalescer.push({ progress: i });
    assert.deepEqual(shown.map((p) => p.progress), [1, 2]);
    await new Promise((r) => setTimeout(r, 1100));
    assert.deepEqual(shown.map((p) => p.progress), [1, 2, 5]);
    assert.equal(coalescer.flush(), 2);
  });
});
