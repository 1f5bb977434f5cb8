import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { LineFramer, type Frame } from '../../src/core/transport/lineFramer';

/** Property-based tests of the stdio framing: any split of any byte stream frames the same way. */
describe('fuzzing the line framer', function () {
  this.timeout(60_000);
  const RUNS = Number(process.env.FUZZ_RUNS ?? 80_000);

  const feed = (framer: LineFramer, bytes: Buffer, cuts: number[]): Frame[] => {
    const out: Frame[] = [];
    let at = 0;
    for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
      out.push(...framer.push(bytes.subarray(at, cut)));
      at = cut;
    }
    out.push(...framer.push(bytes.subarray(at)));
    return out;
  };
  const text = (frames: Frame[]) => frames.map((f) => (f.kind === 'line' ? f.text : `<${f.kind}>`));

  it(`frames any messages, split anywhere, exactly as sent (${RUNS} cases)`, () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, '')), { maxLength: 8 }), fc.array(fc.nat(), { maxLength: 6 }), (messages, cuts) => {
        const bytes = Buffer.from(messages.map((m) => m + '\n').join(''), 'utf8');
        const frames = feed(new LineFramer(1 << 20), bytes, cuts);
        assert.deepEqual(text(frames), messages);
      }),
      { numRuns: RUNS },
    );
  });

  it('drops exactly the frames over the cap, keeps the rest, and never holds more than the cap (20000 cases)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 300 }), { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { maxLength: 6 }), (lengths, cuts) => {
        const cap = 100;
        const messages = lengths.map((n, i) => String.fromCharCode(97 + (i % 26)).repeat(n));
        const framer = new LineFramer(cap);
        const frames = feed(framer, Buffer.from(messages.map((m) => m + '\n').join('')), cuts);
        assert.deepEqual(frames.map((f) => (f.kind === 'line' ? 'line' : 'oversize')), lengths.map((n) => (n > cap ? 'oversize' : 'line')));
        assert.equal(framer.pendingBytes, 0);
      }),
      { numRuns: 20_000 },
    );
  });
});
