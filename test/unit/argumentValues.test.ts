import * as assert from 'node:assert/strict';
import { planArguments, type ArgumentField } from '../../src/core/tools/argumentFields';
import { checkField, fieldText, initialValues, optionLabel, parseFieldText } from '../../src/core/tools/argumentValues';
import { SchemaValidator } from '../../src/core/tools/schemaValidator';
import type { SchemaProblem } from '../../src/core/tools/schemaProblems';

// The demo server's fetch_url, as its zod schema comes out on the wire.
const FETCH = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    url: { type: 'string', format: 'uri' },
    maxChars: { type: 'integer', minimum: 1, maximum: 100000, default: 2000 },
    tag: { type: 'string', pattern: '^[a-z]+$', minLength: 2 },
    mode: { enum: ['fast', 'slow'] },
    loud: { type: 'boolean' },
  },
  required: ['url'],
};
const fields = (() => {
  const plan = planArguments(FETCH);
  return plan.kind === 'fields' ? new Map(plan.fields.map((f) => [f.name, f])) : new Map<string, ArgumentField>();
})();
const field = (name: string) => fields.get(name)!;
const compiled = new SchemaValidator().compile(FETCH);
const validate = (args: Record<string, unknown>): readonly SchemaProblem[] => {
  const check = compiled.ok ? compiled.check(args) : undefined;
  return check && !check.valid ? check.problems : [];
};

describe('argument values: typed text to values, and per-field checks', () => {
  it('parses numbers, leaves empty optional fields unset, and keeps empty required strings', () => {
    assert.deepEqual(parseFieldText(field('maxChars'), ' 1e3 '), { kind: 'value', value: 1000 });
    assert.deepEqual(parseFieldText(field('maxChars'), '-2.5'), { kind: 'value', value: -2.5 });
    assert.deepEqual(parseFieldText(field('maxChars'), ''), { kind: 'unset' });
    assert.deepEqual(parseFieldText(field('maxChars'), '0x10'), { kind: 'invalid', message: 'maxChars must be a number; "0x10" is not one' });
    assert.deepEqual(parseFieldText(field('url'), ''), { kind: 'value', value: '' });
    assert.deepEqual(parseFieldText(field('tag'), ''), { kind: 'unset' });
    assert.deepEqual(parseFieldText(field('loud'), 'true'), { kind: 'value', value: true });
    assert.deepEqual(parseFieldText(field('mode'), 'slow'), { kind: 'value', value: 'slow' });
    assert.equal(parseFieldText(field('mode'), 'medium').kind, 'invalid');
  });

  it('a required number left empty says so', () => {
    const required: ArgumentField = { ...field('maxChars'), required: true };
    assert.deepEqual(parseFieldText(required, '  '), { kind: 'invalid', message: 'maxChars is required: enter a whole number' });
  });

  it('checks one field against the whole schema and names it: format, range, integer, pattern, length', () => {
    const message = (name: string, text: string) => {
      const entry = checkField(field(name), text, {}, validate);
      return entry.kind === 'invalid' ? entry.message : entry.kind;
    };
    assert.equal(message('url', 'not a url'), 'url must be a URL (uri)');
    assert.equal(message('url', 'https://example.com'), 'value');
    assert.equal(message('maxChars', '0'), 'maxChars must be at least 1');
    assert.equal(message('maxChars', '100001'), 'maxChars must be at most 100000');
    assert.equal(message('maxChars', '2.5'), 'maxChars must be a whole number');
    assert.equal(message('tag', 'AB'), 'tag must match the pattern ^[a-z]+$');
    assert.equal(message('tag', 'a'), 'tag must have at least 2 characters');
    assert.equal(message('tag', ''), 'unset');
    const name: ArgumentField = { ...field('tag'), required: true };
    const empty = checkField(name, '', {}, (a) => (a.tag === '' ? [{ path: ['tag'], kind: 'other', message: 'must have at least 2 characters' } as const] : []));
    assert.deepEqual(empty, { kind: 'invalid', message: 'tag is required' });
  });

  it('ignores problems of other fields while one is checked', () => {
    const entry = checkField(field('maxChars'), '5', { url: 'nope' }, validate);
    assert.deepEqual(entry, { kind: 'value', value: 5 });
  });

  it('starts from the last arguments, else defaults; shows values as text', () => {
    assert.deepEqual(initialValues([...fields.values()], undefined), { maxChars: 2000 });
    assert.deepEqual(initialValues([...fields.values()], { url: 'https://a.b', maxChars: 7, stale: 1 }), { url: 'https://a.b', maxChars: 7 });
    assert.equal(fieldText(undefined), '');
    assert.equal(fieldText('x'), 'x');
    assert.equal(fieldText(42), '42');
    assert.equal(optionLabel(null), 'null');
    assert.equal(optionLabel('fast'), 'fast');
  });
});
