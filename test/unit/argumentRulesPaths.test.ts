import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { parseRules, type RuleCondition } from '../../src/core/policy/argumentRules';
import { testCondition, type MatchPlace } from '../../src/core/policy/ruleConditions';
import { isUnder, lexicalPaths, localPaths, MAX_PATH_CHARS, type PathSystem } from '../../src/core/policy/rulePaths';

/** One condition on `/p`, parsed as a user would write it. */
function condition(test: Record<string, unknown>): RuleCondition {
  const parsed = parseRules([{ name: 't', server: '*', tool: '*', effect: 'deny', when: [{ pointer: '/p', ...test }] }], 'user');
  assert.deepEqual(parsed.problems, []);
  return parsed.rules[0].when[0];
}

function answer(test: Record<string, unknown>, value: unknown, place: MatchPlace): string {
  return testCondition(condition(test), { p: value }, place).kind;
}

/** Why the condition is unsure of `value` ('' when it is sure). */
function answerWhy(test: Record<string, unknown>, value: unknown, place: MatchPlace): string {
  const result = testCondition(condition(test), { p: value }, place);
  return result.kind === 'unsure' ? result.why : '';
}

describe('argument rules: path conditions compare real paths (attacker first)', () => {
  // Real folders: tmp/project (with a link to tmp/outside and a loop), tmp/project-evil, tmp/outside/secret.txt.
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rules-')));
  const project = path.join(tmp, 'project');
  const outside = path.join(tmp, 'outside');
  const sys = localPaths();
  const place: MatchPlace = { paths: sys };
  const under = { under: project };

  before(() => {
    fs.mkdirSync(path.join(project, 'a', 'a', 'a'), { recursive: true });
    fs.mkdirSync(outside);
    fs.mkdirSync(`${project}-evil`);
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
    fs.symlinkSync(outside, path.join(project, 'link'));
    fs.symlinkSync(path.join(project, 'loop2'), path.join(project, 'loop1'));
    fs.symlinkSync(path.join(project, 'loop1'), path.join(project, 'loop2'));
    fs.symlinkSync(project, path.join(tmp, 'projlink'));
    // Relative links: read from the link's own folder.
    fs.symlinkSync('a/a', path.join(project, 'rel'));
    fs.symlinkSync('../../outside', path.join(project, 'a', 'up'));
    fs.symlinkSync('rel', path.join(project, 'chain'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('".." out of the folder is not under it', () => {
    assert.equal(answer(under, `${project}/../outside/secret.txt`, place), 'no');
    assert.equal(answer(under, `${project}/a/../../outside`, place), 'no');
    assert.equal(answer({ under: '/project' }, '/project/../etc/passwd', place), 'no');
    assert.equal(answer(under, `${project}/a/../a/file`, place), 'yes', 'a ".." that stays inside is fine');
  });

  it('a symlink inside the folder that points out is not under it', () => {
    assert.equal(answer(under, `${project}/link/secret.txt`, place), 'no');
    assert.equal(answer(under, `${project}/link`, place), 'no');
    assert.equal(answer(under, `${project}/link/new-file-not-yet-there`, place), 'no', 'the target need not exist');
    assert.equal(answer(under, `${project}/nonexistent/../link/secret.txt`, place), 'no', 'a ".." through a missing folder back onto the link');
  });

  it('a ".." after a symlink reaches two places (the kernel\'s and a lexical reading): unsure, so an allow does not hold', () => {
    // Kernel: outside/.. = tmp/x; a server that normalises first: project/x.
    assert.equal(answer(under, `${project}/link/../x`, place), 'unsure');
    assert.equal(answer({ under: tmp }, `${project}/link/../x`, place), 'yes', 'both readings are under tmp');
  });

  it('a sibling with the same prefix is not under (segment boundary), trailing slashes do not matter', () => {
    assert.equal(answer(under, `${project}-evil/x`, place), 'no');
    assert.equal(answer(under, `${project}-evil`, place), 'no');
    assert.equal(answer(under, `${project}`, place), 'yes', 'the folder itself');
    assert.equal(answer(under, `${project}/`, place), 'yes');
    assert.equal(answer(under, `${project}//a///b/`, place), 'yes');
    assert.equal(answer({ under: `${project}/` }, `${project}/a`, place), 'yes');
    assert.equal(answer({ under: `${project}/` }, `${project}-evil`, place), 'no');
  });

  it('"~" is the home folder; "~name" is refused', () => {
    const home: MatchPlace = { paths: { ...sys, home: project } };
    assert.equal(answer(under, '~/a/notes.md', home), 'yes');
    assert.equal(answer(under, '~', home), 'yes');
    assert.equal(answer(under, '~/../outside', home), 'no');
    assert.equal(answer(under, '~root/x', home), 'unsure');
    assert.equal(answer({ under: '~/a' }, `${project}/a/b`, home), 'yes', 'a rule may use ~ too');
  });

  it('a relative path is read against the server\'s folder when known, and is unsure otherwise', () => {
    assert.equal(answer(under, 'a/file.txt', place), 'unsure');
    assert.equal(answer(under, 'a/file.txt', { ...place, base: project }), 'yes');
    assert.equal(answer(under, '../outside/secret.txt', { ...place, base: project }), 'no');
    assert.equal(answer(under, 'link/secret.txt', { ...place, base: project }), 'no');
  });

  it('attacker: a relative path of a server given folders (server-filesystem reads it from the first) is read from each: where they disagree it is unsure, so a deny holds and an allow does not', () => {
    const given = { ...place, base: outside, givenFolders: [project] };
    // A deny under the project: "a/file.txt" is in it for the server, though not from the server's own folder.
    assert.equal(answer(under, 'a/file.txt', given), 'unsure');
    // An allow under the server's own folder: the server may write it in the project instead.
    assert.equal(answer({ under: outside }, 'a/file.txt', given), 'unsure');
    const reading = answerWhy(under, 'a/file.txt', given);
    assert.match(reading, /is a relative path, which reaches .* depending on the folder the server reads it from .*an absolute path can be judged/);
    // Where every folder agrees, the answer stands.
    assert.equal(answer(under, 'a/file.txt', { ...place, base: project, givenFolders: [project] }), 'yes');
    assert.equal(answer({ under: outside }, 'a/file.txt', { ...place, base: `${project}/a`, givenFolders: [project] }), 'no');
    assert.equal(answer(under, `${project}/a/file.txt`, given), 'yes', 'an absolute path is read as it is');
  });

  it('percent-encoded dots or slashes are unsure; a file URL is decoded and then resolved', () => {
    assert.equal(answer(under, `${project}/%2e%2e/outside/secret.txt`, place), 'unsure');
    assert.equal(answer(under, `${project}/%2E%2E%2Foutside`, place), 'unsure');
    assert.equal(answer(under, `${project}/..%5coutside`, place), 'unsure');
    assert.equal(answer(under, `${project}/%252e%252e/outside`, place), 'unsure', 'encoded twice');
    assert.equal(answer(under, `${project}/100%/a`, place), 'yes', 'a plain percent sign is a character');
    assert.equal(answer(under, pathToFileURL(`${project}/a/x.txt`).href, place), 'yes');
    assert.equal(answer(under, `file://${project}/%2e%2e/outside/secret.txt`, place), 'no');
    assert.equal(answer(under, `file://${project}/a%2f..%2f..%2foutside`, place), 'unsure', 'an encoded slash in a file URL');
    assert.equal(answer(under, 'file://evil.example/share/x', place), 'unsure', 'a remote host');
  });

  it('NUL bytes, over-long values, non-text, mixed lists and symlink loops are unsure', () => {
    assert.equal(answer(under, `${project}/a\0/../../outside`, place), 'unsure');
    assert.equal(answer(under, `${project}/${'a/'.repeat(MAX_PATH_CHARS)}`, place), 'unsure');
    assert.equal(answer(under, `${project}/${'x/'.repeat(1000)}`, place), 'yes', 'long but under the bound');
    // A list is read value by value (read_multiple_files): none under is no, some under is some (a deny holds, an allow not).
    assert.equal(answer(under, ['/etc/passwd'], place), 'no');
    assert.equal(answer(under, [`${project}/a`, '/etc/passwd'], place), 'some');
    assert.equal(answer(under, [[`${project}/a`]], place), 'unsure');
    assert.equal(answer(under, [], place), 'unsure', 'an empty list: a server may read it as "all"');
    assert.equal(answer(under, 42, place), 'unsure');
    assert.equal(answer(under, `${project}/loop1/x`, place), 'unsure');
  });

  it('a rule folder reached through a symlink compares by its real path', () => {
    assert.equal(answer({ under: path.join(tmp, 'projlink') }, `${project}/a`, place), 'yes');
    assert.equal(answer(under, `${tmp}/projlink/a`, place), 'yes');
    assert.equal(answer({ under: path.join(tmp, 'projlink') }, `${outside}/secret.txt`, place), 'no');
  });

  it('${workspaceFolder} in a rule is the workspace folder given to the matcher; without one the rule cannot tell', () => {
    assert.equal(answer({ under: '${workspaceFolder}/a' }, `${project}/a/x`, { ...place, workspaceFolder: project }), 'yes');
    assert.equal(answer({ under: '${workspaceFolder}' }, `${outside}/x`, { ...place, workspaceFolder: project }), 'no');
    assert.equal(answer({ under: '${workspaceFolder}' }, `${project}/x`, place), 'unsure');
  });

  it('case is ignored only on a case-insensitive system', () => {
    const folded: MatchPlace = { paths: { ...sys, caseInsensitive: true } };
    assert.equal(answer({ under: `${project}/A` }, `${project}/a/x`, folded), 'yes');
    assert.equal(answer({ under: `${project}/A` }, `${project}/a/x`, place), 'no');
    assert.equal(answer({ glob: `${project}/**/*.MD` }, `${project}/a/Notes.md`, folded), 'yes');
  });

  it('globs: * within a segment, ** across segments, the base resolved like a folder', () => {
    const md = { glob: `${project}/**/*.md` };
    assert.equal(answer(md, `${project}/notes.md`, place), 'yes');
    assert.equal(answer(md, `${project}/a/a/notes.md`, place), 'yes');
    assert.equal(answer(md, `${project}/a/notes.txt`, place), 'no');
    assert.equal(answer(md, `${project}/link/notes.md`, place), 'no', 'through the link it is outside');
    assert.equal(answer(md, `${project}/../outside/notes.md`, place), 'no');
    assert.equal(answer(md, `${project}-evil/notes.md`, place), 'no');
    assert.equal(answer({ glob: `${project}/*` }, `${project}/a`, place), 'yes');
    assert.equal(answer({ glob: `${project}/*` }, `${project}/a/b`, place), 'no');
    assert.equal(answer({ glob: `${project}/a/?` }, `${project}/a/a`, place), 'yes');
    assert.equal(answer({ glob: '/*' }, '/anything', place), 'yes');
  });

  it('Windows paths: drive letters, backslashes, case, drive-relative refused', () => {
    const win: PathSystem = { path: path.win32, caseInsensitive: true, home: 'C:\\Users\\me', kind: () => 'missing', readlink: (p) => p };
    const wplace: MatchPlace = { paths: win };
    assert.equal(answer({ under: 'C:\\Project' }, 'c:\\PROJECT\\src\\a.ts', wplace), 'yes');
    assert.equal(answer({ under: 'C:\\Project' }, 'C:\\Project\\..\\Windows\\system32', wplace), 'no');
    assert.equal(answer({ under: 'C:\\Project' }, 'C:/Project/sub', wplace), 'yes', 'forward slashes');
    assert.equal(answer({ under: 'C:\\Project' }, 'C:\\Project-evil', wplace), 'no');
    assert.equal(answer({ under: 'C:\\Project' }, 'C:Project\\x', wplace), 'unsure', 'relative to the drive\'s current folder');
    assert.equal(answer({ under: 'C:\\Project' }, 'D:\\Project\\x', wplace), 'no');
    assert.equal(answer({ under: '~\\code' }, '~\\code\\x', wplace), 'yes');
    assert.equal(isUnder('C:\\', 'C:\\', win), true);
  });

  it('property: whatever mix of segments, "under" never says yes to a path the OS resolves outside, nor no to one inside', () => {
    const segment = fc.constantFrom('a', '..', '.', 'link', '', 'A', 'rel', 'up', 'chain', 'loop1');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segments) => {
        const value = `${project}/${segments.join('/')}`;
        let real: string;
        try {
          real = fs.realpathSync(value);
        } catch {
          return; // does not exist: the OS has no answer to compare with
        }
        const verdict = answer(under, value, place);
        const inside = real === project || real.startsWith(`${project}/`);
        if (verdict === 'yes') assert.ok(inside, `${value} -> ${real} said yes`);
        if (verdict === 'no') assert.ok(!inside, `${value} -> ${real} said no`);
      }),
      { numRuns: 300 },
    );
  });
});

describe('argument rules: a path the server reads in its own process is never judged by the host (attacker first)', () => {
  // The server's folder (its launch cwd) is tmp/server; the host (this process) runs elsewhere.
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rules-proc-')));
  const server = path.join(tmp, 'server');
  const host = process.cwd();
  const sys = localPaths();
  const place: MatchPlace = { paths: sys, base: server, workspaceFolder: server };
  const depth = server.split('/').length;

  before(() => {
    fs.mkdirSync(path.join(server, 'a'), { recursive: true });
    fs.symlinkSync('/proc/self/cwd', path.join(server, 'here'));
    fs.symlinkSync('here', path.join(server, 'hop'), 'dir');
    fs.symlinkSync('/dev/fd', path.join(server, 'fds'));
    fs.symlinkSync('/proc/self/cwd', path.join(tmp, 'rule-link'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('"/proc/self/cwd/key": a deny under the server\'s folder holds, an allow under the host\'s folder does not', () => {
    assert.notEqual(host, server, 'the two processes are in different folders');
    // The server opens /proc/self/cwd/key as <server>/key; this process would read <host>/key.
    assert.equal(answer({ under: server }, '/proc/self/cwd/key', place), 'unsure', 'a deny under the server\'s folder must not be passed');
    assert.equal(answer({ under: host }, '/proc/self/cwd/key', place), 'unsure', 'an allow under the host\'s folder must not hold');
    assert.equal(answer({ glob: `${host}/*` }, '/proc/self/cwd/key', place), 'unsure');
    assert.equal(answer({ glob: '**/key' }, '/proc/self/cwd/key', place), 'unsure');
  });

  it('every name of a process\'s own view: /proc/self, /proc/thread-self, /proc/<pid>, /dev/fd, /dev/stdin|stdout|stderr, /dev/tty', () => {
    const values = [
      '/proc/self',
      '/proc/self/root/etc/passwd',
      '/proc/thread-self/cwd/key',
      `/proc/${process.pid}/root${server}/key`,
      `/proc/${process.pid}/cwd/key`,
      '/proc/1/root/etc/shadow',
      '/proc/self/fd/0',
      '/proc/net/tcp', // a link to self/net
      '/proc/mounts', // a link to self/mounts
      '/dev/fd/3',
      '/dev/fd',
      '/dev/stdin',
      '/dev/stdout',
      '/dev/stderr',
      '/dev/tty',
    ];
    for (const value of values) {
      for (const test of [{ under: server }, { under: host }, { under: '/' }, { glob: '/**' }]) {
        assert.equal(answer(test, value, place), 'unsure', `${value} against ${JSON.stringify(test)}`);
      }
    }
    const why = testCondition(condition({ under: '/' }), { p: '/proc/self/cwd/key' }, place);
    assert.match(why.kind === 'unsure' ? why.why : '', /depends on the process that opens it \("\/proc\/self"\)/);
  });

  it('reached other ways: a file URL, ".." up to them, a relative path from the server\'s folder, a symlink or a chain of links into them', () => {
    const values = [
      'file:///proc/self/cwd/key',
      'file:///dev/stdin',
      `${server}/${'../'.repeat(depth)}proc/self/cwd/key`,
      `${'../'.repeat(depth)}proc/self/cwd/key`,
      '//proc//./self/cwd/key',
      '/proc/./self/cwd/key',
      '/proc/self/../self/cwd/key',
      `${server}/here/key`,
      `${server}/hop/key`,
      `${server}/fds/0`,
      `${server}/a/../here/key`,
      `file://${server}/here/key`,
    ];
    for (const value of values) {
      for (const test of [{ under: server }, { under: host }, { glob: '/**' }]) {
        assert.equal(answer(test, value, place), 'unsure', `${value} against ${JSON.stringify(test)}`);
      }
    }
    // Case-insensitive systems (macOS) read /DEV/FD as /dev/fd.
    assert.equal(answer({ under: '/' }, '/DEV/STDIN', { ...place, paths: { ...sys, caseInsensitive: true } }), 'unsure');
    // A remote server's paths are read lexically: its own /proc/self is just as unknown.
    assert.equal(answer({ under: host }, '/proc/self/cwd/key', { paths: lexicalPaths() }), 'unsure');
  });

  it('a rule folder that is a link into them is not compared with; /proc itself and its other files are read as usual', () => {
    assert.equal(answer({ under: path.join(tmp, 'rule-link') }, `${host}/x`, place), 'unsure', 'the link means the host\'s folder here, the server\'s there');
    assert.equal(answer({ under: '/proc' }, '/proc/cpuinfo', place), 'yes');
    assert.equal(answer({ under: server }, '/proc/cpuinfo', place), 'no');
    assert.equal(answer({ under: '/proc' }, '/proc/sys/kernel/hostname', place), 'yes');
    assert.equal(answer({ under: server }, `${server}/a/file`, place), 'yes', 'the server\'s folder as such is read as before');
    assert.equal(answer({ under: '/dev' }, '/dev/null', place), 'yes');
  });

  it('Windows: device and verbatim paths (\\\\.\\, \\\\?\\, \\??\\) and console names are unsure', () => {
    const win: PathSystem = { path: path.win32, caseInsensitive: true, home: 'C:\\Users\\me', kind: () => 'missing', readlink: (p) => p };
    const wplace: MatchPlace = { paths: win, base: 'C:\\server' };
    for (const value of ['\\\\?\\C:\\Secret\\x', '\\\\.\\C:\\Secret\\x', '//?/C:/Secret/x', '//./C:/Secret/x', '\\??\\C:\\Secret\\x', '\\\\.\\CONIN$', 'C:\\Secret\\CON', 'C:\\Secret\\conout$', 'C:\\Secret\\con.txt', 'CONIN$']) {
      assert.equal(answer({ under: 'C:\\Secret' }, value, wplace), 'unsure', value);
      assert.equal(answer({ under: 'C:\\' }, value, wplace), 'unsure', value);
    }
    assert.equal(answer({ under: 'C:\\Secret' }, 'C:\\Secret\\console.txt', wplace), 'yes', 'a name that only starts like one');
    assert.equal(answer({ under: 'C:\\Secret' }, '\\\\server\\share\\x', wplace), 'no', 'a UNC share is a place like any other');
  });

  it('a rule cannot name them: refused at parse time, saying why', () => {
    for (const [test, field] of [[{ under: '/proc/self/cwd' }, 'under'], [{ under: '/proc/1234' }, 'under'], [{ glob: '/dev/fd/*' }, 'glob'], [{ under: '/dev/stdin' }, 'under'], [{ under: '\\\\?\\C:\\x' }, 'under'], [{ glob: '\\\\.\\C:\\*' }, 'glob']] as const) {
      const parsed = parseRules([{ name: 't', server: '*', tool: '*', effect: 'allow', when: [{ pointer: '/p', ...test }] }], 'user');
      assert.match(parsed.problems[0]?.message ?? '', new RegExp(`"when\\[0\\]\\.${field}" (names .* whose meaning depends on the process that opens it|is a Windows device or verbatim path)`), JSON.stringify(test));
    }
    for (const test of [{ glob: '/proc/*/environ' }, { under: '/proc' }, { under: '/dev' }, { under: '/proc/sys' }]) {
      assert.deepEqual(parseRules([{ name: 't', server: '*', tool: '*', effect: 'deny', when: [{ pointer: '/p', ...test }] }], 'user').problems, [], JSON.stringify(test));
    }
  });
});
