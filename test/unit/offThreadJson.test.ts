import * as assert from 'node:assert/strict';
import { OffThreadJsonParser } from '../../src/core/transport/offThreadJson';
import { LineFramer, type Frame } from '../../src/core/transport/lineFramer';

describe('OffThreadJsonParser', () => {
  let parser: OffThreadJsonParser;
  beforeEach(() => (parser = new OffThreadJsonParser()));
  afterEach(() => parser.dispose());

  /** Streams `json` in pieces of `size` bytes, split anywhere (inside multi-byte characters too). */
  const stream = (json: string, size: number) => {
    const m = parser.begin();
    const bytes = Buffer.from(json);
    for (let at = 0; at < bytes.length; at += size) m.push(bytes.subarray(at, at + size));
    return m.end();
  };

  it('gives what JSON.parse gives, for pieces split inside characters, several messages at once', async () => {
    const value = { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'héllo ✓ \u0000 "quoted" '.repeat(50) }], n: -0.5, nested: [null, true, { a: [] }] } };
    const [a, b] = await Promise.all([stream(JSON.stringify(value), 7), stream(JSON.stringify([1, 'ü']), 1)]);
    assert.deepEqual(a, value);
    assert.deepEqual(b, [1, 'ü']);
    assert.equal(parser.pendingCount, 0);
  });

  it('gives the same for a large message, string-heavy (value copied back) or object-heavy (text sent back)', async () => {
    const text = { result: { content: [{ type: 'text', text: 'x'.repeat(4 << 20) }] } };
    const objects = { result: { tools: Array.from({ length: 100_000 }, (_, i) => ({ name: `t${i}`, n: i })) } };
    assert.deepEqual(await stream(JSON.stringify(text), 65536), text);
    assert.deepEqual(await stream(JSON.stringify(objects), 65536), objects);
  });

  it('rejects a message that is not JSON with a SyntaxError, and keeps working', async () => {
    await assert.rejects(stream('{"jsonrpc":', 3), SyntaxError);
    await assert.rejects(stream('x'.repeat(4 << 20), 1 << 20), SyntaxError);
    assert.deepEqual(await stream('[1,2]', 2), [1, 2]);
  });

  it('dispose rejects what is still being parsed', async () => {
    const pending = stream(JSON.stringify({ text: 'x'.repeat(1 << 20) }), 1 << 16);
    parser.dispose();
    await assert.rejects(pending, /closed/);
  });
});

describe('LineFramer with a large-frame threshold', () => {
  it('streams a frame that reaches the threshold as pieces and an end with its head; smaller frames stay text', () => {
    const f = new LineFramer(1 << 20, 16);
    const frames: Frame[] = [...f.push(Buffer.from('{"a":1}\n{"big":"01234')), ...f.push(Buffer.from('56789')), ...f.push(Buffer.from('"}\n{"b":2}\n'))];
    assert.deepEqual(frames.map((fr) => fr.kind), ['line', 'large-piece', 'large-piece', 'large-end', 'line']);
    const pieces = frames.flatMap((fr) => (fr.kind === 'large-piece' ? [fr.bytes] : []));
    assert.equal(Buffer.concat(pieces).toString('utf8'), '{"big":"0123456789"}');
    assert.deepEqual(frames[3], { kind: 'large-end', bytes: 20, head: '{"big":"01234' + '56789' });
    assert.equal(f.pendingBytes, 0);
  });

  it('aborts a large frame that goes over the cap, reports it oversize with its head, and resynchronises', () => {
    const f = new LineFramer(40, 16);
    const frames = [...f.push(Buffer.from('{"id":9,"result":"' + 'x'.repeat(10))), ...f.push(Buffer.from('x'.repeat(30) + '"}\n{"ok":1}\n'))];
    assert.deepEqual(frames.map((fr) => fr.kind), ['large-piece', 'large-abort', 'oversize', 'line']);
    const oversize = frames[2];
    if (oversize.kind === 'oversize') assert.match(oversize.head, /^\{"id":9/);
  });
});
