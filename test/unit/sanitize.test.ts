import * as assert from 'node:assert/strict';
import { sanitizeLine, sanitizeText } from '../../src/core/render/sanitize';

describe('sanitising server text', () => {
  it('removes ANSI escapes, control, zero-width and bidi override characters', () => {
    assert.equal(sanitizeText('\u001b[31mred\u001b[0m \u0007bell\u200b \u202eevil\u202c ok\ttab\nline'), 'red bell evil ok\ttab\nline');
    assert.equal(sanitizeText('\u001b]8;;https://x\u0007link\u001b]8;;\u0007'), 'link');
  });

  it('keeps a line on one line', () => {
    assert.equal(sanitizeLine('a\nb\tc\r\nd'), 'a b c d');
  });
});
