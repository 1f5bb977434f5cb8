import * as assert from 'node:assert/strict';
import { problemText } from '../../src/core/tools/schemaProblems';
import { SchemaValidator } from '../../src/core/tools/schemaValidator';

describe('SchemaValidator', () => {
  const v = new SchemaValidator();

  it('says which field is wrong and why', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer', maximum: 10 }, s: { type: 'string' } }, required: ['s'] };
    const c = v.compile(schema);
    assert.ok(c.ok);
    assert.deepEqual(c.check({ s: 'x', n: 3 }), { valid: true });
    const bad = c.check({ n: 11 });
    assert.equal(bad.valid, false);
    if (!bad.valid) {
      assert.deepEqual(bad.problems, [
        { path: [], kind: 'missing', property: 's', message: "must have required property 's'" },
        { path: ['n'], kind: 'other', message: 'must be <= 10' },
      ]);
      assert.deepEqual(bad.problems.map(problemText), ['(top level): missing required property "s"', '/n: must be <= 10']);
    }
  });

  it('never writes a server\'s schema text to the console (a terminal would run its escapes)', () => {
    const written: unknown[] = [];
    const saved = { warn: console.warn, log: console.log, error: console.error };
    console.warn = console.log = console.error = (...args: unknown[]) => void written.push(...args);
    try {
      const c = new SchemaValidator().compile({ type: 'object', properties: { s: { type: 'string', format: '\u001b]0;pwned\u0007\u001b[2K approved' } } });
      assert.ok(c.ok && c.check({ s: 'x' }).valid);
    } finally {
      Object.assign(console, saved);
    }
    assert.deepEqual(written, []);
  });

  it('routes by $schema: 2020-12 prefixItems, draft-07 items arrays', () => {
    const s2020 = v.compile({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'array', prefixItems: [{ type: 'number' }] });
    assert.ok(s2020.ok && !s2020.check(['x']).valid);
    const s07 = v.compile({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'number' }] });
    assert.ok(s07.ok && !s07.check(['x']).valid);
  });

  it('retries an unmarked schema as draft-07 when 2020-12 will not take it', () => {
    const c = v.compile({ type: 'object', definitions: { n: { type: 'number' } }, properties: { a: { $ref: '#/definitions/n' } } });
    assert.ok(c.ok && !c.check({ a: 'x' }).valid);
  });

  it('reports a schema that will not compile instead of throwing, and caches per schema', () => {
    const broken = { type: 'object', properties: { a: { $ref: '#/nowhere' } } };
    const c = v.compile(broken);
    assert.equal(c.ok, false);
    assert.equal(v.compile(broken), c);
  });

  it('getValidator (the SDK port) reads nothing of a schema until the validator is first used', () => {
    const touched: PropertyKey[] = [];
    const schema = new Proxy({ type: 'object', required: ['a'] }, { get: (t, k) => (touched.push(k), Reflect.get(t, k)) });
    const validate = v.getValidator(schema);
    assert.deepEqual(touched, []);
    assert.equal(validate({}).valid, false);
    assert.ok(touched.length > 0);
    assert.equal(v.getValidator({ $ref: '#/nowhere' })({}).valid, false);
  });

  it('checks formats', () => {
    const c = v.compile({ type: 'object', properties: { url: { type: 'string', format: 'uri' } } });
    assert.ok(c.ok && !c.check({ url: 'not a uri' }).valid);
  });
});
