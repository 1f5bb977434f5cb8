import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
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
        { path: [], kind: 'missing', property: 's', message: 'must have the property "s"' },
        { path: ['n'], kind: 'other', message: 'must be at most 10' },
      ]);
      assert.deepEqual(bad.problems.map(problemText), ['(top level): missing required property "s"', '/n: must be at most 10']);
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

  // Issue 13: a server's `pattern` must not block the host. With a backtracking engine,
  // ^(a+)+$ against 38 a's and a '!' runs for minutes; each check runs in a child process with
  // a time limit, so a regression fails here instead of hanging the suite.
  const evil = '^(a+)+$';
  // A backtracking engine takes hours on this (2^38 ways to split the a's); a linear one answers at
  // once. The child is ended after 10 s, so the test needs no clock of its own (a busy machine can't fail it).
  const attack = 'a'.repeat(38) + '!';

  it('a catastrophic pattern in an input schema answers (no backtracking)', async () => {
    const schema = { type: 'object', properties: { name: { type: 'string', pattern: evil } } };
    const answer = await checkInChild(schema, { name: attack });
    assert.equal(answer.valid, false);
  });

  it('a catastrophic pattern in an output schema answers (no backtracking), patternProperties too', async () => {
    const schema = {
      type: 'object',
      properties: { items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string', pattern: evil } } } } },
      patternProperties: { [evil]: { type: 'number' } },
    };
    const answer = await checkInChild(schema, { items: [{ id: attack }], [attack]: 'not a number' });
    assert.equal(answer.valid, false);
  });

  it('ordinary and unicode patterns still match as JavaScript does', () => {
    const cases: [string, string, boolean][] = [
      ['^[a-z]+$', 'abc', true], ['^[a-z]+$', 'AB', false],
      ['^\\p{L}+$', 'héllo', true], ['^\\p{Lu}', 'élan', false],
      ['^\\u00e9$', 'é', true], ['^.$', '😀', true], ['^[😀-😂]$', '😁', true],
      ['^\\d{3}-\\d{4}$', '555-1234', true], ['(?<year>\\d{4})', 'in 2026', true], ['^a/b$', 'a/b', true],
    ];
    for (const [pattern, text, expected] of cases) {
      assert.equal(new RegExp(pattern, 'u').test(text), expected, `JavaScript: ${pattern}`);
      const c = v.compile({ type: 'string', pattern });
      assert.ok(c.ok, pattern);
      assert.equal(c.check(text).valid, expected, `${pattern} on ${text}`);
    }
    const keys = v.compile({ type: 'object', patternProperties: { '^x-': { type: 'number' } } });
    assert.ok(keys.ok && keys.check({ 'x-a': 1 }).valid && !keys.check({ 'x-a': 'one' }).valid);
  });

  it('a pattern the linear engine cannot run (backreference, lookaround) fails that one schema, named', () => {
    for (const pattern of ['^(a)\\1$', '^(?=a)a', '(?<!a)b']) {
      const c = v.compile({ type: 'object', properties: { s: { type: 'string', pattern } } });
      assert.ok(!c.ok && c.error.startsWith(`pattern ${JSON.stringify(pattern)} is not supported`), JSON.stringify(c));
    }
    assert.ok(v.compile({ type: 'string', pattern: '^ok$' }).ok);
  });

  it('a pattern too large for the engine fails that one schema', () => {
    const c = v.compile({ type: 'string', pattern: '(?:[ab]{1000}c)'.repeat(20) });
    assert.ok(!c.ok && /is too large/.test(c.error), JSON.stringify(c));
  });

  it('a long text against a large pattern fails at once instead of stalling (characters × pattern size is bounded)', () => {
    const c = v.compile({ type: 'string', pattern: '^[ab]*a[ab]{999}$' });
    assert.ok(c.ok);
    assert.ok(c.check('a'.repeat(5_000)).valid);
    const start = performance.now();
    assert.equal(c.check('a'.repeat(20_000)).valid, false);
    assert.ok(performance.now() - start < 50);
  });
});

/** Compiles `schema` and checks `value` in a child process (killed after 10 s): whether valid, and the ms the check took. */
function checkInChild(schema: object, value: unknown): Promise<{ valid: boolean }> {
  const validator = path.join(__dirname, '../../src/core/tools/schemaValidator.js');
  const script = `
    const { SchemaValidator } = require(${JSON.stringify(validator)});
    const [schema, value] = JSON.parse(process.argv[1]);
    const c = new SchemaValidator().compile(schema);
    if (!c.ok) throw new Error(c.error);
    process.stdout.write(JSON.stringify({ valid: c.check(value).valid }));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', script, JSON.stringify([schema, value])], { timeout: 10_000 }, (err, stdout) => {
      if (err) reject(new Error(err.killed ? 'the check did not answer within 10 s' : String(err)));
      else resolve(JSON.parse(stdout) as { valid: boolean });
    });
  });
}
