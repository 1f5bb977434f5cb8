import * as assert from 'node:assert/strict';
import { requestIds, stoppedAnswer, stoppedBody } from '../../src/core/gateway/openRequests';

describe('the answers of a stopping HTTP gateway (openRequests.ts)', () => {
  it('finds the requests of a body: a request, the requests of a batch; never a notification or a response', () => {
    assert.deepEqual(requestIds({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: {} }), [7]);
    assert.deepEqual(requestIds([{ jsonrpc: '2.0', id: 'a', method: 'tools/list' }, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 3, result: {} }, { jsonrpc: '2.0', id: 4, method: 'ping' }]), ['a', 4]);
    assert.deepEqual(requestIds(undefined), []);
    assert.deepEqual(requestIds({ jsonrpc: '2.0', id: null, method: 'x' }), []);
  });

  it('answers with JSON-RPC internal error that says the gateway stopped, to the request\'s id (null when not one request)', () => {
    const answer = stoppedAnswer(5);
    assert.equal(answer.id, 5);
    assert.equal(answer.error.code, -32603);
    assert.match(answer.error.message, /^The MCP Tool Host gateway stopped before the call ended: /);
    assert.deepEqual(JSON.parse(stoppedBody({ jsonrpc: '2.0', id: 'x', method: 'tools/call' })), { jsonrpc: '2.0', id: 'x', error: answer.error });
    assert.equal((JSON.parse(stoppedBody(undefined)) as { id: unknown }).id, null);
  });
});
