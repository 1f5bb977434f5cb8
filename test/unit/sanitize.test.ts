import * as assert from 'node:assert/strict';
import { SANITIZE_SLICE_CHARS, sanitizeInPieces, sanitizeLine, sanitizeText, visibleJson, visibleLine } from '../../src/core/render/sanitize';

describe('sanitising server text', () => {
  it('removes ANSI escapes, control, zero-width and bidi override characters', () => {
    assert.equal(sanitizeText('\u001b[31mred\u001b[0m \u0007bell\u200b \u202eevil\u202c ok\ttab\nline'), 'red bell evil ok\ttab\nline');
    assert.equal(sanitizeText('\u001b]8;;https://x\u0007link\u001b]8;;\u0007'), 'link');
    assert.equal(sanitizeText('safe\u{E0049}\u{E0067}\u{E006E} text'), 'safe text', 'invisible tag characters are removed');
  });

  it('removes what can hide words: variation-selector runs, fillers, the Arabic letter mark; separators are newlines', () => {
    // "emoji smuggling": bytes spelled as variation selectors after one visible character
    const smuggled = `hi\u{1F600}${'\u{E0143}\u{E0150}\uFE01\u{E0110}'.repeat(8)} there`;
    assert.equal(sanitizeText(smuggled), 'hi\u{1F600} there');
    assert.equal(sanitizeText('love \u2764\uFE0F ok'), 'love \u2764\uFE0F ok', 'one presentation selector after a character stays');
    assert.equal(sanitizeText('a\uFE0F\uFE0F\uFE0Eb'), 'a\uFE0Fb', 'a run keeps only its first selector');
    assert.equal(sanitizeText('\uFE0Fstart'), 'start', 'a selector with nothing before it is removed');
    assert.equal(sanitizeText('x\uFE01y'), 'xy', 'selectors other than text/emoji presentation are removed');
    assert.equal(sanitizeText('x\u3164\u115F\u1160\uFFA0\u180E\u00AD\u061Cy'), 'xy', 'invisible fillers, soft hyphen and the Arabic letter mark go');
    assert.equal(sanitizeText('one\u2028two\u2029three'), 'one\ntwo\nthree');
    assert.equal(sanitizeLine('one\u2028two'), 'one two', 'a line separator cannot start a new line in a name');
  });

  it('shows arguments as the JSON that is sent, every invisible or direction character as its escape', () => {
    const args = { path: 'report\u202Etxt.exe', note: `hi\u{E0041}\u{E0042}`, zw: 'a\u200Bb', sep: 'x\u2028y', ok: 'plain \u00e9 text' };
    const shown = visibleJson(args);
    assert.equal(shown, '{"path":"report\\u202Etxt.exe","note":"hi\\uDB40\\uDC41\\uDB40\\uDC42","zw":"a\\u200Bb","sep":"x\\u2028y","ok":"plain \u00e9 text"}');
    assert.deepEqual(JSON.parse(shown), args, 'the same value to a parser');
    assert.equal(visibleJson({ a: 1 }, 2), '{\n  "a": 1\n}');
  });

  it('takes its one-scan way only for characters the full check leaves as they are', () => {
    // The ranges sanitize.ts's PLAINLY_VISIBLE lets through unchecked: each is put through the full check (an invisible character beside it).
    const ranges: Array<[number, number]> = [[0x20, 0x7e], [0xa1, 0xac], [0xae, 0xff], [0x2010, 0x2027], [0x2030, 0x205e], [0x2190, 0x21ff], [0x2500, 0x25ff]];
    for (const [from, to] of ranges) {
      for (let code = from; code <= to; code++) {
        const c = String.fromCharCode(code);
        assert.equal(visibleLine(`${c}\u200B`), `${c}\\u200B`, `U+${code.toString(16)} is left as it is by the full check`);
        assert.equal(visibleLine(c), c);
      }
    }
    assert.equal(visibleJson({ d: 'allowed [read-only \u00b7 open-world?]' }), '{"d":"allowed [read-only \u00b7 open-world?]"}');
    assert.equal(visibleJson({ d: 'a\u00a0b\u00adc\u2028d\u205fe' }), '{"d":"a\\u00A0b\\u00ADc\\u2028d\\u205Fe"}', 'the spaces and marks beside the ranges are still shown');
  });

  it('shows a command line as it really is: hidden characters as escapes, on one line', () => {
    assert.equal(visibleLine('node server.js --dir=/home/\u202Eevil\u200B\nrm -rf /'), 'node server.js --dir=/home/\\u202Eevil\\u200B\\nrm -rf /');
    assert.equal(visibleLine('plain'), 'plain');
  });

  it('keeps a line on one line', () => {
    assert.equal(sanitizeLine('a\nb\tc\r\nd'), 'a b c d');
  });

  it('sanitises text larger than a slice exactly as in one piece, yielding between slices', async () => {
    const line = '\u001b[31mred\u001b[0m \u200bzero\r\n\u001b]0;title\u0007ok\n';
    const text = line.repeat(Math.ceil((2.5 * SANITIZE_SLICE_CHARS) / line.length));
    let yielded = 0;
    const ticker = setInterval(() => yielded++, 0);
    const sliced = (await sanitizeInPieces([text])).join('');
    clearInterval(ticker);
    assert.ok(sliced === sanitizeText(text), 'same text as sanitizeText');
    assert.ok(yielded > 0, 'the event loop ran between slices');
    const crlf = 'x'.repeat(SANITIZE_SLICE_CHARS - 1) + '\r\n' + 'y'.repeat(10);
    assert.ok((await sanitizeInPieces([crlf])).join('') === sanitizeText(crlf), 'a CRLF at the cut stays one newline');
    const tag = 'x'.repeat(SANITIZE_SLICE_CHARS - 1) + '\u{E0041}' + 'y';
    assert.ok((await sanitizeInPieces([tag])).join('') === 'x'.repeat(SANITIZE_SLICE_CHARS - 1) + 'y', 'a tag character at the cut is still removed');
  });

  it('sanitises text that comes in pieces piece by piece, and answers in pieces no longer than a slice', async () => {
    const line = 'ok \u001b[2Jcleared\u202eevil\n';
    const piece = line.repeat(Math.ceil(SANITIZE_SLICE_CHARS / 2 / line.length));
    const pieces = [piece, piece, piece, 'tail\u200b'];
    const clean = await sanitizeInPieces(pieces);
    assert.ok(clean.join('') === sanitizeText(pieces.join('')), 'the same text as sanitising it whole');
    assert.ok(clean.every((p) => p.length <= SANITIZE_SLICE_CHARS));
    assert.deepEqual(await sanitizeInPieces(['a\u0007', 'b']), ['a', 'b'], 'short text: at once, piece for piece');
  });
});
