import * as assert from 'node:assert/strict';
import { LineFramer } from '../../src/core/transport/lineFramer';

describe('LineFramer', () => {
  it('joins frames split across chunks and splits chunks holding several frames', () => {
    const f = new LineFramer(1024);
    assert.deepEqual(f.push(Buffer.from('{"a":')), []);
    assert.deepEqual(f.push(Buffer.from('1}\n{"b":2}\n{"c"')), [{ kind: 'line', text: '{"a":1}' }, { kind: 'line', text: '{"b":2}' }]);
    assert.deepEqual(f.push(Buffer.from(':3}\r\n')), [{ kind: 'line', text: '{"c":3}' }]);
    assert.equal(f.pendingBytes, 0);
  });

  it('keeps multi-byte characters split across chunks intact', () => {
    const f = new LineFramer(1024);
    const bytes = Buffer.from('"héllo ✓"\n');
    const frames = [...f.push(bytes.subarray(0, 3)), ...f.push(bytes.subarray(3, 11)), ...f.push(bytes.subarray(11))];
    assert.deepEqual(frames, [{ kind: 'line', text: '"héllo ✓"' }]);
  });

  it('drops a frame over the cap, reports its size and head, and resynchronises', () => {
    const f = new LineFramer(100);
    const big = `{"jsonrpc":"2.0","id":7,"result":"${'x'.repeat(500)}"}`;
    const frames = [...f.push(Buffer.from(big.slice(0, 60))), ...f.push(Buffer.from(big.slice(60) + '\n{"ok":1}\n'))];
    assert.equal(frames.length, 2);
    assert.equal(frames[0].kind, 'oversize');
    if (frames[0].kind === 'oversize') {
      assert.equal(frames[0].bytes, big.length);
      assert.match(frames[0].head, /"id":7/);
    }
    assert.deepEqual(frames[1], { kind: 'line', text: '{"ok":1}' });
    assert.equal(f.pendingBytes, 0);
  });
});
