import * as assert from 'node:assert/strict';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { LineFramer } from '../../src/core/transport/lineFramer';
import { MessagePump, OWN_TASK_PARSE_CHARS, type Queued } from '../../src/core/transport/messagePump';

/** A pump fed from a LineFramer, with macrotasks run by hand so each wait is visible. */
function harness(maxBytes = 1024, handledNow: (m: JSONRPCMessage) => boolean = () => false) {
  const delivered: JSONRPCMessage[] = [];
  const warnings: string[] = [];
  const tasks: (() => void)[] = [];
  const pump = new MessagePump({ message: (m) => (delivered.push(m), handledNow(m)), warning: (w) => warnings.push(w), error: (e) => warnings.push(`error: ${e.message}`), later: (run) => tasks.push(run) }, maxBytes);
  const framer = new LineFramer(maxBytes);
  const feed = (text: string) => pump.push(framer.push(Buffer.from(text)) as Queued[]);
  const runTask = () => tasks.shift()?.();
  return { pump, delivered, warnings, tasks, feed, runTask };
}

const progress = (n: number) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: n } });
const result = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } });

describe('MessagePump: ordered delivery of a stdio stream', () => {
  it('a result in the same chunk as its progress waits one macrotask after the notification', () => {
    const h = harness();
    h.feed(`${progress(1)}\n${progress(2)}\n${result(1)}\n`);
    assert.deepEqual(h.delivered.map((m) => ('method' in m ? m.method : 'result')), ['notifications/progress']);
    h.runTask();
    assert.equal(h.delivered.length, 2, 'the result waits for the second notification\'s macrotask too');
    h.runTask();
    assert.deepEqual(h.delivered.map((m) => ('method' in m ? m.method : 'result')), ['notifications/progress', 'notifications/progress', 'result']);
    assert.ok(h.pump.idle);
  });

  it('a notification the sink handled in full at once (progress on a token of ours) is followed at once: 64 answers go out in one task', () => {
    const ours = (m: JSONRPCMessage) => 'method' in m && m.method === 'notifications/progress';
    const h = harness(1 << 20, ours);
    const answers = Array.from({ length: 64 }, (_, i) => `${progress(i)}\n${result(i)}\n`).join('');
    h.feed(answers);
    assert.equal(h.delivered.length, 128, 'each answer waited a macrotask after its progress');
    assert.equal(h.tasks.length, 0);
    assert.ok(h.pump.idle);
    // A notification left to a handler that runs later still holds what follows.
    const sdk = harness(1 << 20, () => false);
    sdk.feed(answers);
    assert.equal(sdk.delivered.length, 1);
  });

  it('results and requests go out at once, in order, with no waiting', () => {
    const h = harness();
    h.feed(`${result(1)}\n${result(2)}\n${result(3)}\n`);
    assert.deepEqual(h.delivered.map((m) => ('id' in m ? m.id : undefined)), [1, 2, 3]);
    assert.equal(h.tasks.length, 0);
  });

  it('a frame split across chunks is delivered once, whole', () => {
    const h = harness();
    const line = result(7);
    h.feed(line.slice(0, 10));
    assert.equal(h.delivered.length, 0);
    h.feed(`${line.slice(10)}\n`);
    assert.deepEqual(h.delivered.map((m) => ('id' in m ? m.id : undefined)), [7]);
  });

  it('a non-JSON line and JSON that is not JSON-RPC are warned about and skipped; the stream goes on', () => {
    const h = harness();
    h.feed(`hello from a server that prints\n{"not":"rpc"}\n\n${result(1)}\n`);
    assert.equal(h.warnings.length, 2);
    assert.match(h.warnings[0], /Ignored a stdout line that is not JSON-RPC: hello/);
    assert.deepEqual(h.delivered.map((m) => ('id' in m ? m.id : undefined)), [1]);
  });

  it('an oversize response fails its own request with a message naming the setting; a notification is only warned about', () => {
    const h = harness(200);
    const big = JSON.stringify({ jsonrpc: '2.0', id: 'req-9', result: { text: 'x'.repeat(500) } });
    const bigNote = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'y'.repeat(500), id: 3 } });
    h.feed(`${big}\n${bigNote}\n${result(2)}\n`);
    const error = h.delivered[0] as { id: string; error: { code: number; message: string } };
    assert.equal(error.id, 'req-9');
    assert.equal(error.error.code, -32000);
    assert.match(error.error.message, /exceeded the 0\.0 MiB limit.*mcpToolHost\.maxMessageSize/);
    assert.deepEqual(h.delivered.slice(1).map((m) => ('id' in m ? m.id : undefined)), [2]);
    assert.equal(h.warnings.length, 2);
  });

  it('a line over 1 MiB is parsed in a task of its own', () => {
    const h = harness(4 * OWN_TASK_PARSE_CHARS);
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'z'.repeat(OWN_TASK_PARSE_CHARS) } });
    h.feed(`${big}\n`);
    assert.equal(h.delivered.length, 0);
    h.runTask();
    assert.equal(h.delivered.length, 0, 'not in the check phase of the turn that read it: timers and I/O come first');
    h.runTask();
    assert.equal(h.delivered.length, 1);
  });

  it('a message parsed elsewhere holds the queue until it is ready, then everything follows in order', async () => {
    const h = harness();
    let resolve!: (v: unknown) => void;
    const parsing: Queued = { kind: 'parsing', message: new Promise((r) => (resolve = r)), head: '{"jsonrpc"' };
    h.pump.push([parsing, { kind: 'line', text: result(2) }]);
    assert.equal(h.delivered.length, 0);
    resolve(JSON.parse(result(1)));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(h.delivered.map((m) => ('id' in m ? m.id : undefined)), [1, 2]);
  });

  it('a handler that throws is reported and the next message is still delivered', () => {
    const errors: string[] = [];
    let calls = 0;
    const pump = new MessagePump({ message: () => { if (calls++ === 0) throw new Error('boom'); }, warning: () => undefined, error: (e) => errors.push(e.message), later: (run) => run() }, 1024);
    pump.push([{ kind: 'line', text: result(1) }, { kind: 'line', text: result(2) }]);
    assert.deepEqual(errors, ['boom']);
    assert.equal(calls, 2);
  });
});
