import { strict as assert } from 'node:assert';
import type { Tool } from '@modelcontextprotocol/client';
import { toolNamed } from '../../src/core/tools/toolNamed';

const tool = (name: string, description = ''): Tool => ({ name, description, inputSchema: { type: 'object' } });

describe('toolNamed: the tool a call names, looked up in a listing', () => {
  it('finds the first tool of a name, in a listing of 10,000 as in one of three', () => {
    const first = tool('x', 'first');
    const listed = [tool('a'), first, tool('x', 'second'), ...Array.from({ length: 10_000 }, (_, i) => tool(`t${i}`))];
    assert.equal(toolNamed(listed, 'x'), first);
    assert.equal(toolNamed(listed, 't9999')?.name, 't9999');
    assert.equal(toolNamed(listed, 'a')?.name, 'a');
    assert.equal(toolNamed(listed, 'missing'), undefined);
    assert.equal(toolNamed([], 'x'), undefined);
  });

  it('reads each listing as it is: a new listing is a new array, and an old one keeps its own tools', () => {
    const before = [tool('x', 'before')];
    const after = [tool('x', 'after'), tool('y')];
    assert.equal(toolNamed(before, 'x')?.description, 'before');
    assert.equal(toolNamed(after, 'x')?.description, 'after');
    assert.equal(toolNamed(before, 'y'), undefined);
    assert.equal(toolNamed(before, 'x')?.description, 'before');
  });

  it('attacker: a name from the object prototype finds nothing unless a tool has it, and then only that tool', () => {
    const listed = [tool('echo')];
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) assert.equal(toolNamed(listed, name), undefined, name);
    const proto = tool('__proto__', 'a tool a server named so');
    const withProto = [proto, tool('constructor')];
    assert.equal(toolNamed(withProto, '__proto__'), proto);
    assert.equal(toolNamed(withProto, 'constructor')?.name, 'constructor');
    assert.equal(toolNamed(withProto, 'toString'), undefined);
  });
});
