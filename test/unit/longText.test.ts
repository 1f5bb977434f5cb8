import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { appendInSlices, headOf, showSummary, totalLength, writeTextFile } from '../../src/core/render/longText';

describe('long texts in pieces (a 50 MiB result is never joined, prefixed or encoded at once)', () => {
  it('appends short pieces as one, and a long piece in slices, in order', async () => {
    const appended: string[] = [];
    const long = 'a'.repeat(2500);
    await appendInSlices(['[c1] ', 'result (3 ms):\n', long, '\n'], (t) => appended.push(t), 1000);
    assert.equal(appended.join(''), `[c1] result (3 ms):\n${long}\n`);
    assert.deepEqual(appended.map((t) => t.length), [20, 1000, 1000, 500, 1]);
    appended.length = 0;
    await appendInSlices(['[c2] ', 'ok', '\n'], (t) => appended.push(t), 1000);
    assert.deepEqual(appended, ['[c2] ok\n'], 'a short summary is one append');
  });

  it('takes the head of pieces across their borders', () => {
    assert.deepEqual(headOf(['abc', 'defgh', 'ij'], 5), ['abc', 'de']);
    assert.deepEqual(headOf(['abc', 'defgh'], 3), ['abc']);
    assert.deepEqual(headOf(['abc'], 10), ['abc']);
    assert.equal(totalLength(['abc', 'defgh', '']), 8);
  });

  it('shows a summary whole under the cap; past it, saves the pieces as they are, shows the head and says how much is hidden', async () => {
    const shown: string[] = [];
    const saved: (readonly string[])[] = [];
    const sink = { cap: 10, sliceChars: 4, append: (t: string) => void shown.push(t), save: async (pieces: readonly string[]) => (saved.push(pieces), '/tmp/r.txt') };
    assert.equal(await showSummary('c1', ['ok:\n', 'done'], sink), undefined);
    assert.equal(shown.join(''), '[c1] ok:\ndone\n');
    assert.equal(saved.length, 0, 'nothing saved under the cap');
    shown.length = 0;
    const text = 'abcdefghijklmnop';
    const summary = ['ok:\n', text];
    assert.deepEqual(await showSummary('c2', summary, sink), { hidden: 10, saved: '/tmp/r.txt' });
    assert.equal(saved[0], summary, 'the pieces go to the file as given, never joined');
    assert.equal(shown.join(''), '[c2] ok:\nabcdef\n');
  });

  it('writes a file whole: non-ASCII, and a surrogate pair on a 1 MiB border, arrive as sent', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'long-text-'));
    try {
      const file = path.join(dir, 'result.txt');
      const border = 'x'.repeat((1 << 20) - 1) + '😀' + 'é'.repeat(1000) + '\u{E0041}'; // the emoji's first half ends the first slice
      const pieces = ['result (1 ms):\n', border, 'Ω\n'];
      await writeTextFile(file, pieces);
      const back = fs.readFileSync(file, 'utf8');
      assert.equal(back, pieces.join(''));
      assert.ok(!back.includes('\ufffd'), 'no replacement character: no pair was cut');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
