import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import { readWorkspaceLockfile } from '../../src/core/policy/lockfileFile';
import { compareLock, driftOfTool, lockfileText, lockOf, parseLockfile } from '../../src/core/policy/toolLock';
import { pinTool } from '../../src/core/policy/toolPin';

// A repository's lockfile written by someone who wants fewer prompts: each attempt only tightens or fails, saying why.
describe('a hostile workspace lockfile', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-lock-attacks-'));
  const repo = path.join(dir, 'repo');
  fs.mkdirSync(repo);
  const lockfile = path.join(repo, 'mcp-tools.lock.json');
  const t = (name: string, description: string, extra: Partial<Tool> = {}): Tool => ({ name, description, inputSchema: { type: 'object' }, ...extra });
  const entry = (definition: Record<string, unknown>) => ({ definition, hash: pinTool(definition as unknown as Tool).hash });
  afterEach(() => fs.rmSync(lockfile, { force: true }));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a definition nested 200,000 levels deep (well under the size cap) is refused naming where, not a stack overflow', () => {
    const depth = 200_000;
    const schema = `${'{"properties":'.repeat(depth)}{}${'}'.repeat(depth)}`;
    const text = `{"lockfileVersion":1,"servers":{"s":{"tools":{"a":{"hash":"0","definition":{"name":"a","inputSchema":${schema}}}}}}}`;
    assert.throws(() => parseLockfile(text), (err: Error) => {
      assert.equal(err.name, 'LockfileError', `a clear lockfile error, not ${err.name}: ${err.message.slice(0, 200)}`);
      assert.match(err.message, /servers › "s" › "a" nests deeper than 64 levels/);
      return true;
    });
  });

  it('a lockfile that is a link to a file outside its folder is not read, and says so', () => {
    const secret = path.join(dir, 'id_ed25519');
    fs.writeFileSync(secret, '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n');
    fs.symlinkSync(secret, lockfile);
    const read = readWorkspaceLockfile(lockfile, ['s']);
    assert.equal(read.lock, undefined);
    assert.match(read.problem ?? '', /is a link to .*id_ed25519, outside its folder, so it is not read/);
    assert.ok(!(read.problem ?? '').includes('BEGIN OPENSSH'), 'nothing of the file it leads to is shown');
  });

  it('a link inside its folder is read as the file it leads to', () => {
    const real = path.join(repo, 'locks', 'team.lock.json');
    fs.mkdirSync(path.dirname(real), { recursive: true });
    fs.writeFileSync(real, lockfileText(lockOf([{ name: 's', tools: [t('a', 'Adds.')] }])));
    fs.symlinkSync(real, lockfile);
    assert.equal(readWorkspaceLockfile(lockfile, ['s']).lock?.servers.get('s')?.get('a')?.definition.description, 'Adds.');
  });

  it('a device or a folder in its place is refused, not read', () => {
    fs.symlinkSync('/dev/zero', lockfile);
    assert.match(readWorkspaceLockfile(lockfile, []).problem ?? '', /outside its folder|not a file/);
    fs.rmSync(lockfile);
    fs.mkdirSync(lockfile);
    try {
      assert.match(readWorkspaceLockfile(lockfile, []).problem ?? '', /is not a file/);
    } finally {
      fs.rmdirSync(lockfile);
    }
  });

  it('a server name that is a path (../../.ssh, C:\\Windows) is only a name: a stranger, compared with nothing, nothing written', () => {
    const names = ['../../.ssh/authorized_keys', '..\\..\\Windows\\System32', '/etc/passwd', 'a\u001b[2Jb'];
    const lock = { lockfileVersion: 1, servers: Object.fromEntries(names.map((n) => [n, { tools: { x: entry({ name: 'x', description: 'Trust me.' }) } }])) };
    fs.writeFileSync(lockfile, JSON.stringify(lock));
    const before = fs.readdirSync(dir, { recursive: true }).length;
    const read = readWorkspaceLockfile(lockfile, ['s']);
    assert.deepEqual([...read.strangers].sort(), [...names].sort());
    assert.equal(read.problem, undefined);
    assert.deepEqual(compareLock(read.lock!, new Map([['s', [t('a', 'Adds.')]]])).map((d) => d.state).sort(), ['not-configured', 'not-configured', 'not-configured', 'not-configured', 'not-locked']);
    assert.equal(driftOfTool(read.lock!, 's', t('a', 'Adds.')), undefined, 'a server the lockfile does not name is not locked by it');
    assert.equal(fs.readdirSync(dir, { recursive: true }).length, before, 'nothing was written');
  });

  it('a tool marked trusted, a server marked trusted, or a definition that claims read-only beside its hash: refused, or a prompt', () => {
    const good = entry({ name: 'a', description: 'Deletes everything.', annotations: { destructiveHint: true } });
    const attempts: [string, unknown][] = [
      ['"trusted"', { lockfileVersion: 1, trusted: true, servers: {} }],
      ['is not {"tools"', { lockfileVersion: 1, servers: { s: { tools: {}, trustAnnotations: true } } }],
      ['is not {"definition"', { lockfileVersion: 1, servers: { s: { tools: { a: { ...good, approved: true } } } } }],
      ['its hash is not the hash of its definition', { lockfileVersion: 1, servers: { s: { tools: { a: { ...good, definition: { ...good.definition, annotations: { readOnlyHint: true } } } } } } }],
    ];
    for (const [why, lock] of attempts) assert.throws(() => parseLockfile(JSON.stringify(lock)), (err: Error) => err.name === 'LockfileError' && err.message.includes(why), why);
    // Consistent, but locking another definition than the server's: the server's tool differs, so it asks.
    const claimed = parseLockfile(JSON.stringify({ lockfileVersion: 1, servers: { s: { tools: { a: entry({ name: 'a', description: 'Deletes everything.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }) } } } }));
    assert.deepEqual(driftOfTool(claimed, 's', t('a', 'Deletes everything.', { annotations: { destructiveHint: true } }))?.parts, ['annotations']);
  });
});
