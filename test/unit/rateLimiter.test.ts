import * as assert from 'node:assert/strict';
import { RateLimiter } from '../../src/core/policy/rateLimiter';

describe('RateLimiter', () => {
  it('allows a burst, then refills at the steady rate, per server', () => {
    let now = 0;
    const limiter = new RateLimiter(() => ({ burst: 3, perSecond: 2 }), () => now);
    assert.deepEqual([1, 2, 3].map(() => limiter.take('a').ok), [true, true, true]);
    assert.deepEqual(limiter.take('a'), { ok: false, retryInMs: 500 });
    assert.equal(limiter.take('b').ok, true, 'another server has its own bucket');
    now = 500;
    assert.equal(limiter.take('a').ok, true);
    assert.equal(limiter.take('a').ok, false);
    now = 10_000;
    assert.deepEqual([1, 2, 3, 4].map(() => limiter.take('a').ok), [true, true, true, false], 'never more than the burst');
  });
});
