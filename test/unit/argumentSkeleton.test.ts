import * as assert from 'node:assert/strict';
import { argumentSkeleton, argumentsText } from '../../src/core/tools/argumentSkeleton';
import { firstValueSpan, parseArgumentsText, placeProblems } from '../../src/core/tools/argumentDocument';
import { describeProblem, problemsOfField, problemText, type SchemaProblem } from '../../src/core/tools/schemaProblems';
import { SchemaValidator } from '../../src/core/tools/schemaValidator';

describe('argument skeleton for the JSON editor', () => {
  it('fills required fields with defaults or typed empty values, and optional ones only with defaults', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        count: { type: 'integer', minimum: 1 },
        ratio: { type: 'number' },
        on: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        mode: { enum: ['a', 'b'] },
        size: { type: 'integer', default: 5 },
        skipped: { type: 'string' },
        where: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number', default: 2 }, z: { type: 'string' } }, required: ['x'] },
      },
      required: ['name', 'count', 'ratio', 'on', 'tags', 'mode', 'where'],
    };
    assert.deepEqual(argumentSkeleton(schema), { name: '', count: 1, ratio: 0, on: false, tags: [], mode: 'a', size: 5, where: { x: 0, y: 2 } });
  });

  it('follows local $refs, merges allOf and takes the first oneOf choice', () => {
    const schema = {
      type: 'object',
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      properties: {
        at: { $ref: '#/$defs/point' },
        either: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        both: { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'boolean' } }, required: ['b'] }] },
      },
      required: ['at', 'either', 'both'],
    };
    assert.deepEqual(argumentSkeleton(schema), { at: { x: 0 }, either: '', both: { a: '', b: false } });
  });

  it('survives recursive and broken schemas', () => {
    const tree = { type: 'object', properties: { child: { $ref: '#' } }, required: ['child'] };
    assert.ok(argumentSkeleton(tree));
    assert.deepEqual(argumentSkeleton({ properties: { a: { $ref: '#/nowhere' } }, required: ['a'] }), { a: null });
    assert.deepEqual(argumentSkeleton('nonsense'), {});
  });

  it('lays the last values over the skeleton, dropping keys a closed schema forbids', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer', default: 3 } }, required: ['a'], additionalProperties: false };
    assert.equal(argumentsText(schema, { a: 'x', gone: 1 }), '{\n  "a": "x",\n  "b": 3\n}\n');
    assert.equal(argumentsText({ type: 'object' }, { extra: true }), '{\n  "extra": true\n}\n');
  });
});

describe('problems: which field and why, in prompts and in the editor', () => {
  it('gives each SchemaValidator problem as a path and a kind, worded per surface', () => {
    const schema = {
      type: 'object',
      properties: {
        values: { type: 'array', items: { type: 'number', minimum: 0 } },
        where: { type: 'object', required: ['x'] },
        'a/b': { type: 'string' },
        count: { type: 'integer', maximum: 10 },
      },
      required: ['name'],
      additionalProperties: false,
    };
    const compiled = new SchemaValidator().compile(schema);
    assert.ok(compiled.ok);
    const problemsOf = (value: unknown): readonly SchemaProblem[] => {
      const check = compiled.check(value);
      return check.valid ? [] : check.problems;
    };
    const problems = problemsOf({ values: [1, 1, -1], where: {}, 'a/b': 1, zzz: true, count: 11 });
    const byPath = (...path: (string | number)[]) => problems.find((p) => JSON.stringify(p.path) === JSON.stringify(path) && p.kind !== 'unexpected' && (path.length > 0 || p.kind === 'missing'))!;
    assert.deepEqual(byPath('values', 2), { path: ['values', 2], kind: 'other', message: 'must be at least 0' });
    assert.equal(problemText(byPath('values', 2)), '/values/2: must be at least 0');
    assert.equal(describeProblem(byPath('values', 2)), 'values[2] must be at least 0');
    assert.equal(describeProblem(byPath()), 'name is required');
    assert.equal(problemText(byPath()), '(top level): missing required property "name"');
    assert.equal(describeProblem(byPath('where')), 'where.x is required');
    assert.equal(problemText(byPath('where')), '/where: missing required property "x"');
    const unexpected = problems.find((p) => p.kind === 'unexpected')!;
    assert.equal(describeProblem(unexpected), '"zzz" is not an argument of this tool');
    assert.equal(problemText(unexpected), '(top level): unexpected property "zzz"');
    assert.equal(describeProblem(byPath('a/b')), '["a/b"] must be text');
    assert.equal(problemText(byPath('a/b')), '/a~1b: must be text');
    const [notObject] = problemsOf(5);
    assert.equal(describeProblem(notObject), 'the arguments must be an object');
    assert.deepEqual(problemsOfField(problems, 'name'), ['name is required']);
    assert.deepEqual(problemsOfField(problems, 'count'), ['count must be at most 10']);
  });

  it('parses strict JSON and says where it breaks', () => {
    assert.deepEqual(parseArgumentsText('{"a": 1}'), { ok: true, value: { a: 1 } });
    const bad = parseArgumentsText('{\n  "a": 1\n  "b": 2\n}');
    assert.equal(bad.ok, false);
    if (!bad.ok) {
      assert.equal(bad.message, 'Not valid JSON at line 3, column 3: comma expected.');
      assert.equal(bad.span.offset, 13);
    }
    const notObject = parseArgumentsText('[1]');
    assert.ok(!notObject.ok && /must be a JSON object/.test(notObject.message));
    assert.ok(!parseArgumentsText('').ok);
    assert.ok(!parseArgumentsText('{"a": 1, // no comments\n}').ok);
  });

  it('puts the caret inside the first empty string, else selects the first value', () => {
    const text = '{\n  "count": 1,\n  "name": ""\n}\n';
    assert.deepEqual(firstValueSpan(text), { offset: text.indexOf('""') + 1, length: 0 });
    assert.deepEqual(firstValueSpan('{"values": []}'), { offset: 11, length: 2 });
    assert.equal(firstValueSpan('{}'), undefined);
  });

  it('places schema problems on the value, the unknown key, or the brace of the object missing a key', () => {
    const schema = { type: 'object', properties: { values: { type: 'array', items: { type: 'number', minimum: 0 } }, name: { type: 'string' } }, required: ['name'], additionalProperties: false };
    const compiled = new SchemaValidator().compile(schema);
    assert.ok(compiled.ok);
    const text = '{\n  "values": [1, -2],\n  "extra": true\n}';
    const check = compiled.check(JSON.parse(text));
    assert.ok(!check.valid);
    const placed = placeProblems(text, check.valid ? [] : check.problems);
    const at = (m: string) => placed.find((p) => p.message === m);
    assert.deepEqual(at('name is required'), { offset: 0, length: 1, message: 'name is required' });
    assert.equal(text.substr(at('"extra" is not an argument of this tool')!.offset, at('"extra" is not an argument of this tool')!.length), '"extra"');
    const neg = at('values[1] must be at least 0')!;
    assert.equal(text.substr(neg.offset, neg.length), '-2');
  });
});
