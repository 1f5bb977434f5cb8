import * as assert from 'node:assert/strict';
import { specTypeSchemas } from '@modelcontextprotocol/server';
import { checkedResult } from '../../src/core/gateway/resultCheck';

/** What the SDK's schema makes of `result`: the JSON it passes, or its issues. */
function bySchema(result: unknown): { ok: true; json: string } | { ok: false; issues: string } {
  const checked = specTypeSchemas.CallToolResult['~standard'].validate(result);
  if ('then' in checked) throw new Error('not synchronous');
  return checked.issues ? { ok: false, issues: checked.issues.map((i) => i.message).join('; ') } : { ok: true, json: JSON.stringify(checked.value) };
}

const text = (t: unknown) => ({ type: 'text', text: t });

/** Results a server may send: the plainest shapes, and each way of being a little off them. */
const results: readonly unknown[] = [
  { content: [] },
  { content: [text('hi')] },
  { content: [text('a'), text('b\u0000\ud800'), text('')] },
  { content: [text('hi')], isError: true },
  { content: [text('hi')], isError: false },
  { content: [text('hi')], structuredContent: { n: 1, deep: [{ a: null }] } },
  { content: [text('hi')], structuredContent: { n: 1 }, isError: true },
  { content: [text('hi')], structuredContent: 'not an object' },
  { content: [text('hi')], structuredContent: undefined },
  { content: [text('hi')], isError: undefined },
  // Off the plain shape: the schema decides each.
  { content: [text('hi')], isError: 'yes' },
  { content: [text('hi')], isError: null },
  { content: [text(5)] },
  { content: [text(null)] },
  { content: [{ type: 'text' }] },
  { content: [{ text: 'no type' }] },
  { content: [{ text: 'hi', type: 'text' }] },
  { content: [{ type: 'text', text: 'hi', extra: 1 }] },
  { content: [{ type: 'text', text: 'hi', annotations: { audience: ['user'] } }] },
  { content: [{ type: 'text', text: 'hi', annotations: { audience: ['nobody'] } }] },
  { content: [{ type: 'text', text: 'hi', _meta: { a: 1 } }] },
  { content: [{ type: 'image', data: 'aGk=', mimeType: 'image/png' }] },
  { content: [{ type: 'image', data: 'not base64!', mimeType: 'image/png' }] },
  { content: [{ type: 'resource_link', uri: 'file:///x', name: 'x' }] },
  { content: [{ type: 'nonsense' }] },
  { content: [text('hi'), null] },
  { content: [text('hi'), 'hi'] },
  { content: [[text('hi')]] },
  { content: 'hi' },
  { content: { 0: text('hi') } },
  { content: null },
  {},
  { isError: true },
  { isError: true, content: [text('order')] },
  { structuredContent: {}, content: [text('order')] },
  { content: [text('hi')], isError: true, structuredContent: {} },
  { content: [text('hi')], _meta: { progressToken: 1 } },
  { content: [text('hi')], extra: 'kept by a loose schema' },
  { content: [text('hi')], toolResult: 'old era' },
  { toolResult: 'old era' },
  Object.assign(Object.create({ inherited: true }) as object, { content: [text('a class-made object')] }),
  { content: [Object.assign(Object.create({ type: 'text' }) as object, { text: 'inherited type' })] },
  Object.assign(Object.create(null) as object, { content: [text('no prototype')] }),
  [],
  null,
  'a string',
  5,
];

describe('gateway result check (the tools/call result as the SDK schema passes it)', () => {
  it('gives for every result what the SDK schema gives: the same JSON, or the same issues', () => {
    for (const result of results) assert.deepEqual(checkedResult(result), bySchema(result), JSON.stringify(result));
  });

  it('gives what the schema gives for every one-key change of a plain result', () => {
    const values: unknown[] = [undefined, null, true, 0, '', 'text', [], {}, [text('x')], text('x')];
    const base = { content: [text('a'), text('b')], structuredContent: { k: 'v' }, isError: false };
    let compared = 0;
    for (const key of ['content', 'structuredContent', 'isError', '_meta', 'other']) {
      for (const value of values) {
        const result = { ...base, [key]: value };
        assert.deepEqual(checkedResult(result), bySchema(result), JSON.stringify(result));
        compared++;
      }
    }
    for (const key of ['type', 'text', 'annotations', '_meta', 'other']) {
      for (const value of values) {
        const result = { content: [text('a'), { ...text('b'), [key]: value }] };
        assert.deepEqual(checkedResult(result), bySchema(result), JSON.stringify(result));
        compared++;
      }
    }
    assert.equal(compared, 100);
  });

  it('refuses a result the schema refuses, saying why', () => {
    const refused = checkedResult({ content: [text(5)] });
    assert.equal(refused.ok, false);
    assert.ok(!refused.ok && refused.issues.length > 0);
    assert.equal(checkedResult({ content: [text('hi')], isError: 'yes' }).ok, false);
  });
});
