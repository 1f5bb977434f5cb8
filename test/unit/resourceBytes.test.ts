import * as assert from 'node:assert/strict';
import { documentBytes } from '../../src/core/offers/resourceBytes';
import type { ResourcePart } from '../../src/core/offers/offerTypes';

describe('a read as the bytes of one document (what an editor opens)', () => {
  it('encodes a long text in slices to exactly the bytes of encoding it whole, a surrogate pair on a slice edge kept whole', async () => {
    // 1 MiB of ASCII, then an emoji across the first slice edge, then non-ASCII text.
    const text = `${'a'.repeat((1 << 20) - 1)}😀${'é'.repeat(3000)}\n${'z'.repeat(1 << 20)}`;
    const bytes = await documentBytes([{ kind: 'text', uri: 'x://a', text }]);
    assert.deepEqual(Buffer.from(bytes), Buffer.from(text, 'utf8'));
    assert.ok(!Buffer.from(bytes).includes(Buffer.from('\ufffd', 'utf8')), 'no replacement character');
  });

  it('reads a text from its slices when it has them, joins text parts with a newline and leaves binary parts out', async () => {
    const parts: ResourcePart[] = [
      { kind: 'text', uri: 'x://a', text: 'one😀two', pieces: ['one😀', 'two'] },
      { kind: 'binary', uri: 'x://b', bytes: new Uint8Array([1, 2, 3]) },
      { kind: 'text', uri: 'x://c', text: 'three' },
    ];
    assert.equal(Buffer.from(await documentBytes(parts)).toString('utf8'), 'one😀two\nthree');
  });
});
