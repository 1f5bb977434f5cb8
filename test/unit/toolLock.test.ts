import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { compareLock, driftOfTool, lockfileText, lockOf, parseLockfile, type Lockfile, type ToolDrift } from '../../src/core/policy/toolLock';
import { pinTool } from '../../src/core/policy/toolPin';

const t = (name: string, description: string, extra: Partial<Tool> = {}): Tool => ({ name, description, inputSchema: { type: 'object' }, ...extra });
const lockText = (servers: Record<string, Tool[]>) => lockfileText(lockOf(Object.entries(servers).map(([name, tools]) => ({ name, tools }))));
const problem = (text: string) => assert.throws(() => parseLockfile(text), (err: Error) => (assert.equal(err.name, 'LockfileError'), true)) as unknown;
const messageOf = (text: string) => {
  try {
    parseLockfile(text);
  } catch (err) {
    return (err as Error).message;
  }
  return 'no problem';
};

describe('the pin lockfile (format)', () => {
  it('is the same text whatever order servers, tools and keys come in: sorted at every level, versioned, ending in a newline', () => {
    const a = lockText({ zeta: [t('b', 'Bees.'), t('a', 'Adds.', { inputSchema: { type: 'object', required: ['x'], properties: { x: { type: 'string' } } } })], alpha: [t('c', 'Sees.')] });
    const b = lockText({ alpha: [t('c', 'Sees.')], zeta: [t('a', 'Adds.', { inputSchema: { properties: { x: { type: 'string' } }, required: ['x'], type: 'object' } }), t('b', 'Bees.')] });
    assert.equal(a, b);
    assert.ok(a.startsWith('{\n  "lockfileVersion": 1,\n  "servers": {\n    "alpha": {'), a);
    assert.ok(a.endsWith('}\n'));
    assert.ok(a.indexOf('"a"') < a.indexOf('"b"') && a.indexOf('"alpha"') < a.indexOf('"zeta"'));
    const adds = a.slice(a.indexOf('"zeta"'));
    assert.ok(adds.indexOf('"properties"') < adds.indexOf('"required"') && adds.indexOf('"required"') < adds.indexOf('"type": "object"'), 'keys inside schemas are sorted too');
  });

  it('holds each tool\'s pin hash, the one trust on first use keeps, and reads back what it wrote', () => {
    const tool = t('a', 'Adds.', { title: 'Add', annotations: { readOnlyHint: true }, outputSchema: { type: 'object' } });
    const lock = parseLockfile(lockText({ s: [tool] }));
    const locked = lock.servers.get('s')!.get('a')!;
    assert.equal(locked.hash, pinTool(tool).hash);
    assert.deepEqual(locked.definition, { name: 'a', title: 'Add', description: 'Adds.', inputSchema: { type: 'object' }, outputSchema: { type: 'object' }, annotations: { readOnlyHint: true } });
  });

  it('refuses a file that is not JSON, not a lockfile, of another version, or not as written, saying where', () => {
    problem('');
    assert.match(messageOf('{"lockfileVersion": 1, "servers": {'), /^it is not JSON/);
    assert.match(messageOf('[]'), /not a JSON object/);
    assert.match(messageOf('{"servers": {}}'), /no "lockfileVersion"/);
    assert.match(messageOf('{"lockfileVersion": 2, "servers": {}}'), /"lockfileVersion" is 2; this version of mcp-tool-host reads version 1/);
    assert.match(messageOf('{"lockfileVersion": 1, "servers": {}, "trusted": true}'), /unknown key "trusted"/);
    assert.match(messageOf('{"lockfileVersion": 1, "servers": {"s": {"tools": {}, "trust": true}}}'), /servers › "s" is not \{"tools"/);
    const good = JSON.parse(lockText({ s: [t('a', 'Adds.')] }));
    const edited = (edit: (tool: Record<string, Record<string, unknown>>) => void) => {
      const copy = structuredClone(good);
      edit(copy.servers.s.tools.a);
      return messageOf(JSON.stringify(copy));
    };
    assert.match(edited((x) => (x.definition.description = 'Harmless.')), /servers › "s" › "a": its hash is not the hash of its definition/);
    assert.match(edited((x) => (x.definition.trustHints = true as unknown as Record<string, unknown>)), /unknown definition key "trustHints"/);
    assert.match(edited((x) => (x.definition.name = 'b' as unknown as Record<string, unknown>)), /has the definition of "b"/);
    assert.match(messageOf(`{"lockfileVersion": 1, "servers": {"${'x'.repeat(200)}": 1}}`), /servers › "x{76}… is not/, 'a name from the file is cut in the message');
  });

  it('a server or tool named __proto__ is only a name', () => {
    const lock = parseLockfile(lockText({ ['__proto__']: [t('__proto__', 'Odd.')] }));
    assert.equal(lock.servers.get('__proto__')?.get('__proto__')?.definition.description, 'Odd.');
    assert.equal(({} as Record<string, unknown>).description, undefined);
  });

  it('will not lock a definition nested deeper than a reviewer can read (64 levels), naming it', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 100; i++) schema = { type: 'object', properties: { n: schema } };
    assert.throws(() => lockOf([{ name: 's', tools: [t('deep', 'Deep.', { inputSchema: schema as Tool['inputSchema'] })] }]), /"s" › "deep" nests deeper than 64 levels/);
  });
});

describe('the pin lockfile (drift)', () => {
  const lock: Lockfile = parseLockfile(lockText({ kept: [t('a', 'Adds.'), t('gone', 'Was here.')], same: [t('x', 'X.')], only_locked: [t('y', 'Y.')] }));

  it('names each server\'s state and each tool added, removed or changed (which parts), sorted', () => {
    const live = new Map<string, Tool[] | { error: string }>([
      ['same', [t('x', 'X.')]],
      ['kept', [t('new', 'New.'), t('a', 'Adds. And deletes.', { annotations: { destructiveHint: true } })]],
      ['only_live', [t('z', 'Z.')]],
      ['broken', { error: 'exited with code 3' }],
    ]);
    const report = compareLock(lock, live);
    assert.deepEqual(report.map((s) => [s.server, s.state]), [['broken', 'failed'], ['kept', 'drift'], ['only_live', 'not-locked'], ['only_locked', 'not-configured'], ['same', 'match']]);
    const kept = report[1] as { readonly tools: readonly ToolDrift[] };
    assert.deepEqual(kept.tools.map((x) => [x.tool, x.change, 'parts' in x ? x.parts : undefined]), [['a', 'changed', ['description', 'annotations']], ['gone', 'removed', undefined], ['new', 'added', undefined]]);
  });

  it('for one tool: undefined when it matches or its server is not locked; the parts and the locked definition when it differs', () => {
    assert.equal(driftOfTool(lock, 'kept', t('a', 'Adds.')), undefined);
    assert.equal(driftOfTool(lock, 'unlocked', t('a', 'Anything.')), undefined);
    assert.deepEqual(driftOfTool(lock, 'kept', t('a', 'Adds!')), { parts: ['description'], locked: { name: 'a', description: 'Adds.', inputSchema: { type: 'object' } } });
    assert.deepEqual(driftOfTool(lock, 'kept', t('sneaky', 'New.')), { parts: ['not in the lockfile'] });
  });
});
