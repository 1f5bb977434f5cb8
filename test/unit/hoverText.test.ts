import * as assert from 'node:assert/strict';
import { cutAtSpace, hoverMarkdown } from '../../src/core/tools/hoverText';

describe('server text in a hover', () => {
  const description = 'Returns the message it is given. It declares no annotations, so the spec defaults apply.';

  it('keeps spaces as spaces, so the hover wraps between words (never "a" / "pply")', () => {
    const md = hoverMarkdown(description);
    assert.ok(!md.includes('&nbsp;'), md);
    assert.deepEqual(md.split(' ').map((w) => w.replace(/\\/g, '')), description.split(' '));
  });

  it('escapes Markdown and entities, and makes each line a paragraph that never becomes a code block', () => {
    assert.equal(hoverMarkdown('Click [here](command:x) **bold** <img> &#x202e;'), 'Click \\[here\\]\\(command:x\\) \\*\\*bold\\*\\* \\<img\\> \\&\\#x202e;');
    assert.equal(hoverMarkdown('one\n        indented   words\n# not a heading'), 'one\n\nindented words\n\n\\# not a heading');
  });

  it('cuts at a space, never inside a word', () => {
    assert.deepEqual(cutAtSpace('short', 10), { text: 'short', left: 0 });
    const { text, left } = cutAtSpace(description, 82);
    assert.equal(text, 'Returns the message it is given. It declares no annotations, so the spec defaults');
    assert.equal(left, description.length - text.length);
    for (let max = 1; max < description.length; max++) {
      const cut = cutAtSpace(description, max).text;
      assert.ok(cut.length <= max, `${max}: ${cut}`);
      const words = cut.split(' ');
      if (cut.length > 0 && max >= 8) assert.ok(description.split(' ').includes(words[words.length - 1]), `${max}: a word was split: ${cut}`);
    }
    assert.equal(cutAtSpace('a\nbbbbbb', 4).text, 'a', 'a newline is a place to cut too');
  });

  it('cuts inside a word only when it is too long to keep (a URL)', () => {
    const url = `https://example.com/${'x'.repeat(100)}`;
    assert.equal(cutAtSpace(`see ${url}`, 60).text, `see ${url}`.slice(0, 60));
    assert.equal(cutAtSpace('😀'.repeat(10), 5).text, '😀😀', 'a surrogate pair stays whole');
  });
});
