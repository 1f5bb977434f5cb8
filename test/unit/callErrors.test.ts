import * as assert from 'node:assert/strict';
import { describeCallError } from '../../src/core/calls/callErrors';

const limits = { timeoutSeconds: 60, maxTotalSeconds: 600 };

describe('why a call failed (describeCallError)', () => {
  it("keeps the capabilities a server's -32021 names, the input kinds only, so the gateway can answer its client with the same error", () => {
    const failure = describeCallError(Object.assign(new Error('MCP error -32021: needs sampling'), { code: -32021, data: { requiredCapabilities: { sampling: {}, __proto__x: {}, tools: {} } } }), limits);
    assert.equal(failure.kind, 'protocol-error');
    assert.deepEqual(failure.kind === 'protocol-error' && failure.requiredCapabilities, ['sampling']);
  });

  it('names none for another error, or a -32021 whose data is not an object of capabilities', () => {
    for (const err of [{ code: -32602, data: { requiredCapabilities: { sampling: {} } } }, { code: -32021, data: { requiredCapabilities: ['sampling'] } }, { code: -32021 }]) {
      const failure = describeCallError(Object.assign(new Error('refused'), err), limits);
      assert.equal(failure.kind === 'protocol-error' ? failure.requiredCapabilities : 'not a protocol error', undefined);
    }
  });
});
