import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { parseRules, type RuleCondition } from '../../src/core/policy/argumentRules';
import { testCondition, type MatchPlace } from '../../src/core/policy/ruleConditions';
import { isUnder, localPaths, MAX_PATH_CHARS, type PathSystem } from '../../src/core/policy/rulePaths';

/** One condition on `/p`, parsed as a user would write it. */
function condition(test: Record<string, unknown>): RuleCondition {
  const parsed = parseRules([{ name: 't', server: '*', tool: '*', effect: 'deny', when: [{ pointer: '/p', ...test }] }], 'user');
  assert.deepEqual(parsed.problems, []);
  return parsed.rules[0].when[0];
}

function answer(test: Record<string, unknown>, value: unknown, place: MatchPlace): string {
  return testCondition(condition(test), { p: value }, place).kind;
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
    // A list is read value by value (read_multiple_files): none under is no, some under is unsure.
    assert.equal(answer(under, ['/etc/passwd'], place), 'no');
    assert.equal(answer(under, [`${project}/a`, '/etc/passwd'], place), 'unsure');
    assert.equal(answer(under, [[`${project}/a`]], place), 'unsure');
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
    const win: PathSystem = { path: path.win32, caseInsensitive: true, home: 'C:\\Users\\me', kind: () => 'missing', realpath: (p) => p };
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
    const segment = fc.constantFrom('a', '..', '.', 'link', '', 'A');
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
