import * as assert from 'node:assert/strict';
import { RESTART_DELAYS_MS, RestartPolicy } from '../../src/core/connection/restartPolicy';

describe('RestartPolicy', () => {
  it('backs off 1, 2, 4, 8, 16 s, then gives up within 3 minutes', () => {
    const p = new RestartPolicy();
    const t0 = 1_000_000;
    const delays = [0, 1, 2, 3, 4].map((i) => p.onCrash(t0 + i * 1000));
    assert.deepEqual(delays.map((d) => (d.kind === 'retry' ? d.delayMs : -1)), [...RESTART_DELAYS_MS]);
    assert.deepEqual(p.onCrash(t0 + 5000), { kind: 'give-up', crashes: 6 });
  });

  it('forgets crashes older than the window', () => {
    const p = new RestartPolicy([10, 20], 60_000);
    assert.equal(p.onCrash(0).kind, 'retry');
    assert.equal(p.onCrash(1).kind, 'retry');
    assert.deepEqual(p.onCrash(60_001), { kind: 'retry', delayMs: 10, attempt: 1 });
  });

  it('starts counting again after reset (a start the user asked for)', () => {
    const p = new RestartPolicy([10], 60_000);
    p.onCrash(0);
    assert.equal(p.onCrash(1).kind, 'give-up');
    p.reset();
    assert.equal(p.onCrash(2).kind, 'retry');
  });
});
