import * as assert from 'node:assert/strict';
import { MAX_QUOTED_CHARS, plainMessage } from '../../src/core/tools/plainMessages';
import { describeProblem, problemText } from '../../src/core/tools/schemaProblems';
import { SchemaValidator } from '../../src/core/tools/schemaValidator';

const validator = new SchemaValidator();
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e]/;

/** The plain message of each problem `value` has against `schema`, as ajv reports them. */
function messages(schema: object, value: unknown): string[] {
  const compiled = validator.compile(schema);
  assert.ok(compiled.ok, JSON.stringify(compiled));
  const check = compiled.check(value);
  return check.valid ? [] : check.problems.map((p) => p.message);
}

/** The one message `value` gets against `schema`. */
function message(schema: object, value: unknown): string {
  const all = messages(schema, value);
  assert.equal(all.length, 1, JSON.stringify(all));
  return all[0];
}

describe('validation messages in plain words', () => {
  it('type: each JSON type, and a list of types', () => {
    assert.equal(message({ type: 'integer' }, 2.5), 'must be a whole number');
    assert.equal(message({ type: 'number' }, 'x'), 'must be a number');
    assert.equal(message({ type: 'string' }, 1), 'must be text');
    assert.equal(message({ type: 'boolean' }, 1), 'must be true or false');
    assert.equal(message({ type: 'array' }, 1), 'must be a list');
    assert.equal(message({ type: 'object' }, 1), 'must be an object');
    assert.equal(message({ type: 'null' }, 1), 'must be null');
    assert.equal(message({ type: ['string', 'null'] }, 1), 'must be text or null');
    assert.equal(message({ type: ['number', 'string', 'null'] }, true), 'must be a number, text or null');
    assert.equal(message({ type: ['boolean', 'null'] }, 1), 'must be true or false, or null');
  });

  it('format: common formats say what a value looks like, others are "a valid <format>"', () => {
    const cases: [string, string][] = [
      ['uri', 'must be a URL (uri)'],
      ['uri-reference', 'must be a URL or a relative reference (uri-reference)'],
      ['email', 'must be a valid email address'],
      ['date', 'must be a date like 2024-01-31'],
      ['date-time', 'must be a date and time like 2024-01-31T09:30:00Z'],
      ['time', 'must be a time like 09:30:00Z'],
      ['uuid', 'must be a UUID like 123e4567-e89b-12d3-a456-426614174000'],
      ['ipv4', 'must be an IPv4 address like 192.168.0.1'],
      ['ipv6', 'must be an IPv6 address like 2001:db8::1'],
      ['hostname', 'must be a host name like example.com'],
      ['regex', 'must be a valid regular expression'],
      ['json-pointer', 'must be a valid json-pointer'],
    ];
    for (const [format, expected] of cases) assert.equal(message({ type: 'string', format }, 'not valid ['), expected, format);
    assert.equal(plainMessage({ keyword: 'format', params: { format: 'my\nformat' } }), 'must be a valid my\\nformat');
  });

  it('lengths, counts of items and of properties: singular and plural', () => {
    assert.equal(message({ minLength: 1 }, ''), 'must have at least 1 character');
    assert.equal(message({ minLength: 2 }, 'a'), 'must have at least 2 characters');
    assert.equal(message({ maxLength: 1 }, 'ab'), 'must have at most 1 character');
    assert.equal(message({ maxLength: 3 }, 'abcd'), 'must have at most 3 characters');
    assert.equal(message({ minItems: 1 }, []), 'must have at least 1 item');
    assert.equal(message({ maxItems: 3 }, [1, 2, 3, 4]), 'must have at most 3 items');
    assert.equal(message({ minProperties: 1 }, {}), 'must have at least 1 property');
    assert.equal(message({ maxProperties: 2 }, { a: 1, b: 2, c: 3 }), 'must have at most 2 properties');
    assert.equal(message({ prefixItems: [{}], items: false }, [1, 2]), 'must have at most 1 item');
  });

  it('ranges and multiples', () => {
    assert.equal(message({ minimum: 0 }, -1), 'must be at least 0');
    assert.equal(message({ maximum: 10 }, 11), 'must be at most 10');
    assert.equal(message({ exclusiveMinimum: 0 }, 0), 'must be more than 0');
    assert.equal(message({ exclusiveMaximum: 0.5 }, 1), 'must be less than 0.5');
    assert.equal(message({ multipleOf: 3 }, 4), 'must be a multiple of 3');
  });

  it('enum and const quote the allowed values', () => {
    assert.equal(message({ enum: ['a', 'b'] }, 'c'), 'must be one of: "a", "b"');
    assert.equal(message({ enum: ['only'] }, 'c'), 'must be "only"');
    assert.equal(message({ enum: [1, null, true] }, 'c'), 'must be one of: 1, null, true');
    const many = Array.from({ length: 25 }, (_, i) => `v${i}`);
    assert.equal(message({ enum: many }, 'x'), `must be one of: ${many.slice(0, 10).map((v) => `"${v}"`).join(', ')} (and 15 more)`);
    assert.equal(message({ const: 'x' }, 'y'), 'must be "x"');
    assert.equal(message({ const: 42 }, 1), 'must be 42');
  });

  it('pattern, uniqueItems', () => {
    assert.equal(message({ pattern: '^a+$' }, 'b'), 'must match the pattern ^a+$');
    assert.equal(message({ uniqueItems: true }, [1, 2, 1]), 'must not have duplicates (items 0 and 2 are the same)');
  });

  it('required and additionalProperties keep their kinds, now with plain messages', () => {
    const compiled = validator.compile({ type: 'object', properties: { a: {} }, required: ['a'], additionalProperties: false });
    assert.ok(compiled.ok);
    const check = compiled.check({ b: 1 });
    assert.ok(!check.valid);
    assert.deepEqual(check.problems, [
      { path: [], kind: 'missing', property: 'a', message: 'must have the property "a"' },
      { path: [], kind: 'unexpected', property: 'b', message: 'must not have the property "b"' },
    ]);
    assert.deepEqual(check.problems.map(describeProblem), ['a is required', '"b" is not an argument of this tool']);
  });

  it('oneOf, anyOf, not and if have plain fallbacks', () => {
    assert.ok(messages({ anyOf: [{ type: 'string' }, { type: 'number' }] }, true).includes('must match one of the allowed forms'));
    assert.ok(messages({ oneOf: [{ type: 'string' }, { type: 'number' }] }, true).includes('must match one of the allowed forms'));
    assert.deepEqual(messages({ oneOf: [{ type: 'string' }, { minLength: 0 }] }, 'x'), ['must match exactly one of the allowed forms, but matches more than one']);
    assert.equal(message({ not: { type: 'string' } }, 'x'), 'is a value the schema does not allow');
    assert.ok(messages({ if: { type: 'string' }, then: { minLength: 3 } }, 'a').includes('does not meet a condition the schema sets for such values (if/then)'));
    assert.equal(message({ dependentRequired: { a: ['b'] } }, { a: 1 }), 'must have the property "b" when it has "a"');
    assert.ok(messages({ contains: { type: 'string' } }, [1]).includes('must contain at least 1 matching item'));
    assert.ok(messages({ contains: { type: 'string' }, maxContains: 1 }, ['a', 'b']).includes('must contain exactly 1 matching item'));
    assert.ok(messages({ contains: { type: 'string' }, minContains: 2, maxContains: 3 }, ['a']).includes('must contain between 2 and 3 matching items'));
  });

  it('a keyword it does not know falls back to ajv\'s own words, on one line', () => {
    assert.equal(plainMessage({ keyword: 'someNewKeyword', params: {}, message: 'must be\nsomething' }), 'must be\\nsomething');
    assert.equal(plainMessage({ keyword: 'someNewKeyword', params: {} }), 'does not satisfy "someNewKeyword"');
  });

  it('reads right wherever it is shown', () => {
    const compiled = validator.compile({ type: 'object', properties: { count: { type: 'integer', maximum: 10 } } });
    assert.ok(compiled.ok);
    const check = compiled.check({ count: 11 });
    assert.ok(!check.valid);
    assert.equal(problemText(check.problems[0]), '/count: must be at most 10');
    assert.equal(describeProblem(check.problems[0]), 'count must be at most 10');
  });

  it('a hostile schema\'s values stay on one line and short, every hidden character shown as its escape', () => {
    const hostile = message({ enum: ['ok', 'line one\nline two\u202e\u001b[2J'] }, 'x');
    assert.equal(hostile, 'must be one of: "ok", "line one\\nline two\\u202E\\u001b[2J"');
    assert.ok(!INVISIBLE.test(hostile));
    assert.equal(plainMessage({ keyword: 'pattern', params: { pattern: '^a\nb\u200b\u2028$' } }), 'must match the pattern ^a\\nb\\u200B\\u2028$');

    // 10,000 characters, yet one RE2 instruction: the schema compiles, and its pattern is quoted cut.
    const huge = `^[${'a'.repeat(9_996)}]$`;
    assert.equal(huge.length, 10_000);
    assert.equal(message({ pattern: huge }, 'b'), `must match the pattern ^[${'a'.repeat(MAX_QUOTED_CHARS - 3)}…`);
    const lines = plainMessage({ keyword: 'pattern', params: { pattern: 'b\n'.repeat(5_000) } });
    assert.equal(lines, `must match the pattern ${'b\\n'.repeat(19)}b…`, 'no half escape before the cut');
    assert.equal(plainMessage({ keyword: 'pattern', params: { pattern: `${'a'.repeat(57)}\u202e` } }), `must match the pattern ${'a'.repeat(57)}…`);
    assert.ok(!INVISIBLE.test(lines));
    const longValue = message({ enum: ['x'.repeat(10_000), 'y'] }, 'z');
    assert.equal(longValue, `must be one of: "${'x'.repeat(MAX_QUOTED_CHARS - 2)}…, "y"`);
    assert.ok(message({ const: 'c'.repeat(10_000) }, 'z').length < 100);
  });
});

describe('where a problem is', () => {
  it('shows property names and keys on one line, however odd', () => {
    const compiled = validator.compile({ type: 'object', required: ['a\nb'], additionalProperties: { type: 'number' } });
    assert.ok(compiled.ok);
    const check = compiled.check({ 'x\u202ey': 'one' });
    assert.ok(!check.valid);
    const shown = [...check.problems.map(problemText), ...check.problems.map(describeProblem)];
    assert.deepEqual(shown, [
      '(top level): missing required property "a\\nb"',
      '/x\\u202Ey: must be a number',
      '["a\\nb"] is required',
      '["x\\u202Ey"] must be a number',
    ]);
  });
});
