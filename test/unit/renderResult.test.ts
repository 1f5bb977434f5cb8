import * as assert from 'node:assert/strict';
import { summaryParts } from '../../src/core/calls/callPipeline';
import { cutForModel } from '../../src/core/chat/markdown';
import { renderResult, type RawToolResult } from '../../src/core/render/renderResult';
import { SANITIZE_SLICE_CHARS, sanitizeText } from '../../src/core/render/sanitize';
import { setInPieces } from '../../src/core/textPieces';

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

describe('rendering a result: a long text that came in pieces (textPieces.ts)', () => {
  it('reads the pieces, not the whole string, and hands them on sanitised, the text whole beside them', async () => {
    const block = { type: 'text' as const, text: '' };
    const pieces = ['first \u001b[31mred\u001b[0m\n'.repeat(40_000), 'second\u200b\n'.repeat(150_000)];
    setInPieces(block, 'text', pieces);
    const rendered = await renderResult({ content: [text('before'), block] });
    assert.equal(rendered.text, `before\n${sanitizeText(pieces.join(''))}`);
    assert.equal(rendered.pieces?.join(''), rendered.text);
    assert.ok((rendered.pieces ?? []).every((p) => p.length <= SANITIZE_SLICE_CHARS), 'no piece as long as the whole');
    assert.deepEqual(summaryParts({ kind: 'ok', result: rendered, durationMs: 1 }).slice(1), rendered.pieces);
  });

  it('an annotated block is its note and its text, two pieces, whatever its type', async () => {
    const rendered = await renderResult({ content: [{ type: 'resource_link', uri: 'file:///a', name: 'a', annotations: { audience: ['user'] } }, { type: 'text', text: 'hello', annotations: { priority: 1 } }] });
    assert.deepEqual(rendered.pieces, ['(for user) ', '[resource link] a file:///a', '\n', '(priority 1) ', 'hello']);
    assert.equal(rendered.text, '(for user) [resource link] a file:///a\n(priority 1) hello');
  });

  it('a block whose text was changed after it came is read as it is now', async () => {
    const block = { type: 'text' as const, text: '' };
    setInPieces(block, 'text', ['old ', 'pieces']);
    block.text = 'new text';
    assert.equal((await renderResult({ content: [block] })).pieces?.join(''), 'new text');
  });

  it('the model gets the head of the pieces, and how much more there is', () => {
    const cut = cutForModel({ text: 'abcdefghij', pieces: ['abc', 'defg', 'hij'] }, 5, 'the output');
    assert.equal(cut, 'abcde\n[... 5 more characters not shown; the whole result is in the output]');
    assert.equal(cutForModel({ text: 'abc', pieces: ['a', 'bc'] }, 5, 'x'), 'abc');
  });
});

describe('rendering a result: one that breaks the protocol', () => {
  it('attacker: "content" that is not a list is an error, and what it held is shown (escaped), not "(no content)"', async () => {
    const asError = await renderResult({ isError: true, content: 'disk full' } as unknown as RawToolResult);
    assert.equal(asError.isError, true);
    assert.equal(asError.text, '(malformed result: "content" is not a list) disk full');
    const claimsSuccess = await renderResult({ content: { text: 'x\u001b[2J' } } as unknown as RawToolResult);
    assert.equal(claimsSuccess.isError, true, 'a malformed result is not a success');
    assert.match(claimsSuccess.text, /^\(malformed result: "content" is not a list\) \{"text":"x/);
    assert.ok(!claimsSuccess.text.includes(String.fromCharCode(27)), 'the escape is shown escaped');
    assert.equal((await renderResult({ content: [] } as unknown as RawToolResult)).text, '(the tool returned no content)');
  });
});
