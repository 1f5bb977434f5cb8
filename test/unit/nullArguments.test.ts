import * as assert from 'node:assert/strict';
import { withoutNullOptionals } from '../../src/core/tools/nullArguments';

describe('null for an optional argument', () => {
  const schema = {
    type: 'object',
    properties: {
      region: { type: 'string' },
      verbose: { type: 'boolean' },
      note: { type: ['string', 'null'] },
      mode: { enum: ['a', null] },
      either: { anyOf: [{ type: 'number' }, { type: 'null' }] },
      loose: {},
    },
    required: ['region'],
  };

  it('is left out when the schema does not take null and the argument is not required, and named', () => {
    assert.deepEqual(withoutNullOptionals(schema, { region: 'eu', verbose: null }), { args: { region: 'eu' }, dropped: ['verbose'] });
  });

  it('stays when required, when its schema takes null (type list, enum, anyOf, no type), or when the tool does not declare it', () => {
    const args = { region: null, note: null, mode: null, either: null, loose: null, other: null };
    const kept = withoutNullOptionals(schema, args);
    assert.deepEqual(kept, { args, dropped: [] });
    assert.equal(kept.args, args, 'the same object: nothing to leave out');
  });

  it('a schema it cannot read changes nothing', () => {
    assert.deepEqual(withoutNullOptionals({ type: 'object' }, { a: null }), { args: { a: null }, dropped: [] });
    assert.deepEqual(withoutNullOptionals(null, { a: null }), { args: { a: null }, dropped: [] });
  });
});
