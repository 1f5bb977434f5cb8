import * as assert from 'node:assert/strict';
import { planArguments, type ArgumentField } from '../../src/core/tools/argumentFields';

const fieldsOf = (schema: unknown): ArgumentField[] => {
  const plan = planArguments(schema);
  assert.equal(plan.kind, 'fields', JSON.stringify(plan));
  return plan.kind === 'fields' ? [...plan.fields] : [];
};

describe('planArguments: how a tool asks for its arguments', () => {
  it('asks nothing when the schema has no properties', () => {
    assert.deepEqual(planArguments({ type: 'object' }), { kind: 'none' });
    assert.deepEqual(planArguments({ type: 'object', properties: {} }), { kind: 'none' });
    assert.deepEqual(planArguments(undefined), { kind: 'none' });
  });

  it('lists scalar fields, required first in schema order, with kind, default and details', () => {
    const fields = fieldsOf({
      type: 'object',
      properties: {
        maxChars: { type: 'integer', minimum: 1, maximum: 100000, default: 2000 },
        url: { type: 'string', format: 'uri', description: 'Where to go' },
        ratio: { type: 'number' },
      },
      required: ['url'],
    });
    assert.deepEqual(fields.map((f) => [f.name, f.kind, f.required]), [['url', 'string', true], ['maxChars', 'integer', false], ['ratio', 'number', false]]);
    assert.equal(fields[0].description, 'Where to go');
    assert.equal(fields[0].details, 'string, format uri');
    assert.equal(fieldsOf({ properties: { n: { type: 'string', minLength: 1 } } })[0].details, 'string, at least 1 character');
    assert.equal(fields[1].details, 'integer, 1-100000, default 2000');
    assert.equal(fields[1].hasDefault, true);
    assert.equal(fields[1].defaultValue, 2000);
    assert.equal(fields[2].hasDefault, false);
  });

  it('offers picks for enums, consts and booleans; a nullable string is still a string', () => {
    const fields = fieldsOf({
      properties: {
        mode: { enum: ['fast', 'slow', 3, null] },
        fixed: { const: 'only' },
        loud: { type: 'boolean', default: false },
        note: { type: ['string', 'null'] },
      },
    });
    assert.deepEqual(fields.map((f) => [f.name, f.kind, f.options]), [
      ['mode', 'enum', ['fast', 'slow', 3, null]],
      ['fixed', 'enum', ['only']],
      ['loud', 'boolean', [true, false]],
      ['note', 'string', []],
    ]);
  });

  it('sends to the JSON editor what fields cannot express, and says why', () => {
    const reason = (schema: unknown) => {
      const plan = planArguments(schema);
      return plan.kind === 'json' ? plan.reason : plan.kind;
    };
    assert.equal(reason({ properties: { values: { type: 'array', items: { type: 'number' } } } }), '"values" is a list');
    assert.equal(reason({ properties: { where: { type: 'object' } } }), '"where" is an object');
    assert.equal(reason({ properties: { a: { anyOf: [{ type: 'string' }, { type: 'number' }] } } }), '"a" uses anyOf');
    assert.equal(reason({ properties: { a: { $ref: '#/$defs/x' } }, $defs: { x: { type: 'string' } } }), '"a" uses $ref');
    assert.equal(reason({ properties: { a: { type: ['string', 'number'] } } }), '"a" has type string or number');
    assert.equal(reason({ properties: { a: {} } }), '"a" may hold any kind of value');
    assert.equal(reason({ properties: { a: { enum: [{ x: 1 }] } } }), '"a" offers values that are objects or lists');
    assert.equal(reason({ properties: { a: { type: 'string' } }, oneOf: [{ required: ['a'] }] }), 'the schema uses oneOf');
    assert.equal(reason({ properties: { a: { type: 'string' } }, allOf: [] }), 'the schema uses allOf');
    assert.equal(reason({ type: 'object', additionalProperties: { type: 'string' } }), 'the tool takes arguments with any name');
    assert.equal(reason({ type: 'object', required: ['x'] }), 'the schema requires arguments it does not describe');
    assert.equal(reason({ properties: { a: 'nonsense' } }), '"a" has no schema');
  });
});
