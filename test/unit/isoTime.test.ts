import { strict as assert } from 'node:assert';
import { isoTime } from '../../src/core/isoTime';

describe('isoTime: the time of an audit line', () => {
  it('is toISOString to the character, across milliseconds, seconds, days, years and both signs of the epoch', () => {
    const times = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, -1, -999, -1000, -1001, Date.UTC(2026, 10, 28, 23, 59, 59, 999), Date.UTC(2026, 10, 29), 8.64e15, -8.64e15, Date.UTC(10000, 0, 1, 0, 0, 0, 7)];
    // And a walk through one second and into the next, as calls come in order.
    for (let ms = Date.UTC(2026, 10, 28, 9, 44, 43, 0) - 3; ms < Date.UTC(2026, 10, 28, 9, 44, 44, 5); ms += 1) times.push(ms);
    for (let i = 0; i < 2000; i++) times.push(Math.floor((Math.random() * 2 - 1) * 8.64e15));
    for (const ms of times) assert.equal(isoTime(new Date(ms)), new Date(ms).toISOString(), `at ${ms}`);
  });

  it('throws for a date that is not one, as toISOString does', () => {
    assert.throws(() => isoTime(new Date(NaN)), RangeError);
  });
});
