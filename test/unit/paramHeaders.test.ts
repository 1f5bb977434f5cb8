import * as assert from 'node:assert/strict';
import { paramHeaderValues, scanParamHeaders } from '../../src/core/connection/paramHeaders';

const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });
const fault = (schema: unknown) => {
  const scan = scanParamHeaders(schema);
  return 'fault' in scan ? scan.fault : undefined;
};

describe('x-mcp-header declarations (2026-07-28 over HTTP)', () => {
  it('finds declarations on string, integer and boolean properties at any depth of "properties"', () => {
    const scan = scanParamHeaders(object({ a: { type: 'string', 'x-mcp-header': 'A' }, deep: object({ b: { type: 'integer', 'x-mcp-header': 'B' }, c: { type: 'boolean', 'x-mcp-header': 'C' } }) }));
    assert.ok('headers' in scan);
    assert.deepEqual([...scan.headers].sort((x, y) => x.name.localeCompare(y.name)), [
      { path: ['a'], name: 'A' },
      { path: ['deep', 'b'], name: 'B' },
      { path: ['deep', 'c'], name: 'C' },
    ]);
  });

  it('rejects what the spec forbids: numbers and objects, bad names, twins that differ only in case, the root, unreachable places', () => {
    assert.match(fault(object({ n: { type: 'number', 'x-mcp-header': 'N' } }))!, /not a string, integer or boolean/);
    assert.match(fault(object({ o: { type: 'object', 'x-mcp-header': 'O' } }))!, /not a string, integer or boolean/);
    assert.match(fault(object({ u: { 'x-mcp-header': 'U' } }))!, /not a string, integer or boolean/);
    for (const name of ['', 'Two Words', 'A\r\nX-Injected: 1', 'A:B', 'Ünicode', 42]) {
      assert.match(fault(object({ a: { type: 'string', 'x-mcp-header': name } }))!, /not a valid header name/, String(name));
    }
    assert.match(fault(object({ a: { type: 'string', 'x-mcp-header': 'Same' }, b: { type: 'string', 'x-mcp-header': 'sAME' } }))!, /declared twice/);
    assert.match(fault({ type: 'object', 'x-mcp-header': 'Root' })!, /not reached through "properties"/);
    for (const keyword of ['items', 'additionalProperties', 'not', 'if']) {
      assert.match(fault(object({ x: { [keyword]: { type: 'string', 'x-mcp-header': 'X' } } }))!, /not reached through "properties"/, keyword);
    }
    for (const keyword of ['anyOf', 'oneOf', 'allOf']) {
      assert.match(fault(object({ x: { [keyword]: [{ type: 'string', 'x-mcp-header': 'X' }] } }))!, /not reached/, keyword);
    }
    assert.match(fault({ type: 'object', $defs: { d: object({ x: { type: 'string', 'x-mcp-header': 'X' } }) } })!, /not reached/);
  });

  it('a schema 100,000 levels deep is scanned without running out of stack', () => {
    let schema: Record<string, unknown> = { type: 'string', 'x-mcp-header': 'Deep' };
    for (let i = 0; i < 100_000; i++) schema = object({ p: schema });
    const scan = scanParamHeaders(schema);
    assert.ok('headers' in scan && scan.headers.length === 1 && scan.headers[0].path.length === 100_000);
  });

  it('values: primitives as text, absent and null send nothing, a value of the wrong kind sends nothing', () => {
    const headers = [
      { path: ['s'], name: 'S' },
      { path: ['i'], name: 'I' },
      { path: ['b'], name: 'B' },
      { path: ['n'], name: 'N' },
      { path: ['o', 'x'], name: 'X' },
      { path: ['big'], name: 'Big' },
    ];
    assert.deepEqual(paramHeaderValues(headers, { s: 'plain', i: 42, b: false, n: null, o: { x: { nested: true } }, big: 2 ** 60 }), {
      'Mcp-Param-S': 'plain',
      'Mcp-Param-I': '42',
      'Mcp-Param-B': 'false',
    });
    assert.deepEqual(paramHeaderValues(headers, {}), {});
    // Own properties only: a path through the prototype finds nothing.
    assert.deepEqual(paramHeaderValues([{ path: ['constructor', 'name'], name: 'P' }], {}), {});
  });

  it('a value that is not plain printable ASCII, or has spaces at its ends, or looks encoded, is sent as base64', () => {
    const b64 = (s: string) => `=?base64?${Buffer.from(s, 'utf8').toString('base64')}?=`;
    for (const value of ['Zürich', 'line\r\nX-Injected: 1', ' padded', 'trailing ', '', '=?base64?abc?=', '\u202Eevil']) {
      assert.deepEqual(paramHeaderValues([{ path: ['v'], name: 'V' }], { v: value }), { 'Mcp-Param-V': b64(value) }, JSON.stringify(value));
    }
    assert.deepEqual(paramHeaderValues([{ path: ['v'], name: 'V' }], { v: 'tab\there' }), { 'Mcp-Param-V': 'tab\there' });
  });
});
