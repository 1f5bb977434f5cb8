import * as assert from 'node:assert/strict';
import { renderResult } from '../../src/core/render/renderResult';

const text = (t: string) => ({ type: 'text' as const, text: t });

describe('rendering a result: structured content', () => {
  it('is printed once, pretty, in place of a text block that holds the same JSON (the spec asks tools to send both)', async () => {
    const structured = { words: 3, lines: 2, tags: ['a', 'b'] };
    const pretty = JSON.stringify(structured, null, 2);
    for (const serialised of [JSON.stringify(structured), pretty, '{"lines":2,"tags":["a","b"],"words":3}']) {
      const rendered = await renderResult({ content: [text('stats:'), text(serialised)], structuredContent: structured });
      assert.equal(rendered.text, `stats:\n${pretty}`);
    }
  });

  it('is printed when no text block says the same: other text, other values, not JSON', async () => {
    const structured = { words: 3 };
    for (const other of ['3 words', '{"words":4}', '{"words":3,"more":true}', '{ not json']) {
      const rendered = await renderResult({ content: [text(other)], structuredContent: structured });
      assert.equal(rendered.text, `${other}\nstructuredContent:\n{\n  "words": 3\n}`);
    }
    assert.equal((await renderResult({ content: [], structuredContent: structured })).text, 'structuredContent:\n{\n  "words": 3\n}');
  });
});
