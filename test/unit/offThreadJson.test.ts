import * as assert from 'node:assert/strict';
import type { Worker } from 'node:worker_threads';
import { LONG_STRING_CHARS, OffThreadJsonParser } from '../../src/core/transport/offThreadJson';
import { piecesOf, setInPieces } from '../../src/core/textPieces';
import { LineFramer, type Frame } from '../../src/core/transport/lineFramer';

describe('OffThreadJsonParser', () => {
  let parser: OffThreadJsonParser;
  beforeEach(() => (parser = new OffThreadJsonParser(setInPieces)));
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

  it('brings a long string back in pieces, each asked for in a turn of its own, cut after a newline, never in a CRLF or a surrogate pair', async () => {
    const lines = 'a line of text\n'.repeat(Math.ceil((2.5 * LONG_STRING_CHARS) / 15));
    const crlf = 'r'.repeat(LONG_STRING_CHARS - 1) + '\r\n' + 'r'.repeat(100);
    const pair = 's'.repeat(LONG_STRING_CHARS - 1) + '\u{1F600}' + 's'.repeat(100);
    const value = { result: { content: [{ type: 'text', text: lines }, { type: 'text', text: crlf }, { type: 'text', text: pair }, { type: 'text', text: 'short' }] } };
    // Counts turns of the event loop, and notes the turn in which each piece is asked for.
    let turn = 0;
    let counting = true;
    const count = () => (turn++, counting && setImmediate(count));
    setImmediate(count);
    const m = parser.begin();
    const worker = (parser as unknown as { _worker: Worker })._worker; // the parser's own thread: where the pieces are asked for
    const askedIn: number[] = [];
    const cameIn: number[] = [];
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (message: { op?: string }, transfer?: Parameters<Worker['postMessage']>[1]) => (message.op === 'next' && askedIn.push(turn), post(message, transfer));
    worker.on('message', (reply: { piece?: string }) => reply.piece !== undefined && cameIn.push(turn));
    const bytes = Buffer.from(JSON.stringify(value));
    for (let at = 0; at < bytes.length; at += 65536) m.push(bytes.subarray(at, at + 65536));
    const back = (await m.end()) as typeof value;
    counting = false;
    assert.deepEqual(back, value);
    const [a, b, c, d] = back.result.content.map((block) => piecesOf(block, 'text'));
    assert.equal(a?.length, 3);
    assert.ok(a?.every((p) => p.endsWith('\n') && p.length <= LONG_STRING_CHARS), 'cut after a newline');
    assert.deepEqual(b?.map((p) => p.length), [LONG_STRING_CHARS - 1, 102], 'the CRLF stays together');
    assert.deepEqual(c?.map((p) => p.length), [LONG_STRING_CHARS - 1, 102], 'the surrogate pair stays together');
    assert.equal(d, undefined, 'a short string is just a string');
    assert.equal(askedIn.length, 7, 'one request a piece');
    // Asked for in the task that took the last one, a piece can land in that same task (Node takes a port's messages in a loop).
    assert.ok(askedIn.every((t, i) => i === 0 || t > cameIn[i - 1]), `each piece asked for in a later turn than the last came in: asked ${askedIn.join(', ')}; came ${cameIn.join(', ')}`);
    assert.equal(parser.pendingCount, 0);
  });

  it("puts a long string back where it was, whatever its key (a server's __proto__ or an array index)", async () => {
    const long = 'p'.repeat(LONG_STRING_CHARS + 10);
    const json = `{"a":{"__proto__":"${long}"},"list":["${long}",1]}`;
    const back = (await stream(json, 1 << 20)) as Record<string, Record<string, unknown>>;
    assert.deepEqual(back, JSON.parse(json));
    assert.equal(Object.getPrototypeOf(back.a), Object.prototype, 'no prototype was set');
    assert.equal(piecesOf(back.list, '0')?.join(''), long);
  });

  it('a string changed after it arrived is no longer read from its pieces', async () => {
    const back = (await stream(JSON.stringify({ text: 'q'.repeat(LONG_STRING_CHARS + 1) }), 1 << 20)) as { text: string };
    assert.ok(piecesOf(back, 'text'));
    back.text = 'changed';
    assert.equal(piecesOf(back, 'text'), undefined);
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
    assert.deepEqual(frames.map((fr) => fr.kind), ['line', 'large-piece', 'large-piece', 'large-piece', 'large-end', 'line']);
    const pieces = frames.flatMap((fr) => (fr.kind === 'large-piece' ? [fr.bytes] : []));
    assert.deepEqual(pieces.map((p) => p.toString('utf8')), ['{"big":"01234', '56789', '"}'], 'the pieces as they came, none joined');
    assert.deepEqual(frames[4], { kind: 'large-end', bytes: 20, head: '{"big":"01234' + '56789' });
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
