import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { argumentsHash } from '../../src/core/calls/auditHash';
import { canonicalJson } from '../../src/core/policy/toolPin';

/** Canonical JSON as its definition reads: keys sorted at every level, undefined values left out, primitives as JSON writes them. */
function reference(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${reference(v)}`).join(',')}}`;
}

// Keys that sort in ways insertion order does not: integer-like ones (an object lists them first, in number order), unicode, the prototype's names.
const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('0', '1', '9', '10', '__proto__', 'constructor', 'toString', 'é', 'Z', 'a', '\u{1F600}', '\ud800'));
const primitive = fc.oneof(fc.string({ unit: 'binary' }), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.constantFrom(Number.NaN, Infinity, -0));
const flat = fc.dictionary(key, primitive, { maxKeys: 8 });
const nested = fc.letrec((tie) => ({ value: fc.oneof({ depthSize: 'small' }, primitive, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(key, tie('value'), { maxKeys: 4 })) })).value;

describe('canonicalJson: the arguments an audit line hashes, and what pins and grants compare', () => {
  it('writes an object of plain values (in order or not) as the definition does, and as inside an array', () => {
    fc.assert(
      fc.property(flat, (value) => {
        assert.equal(canonicalJson(value), reference(value));
        // Inside an array the object takes the general walk: the one-pass way for a flat object must agree with it.
        assert.equal(canonicalJson([value]), `[${canonicalJson(value)}]`);
      }),
      { numRuns: 10_000 },
    );
  });

  it('writes any value as the definition does', () => {
    fc.assert(fc.property(nested, (value) => assert.equal(canonicalJson(value), reference(value))), { numRuns: 5_000 });
  });

  it('sorts what is not in order, reads each value once, and leaves out undefined', () => {
    assert.equal(canonicalJson({ text: 'hi', a: 1 }), '{"a":1,"text":"hi"}');
    assert.equal(canonicalJson({ 10: 'x', 9: 'y' }), '{"10":"x","9":"y"}');
    assert.equal(canonicalJson({ a: 1, u: undefined, z: null }), '{"a":1,"z":null}');
    assert.equal(canonicalJson({}), '{}');
    let reads = 0;
    const counted = { a: 1, get b() { return ++reads; } };
    assert.equal(canonicalJson(counted), '{"a":1,"b":1}');
    assert.equal(reads, 1);
  });

  it('attacker: an own "__proto__" key, a function for a value, and a key the prototype holds change nothing they should not', () => {
    const parsed = JSON.parse('{"__proto__":{"admin":true},"a":"x"}') as Record<string, unknown>;
    assert.equal(canonicalJson(parsed), '{"__proto__":{"admin":true},"a":"x"}');
    // A function is no JSON value: the one-pass way leaves it to the general walk, which writes what it always wrote.
    const withFunction = { a: () => 1, b: 'x' };
    assert.equal(`[${canonicalJson(withFunction)}]`, canonicalJson([withFunction]));
    const inherited = Object.create({ inheritedKey: 'not written' }) as Record<string, unknown>;
    inherited.own = 'written';
    assert.equal(canonicalJson(inherited), '{"own":"written"}');
    // The hash tells calls apart by their arguments, whatever order their keys came in.
    assert.equal(argumentsHash({ text: 'hi', a: 1 }), argumentsHash({ a: 1, text: 'hi' }));
    assert.notEqual(argumentsHash({ a: 1 }), argumentsHash({ a: '1' }));
  });
});
