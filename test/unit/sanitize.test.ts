import * as assert from 'node:assert/strict';
import { SANITIZE_SLICE_CHARS, sanitizeLargeText, sanitizeLine, sanitizeText } from '../../src/core/render/sanitize';

describe('sanitising server text', () => {
  it('removes ANSI escapes, control, zero-width and bidi override characters', () => {
    assert.equal(sanitizeText('\u001b[31mred\u001b[0m \u0007bell\u200b \u202eevil\u202c ok\ttab\nline'), 'red bell evil ok\ttab\nline');
    assert.equal(sanitizeText('\u001b]8;;https://x\u0007link\u001b]8;;\u0007'), 'link');
    assert.equal(sanitizeText('safe\u{E0049}\u{E0067}\u{E006E} text'), 'safe text', 'invisible tag characters are removed');
  });

  it('keeps a line on one line', () => {
    assert.equal(sanitizeLine('a\nb\tc\r\nd'), 'a b c d');
  });

  it('sanitises text larger than a slice exactly as in one piece, yielding between slices', async () => {
    const line = '\u001b[31mred\u001b[0m \u200bzero\r\n\u001b]0;title\u0007ok\n';
    const text = line.repeat(Math.ceil((2.5 * SANITIZE_SLICE_CHARS) / line.length));
    let yielded = 0;
    const ticker = setInterval(() => yielded++, 0);
    const sliced = await sanitizeLargeText(text);
    clearInterval(ticker);
    assert.ok(sliced === sanitizeText(text), 'same text as sanitizeText');
    assert.ok(yielded > 0, 'the event loop ran between slices');
    const crlf = 'x'.repeat(SANITIZE_SLICE_CHARS - 1) + '\r\n' + 'y'.repeat(10);
    assert.ok((await sanitizeLargeText(crlf)) === sanitizeText(crlf), 'a CRLF at the cut stays one newline');
    const tag = 'x'.repeat(SANITIZE_SLICE_CHARS - 1) + '\u{E0041}' + 'y';
    assert.ok((await sanitizeLargeText(tag)) === 'x'.repeat(SANITIZE_SLICE_CHARS - 1) + 'y', 'a tag character at the cut is still removed');
  });
});
