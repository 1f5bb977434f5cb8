import * as assert from 'node:assert/strict';
import { sameSkillFile, skillFileProblem, skillFileUri, skillFolder, skillUriProblem } from '../../src/core/connection/skillPaths';
import { MAX_SKILL_FILE_BYTES, UNVERIFIED_SKILL, utf8Prefix } from '../../src/core/connection/skills';

const SKILL = 'skill://srv/demo/SKILL.md';

describe('skill paths (SEP-2640): a file is inside its skill\'s folder by its raw text, however a server decodes it', () => {
  it('finds the folder of a SKILL.md URI', () => {
    assert.equal(skillFolder(SKILL), 'skill://srv/demo');
    assert.equal(skillFolder('skill://demo/SKILL.md'), 'skill://demo');
    assert.equal(skillFolder('skill://demo/README.md'), undefined);
    assert.equal(skillFolder('/SKILL.md'), undefined);
  });

  it('takes plain files inside the folder, names encoded any way (Q&A.md, Q%26A.md, my%20notes.md)', () => {
    for (const uri of ['skill://srv/demo/references/FORMS.md', 'skill://srv/demo/Q&A.md', 'skill://srv/demo/Q%26A.md', 'skill://srv/demo/my%20notes.md', 'skill://srv/demo/a/b/c/d.txt', 'skill://srv/demo/100%25.md', 'skill://srv/demo/..x', 'skill://srv/demo/x..']) {
      assert.equal(skillFileProblem(SKILL, uri), undefined, uri);
    }
  });

  it('refuses every way out of the folder: dot segments raw and encoded (at any depth), backslashes, encoded slashes, //, another scheme, server or folder, queries, controls', () => {
    const cases: [string, RegExp][] = [
      ['skill://srv/demo/../other/x', /it has a "\.\." segment$/],
      ['skill://srv/demo/./x', /it has a "\." segment$/],
      ['skill://srv/demo/%2e%2e/other/x', /"\.\." segment once decoded \(%2e%2e\)/],
      ['skill://srv/demo/%2E%2e/other/x', /"\.\." segment once decoded/],
      ['skill://srv/demo/.%2e/other/x', /"\.\." segment once decoded/],
      ['skill://srv/demo/%252e%252e/other/x', /"\.\." segment once decoded \(%252e%252e\)/],
      ['skill://srv/demo/%25252e%25252e/x', /"\.\." segment once decoded/],
      ['skill://srv/demo/..\\other\\x', /backslash, which Windows servers read as a separator/],
      ['skill://srv/demo/..%5cother%5cx', /backslash once decoded/],
      ['skill://srv/demo/..%255cother', /backslash once decoded/],
      ['skill://srv/demo/..%2fother%2fx', /encoded slash/],
      ['skill://srv/demo//x', /empty segment/],
      ['skill://srv/demo/x/', /empty segment/],
      ['skill://srv/other/x', /under another scheme, server or folder/],
      ['skill://srv/demo', /under another scheme, server or folder/],
      ['skill://srv/demox/y', /under another scheme, server or folder/],
      ['skill://evil/demo/x', /under another scheme, server or folder/],
      ['skill://srv@evil/demo/x', /under another scheme, server or folder/],
      ['file:///etc/passwd', /under another scheme, server or folder/],
      ['https://srv/demo/x', /under another scheme, server or folder/],
      ['/etc/passwd', /it is not under it/],
      ['skill://srv/demo/x?y=1', /query or fragment/],
      ['skill://srv/demo/x#y', /query or fragment/],
      ['skill://srv/demo/a b', /control character or a space/],
      ['skill://srv/demo/a%00b', /control character or a space once decoded/],
      ['skill://srv/demo/a%0ab', /control character/],
      ['skill://srv/demo/%e0%a4%a', /escape that does not decode/],
      ['skill://srv/demo/%2525252525252e', /encoded more than 4 times/],
    ];
    for (const [uri, why] of cases) {
      const problem = skillFileProblem(SKILL, uri);
      assert.ok(problem, `${uri} is refused`);
      assert.match(problem, /^is not inside the skill's folder skill:\/\/srv\/demo: it /, uri);
      assert.match(problem, why, uri);
    }
  });

  it('a skill whose own URI would leave its folder is refused too', () => {
    assert.equal(skillUriProblem(SKILL), undefined);
    assert.equal(skillUriProblem('skill://demo/SKILL.md'), undefined);
    assert.match(skillUriProblem('skill://srv/x/../demo/SKILL.md') ?? '', /has a "\.\." segment/);
    assert.match(skillUriProblem('skill://srv/%2e%2e/demo/SKILL.md') ?? '', /once decoded/);
    assert.match(skillUriProblem('skill://srv//demo/SKILL.md') ?? '', /empty segment/);
    assert.match(skillUriProblem('skill://srv/demo\\x/SKILL.md') ?? '', /has a backslash/);
    assert.match(skillUriProblem('skill://srv\\x/demo/SKILL.md') ?? '', /not a URI ending in \/SKILL\.md/);
    assert.match(skillUriProblem('skill://srv/demo/README.md') ?? '', /not a URI ending in \/SKILL\.md/);
  });

  it('a FILE the user names becomes a URI under the folder, or a sentence saying why not; nothing is normalised away', () => {
    assert.deepEqual(skillFileUri(SKILL, 'references/FORMS.md'), { uri: 'skill://srv/demo/references/FORMS.md' });
    assert.deepEqual(skillFileUri(SKILL, 'skill://srv/demo/references/FORMS.md'), { uri: 'skill://srv/demo/references/FORMS.md' });
    for (const ref of ['../x', 'references/../FORMS.md', './FORMS.md', '%2e%2e/x', '..\\x', 'a//b', 'skill://srv/other/x', 'skill://srv/demo/../x']) {
      const result = skillFileUri(SKILL, ref);
      assert.ok('problem' in result, ref);
      assert.match(result.problem, /is not inside the skill's folder skill:\/\/srv\/demo: /, ref);
    }
    for (const ref of ['/etc/passwd', '//evil/x']) assert.deepEqual(skillFileUri(SKILL, ref), { problem: `${ref} is an absolute path; name a file inside the skill, such as references/FORMS.md` });
  });

  it('tells two spellings of one file apart from two files', () => {
    assert.ok(sameSkillFile('skill://srv/demo/Q&A.md', 'skill://srv/demo/Q%26A.md'));
    assert.ok(!sameSkillFile('skill://srv/demo/a.md', 'skill://srv/demo/b.md'));
    assert.ok(!sameSkillFile('skill://srv/demo/a/b.md', 'skill://srv/demo/a%2fb.md'));
  });
});

describe('skill files over the limit, and the unverified mark', () => {
  it('cuts at the limit on a character boundary', () => {
    const bytes = new TextEncoder().encode('aé€😀');
    assert.deepEqual(utf8Prefix(bytes, 100), { text: 'aé€😀', bytes: 10 });
    assert.deepEqual(utf8Prefix(bytes, 2), { text: 'a', bytes: 1 });
    assert.deepEqual(utf8Prefix(bytes, 3), { text: 'aé', bytes: 3 });
    assert.deepEqual(utf8Prefix(bytes, 5), { text: 'aé', bytes: 3 });
    assert.deepEqual(utf8Prefix(bytes, 9), { text: 'aé€', bytes: 6 });
    assert.equal(MAX_SKILL_FILE_BYTES, 16 * 1024 * 1024);
  });

  it('says unverified in one set of words', () => {
    assert.equal(UNVERIFIED_SKILL, 'unverified: this skill is dynamic, so the server lists no size or digest to check its files against');
  });
});
