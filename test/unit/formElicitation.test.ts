import * as assert from 'node:assert/strict';
import { checkValue, defaultAnswer, formFields, type FormField } from '../../src/core/elicitation/formElicitation';

const form = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
const fieldsOf = (schema: unknown): FormField[] => {
  const fields = formFields(schema);
  assert.ok(Array.isArray(fields), String(fields));
  return fields;
};

describe('elicitation forms (form mode)', () => {
  it('reads every kind of field the spec allows, with its default when the default fits', () => {
    const fields = fieldsOf(
      form(
        {
          name: { type: 'string', title: 'Name', default: 'Ada', minLength: 1 },
          email: { type: 'string', format: 'email' },
          age: { type: 'integer', minimum: 0, maximum: 150, default: 36 },
          score: { type: 'number', default: 9.5 },
          verified: { type: 'boolean', default: true },
          status: { type: 'string', enum: ['active', 'away'], default: 'away' },
          level: { type: 'string', oneOf: [{ const: 'lo', title: 'Low' }, { const: 'hi', title: 'High' }] },
          legacy: { type: 'string', enum: ['x', 'y'], enumNames: ['Ex', 'Why'] },
          tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['b'] },
          picks: { type: 'array', items: { anyOf: [{ const: 'p', title: 'P' }] } },
          wrongDefault: { type: 'integer', default: 'seven' },
        },
        ['name'],
      ),
    );
    assert.deepEqual(
      fields.map((f) => [f.name, f.kind, f.required, f.default]),
      [
        ['name', 'string', true, 'Ada'],
        ['email', 'string', false, undefined],
        ['age', 'integer', false, 36],
        ['score', 'number', false, 9.5],
        ['verified', 'boolean', false, true],
        ['status', 'choice', false, 'away'],
        ['level', 'choice', false, undefined],
        ['legacy', 'choice', false, undefined],
        ['tags', 'choices', false, ['b']],
        ['picks', 'choices', false, undefined],
        ['wrongDefault', 'integer', false, undefined],
      ],
    );
    assert.deepEqual(fields.find((f) => f.name === 'level')?.options, [{ value: 'lo', label: 'Low' }, { value: 'hi', label: 'High' }]);
    assert.deepEqual(fields.find((f) => f.name === 'legacy')?.options, [{ value: 'x', label: 'Ex' }, { value: 'y', label: 'Why' }]);
  });

  it('a form outside what the spec allows is refused whole, saying why', () => {
    assert.match(String(formFields({ type: 'string' })), /not an object schema/);
    assert.match(String(formFields(form({ inner: { type: 'object', properties: {} } }))), /field "inner": type "object" is not one a form may ask for/);
    assert.match(String(formFields(form({ list: { type: 'array', items: { type: 'string' } } }))), /a list of choices without its choices/);
    assert.match(String(formFields(form(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, { type: 'string' }]))))), /asks for 51 values/);
  });

  it("the defaults' answer (SEP-1034): every field with a default, or the required field that has none", () => {
    const fields = fieldsOf(form({ a: { type: 'string', default: 'x' }, b: { type: 'boolean' }, c: { type: 'number', default: 0 } }));
    assert.deepEqual(defaultAnswer(fields), { a: 'x', c: 0 });
    assert.equal(defaultAnswer(fieldsOf(form({ need: { type: 'string' } }, ['need']))), 'the required field "need" has no default');
  });

  it('checks a value against its field: kinds, bounds, formats and choices', () => {
    const [text, age, mail, when, pick] = fieldsOf(
      form({ text: { type: 'string', maxLength: 3 }, age: { type: 'integer', minimum: 0 }, mail: { type: 'string', format: 'email' }, when: { type: 'string', format: 'date' }, pick: { type: 'string', enum: ['a'] } }),
    );
    assert.equal(checkValue(text, 'abcd'), 'must have at most 3 characters');
    assert.equal(checkValue(age, 1.5), 'must be a whole number');
    assert.equal(checkValue(age, -1), 'must be at least 0');
    assert.equal(checkValue(mail, 'not mail'), 'must be an email address');
    assert.equal(checkValue(mail, 'ada@example.com'), undefined);
    assert.equal(checkValue(when, '2024-13-45'), 'must be a date like 2024-01-31');
    assert.equal(checkValue(pick, 'b'), 'must be one of the choices');
    assert.equal(checkValue(pick, 'a'), undefined);
  });
});
