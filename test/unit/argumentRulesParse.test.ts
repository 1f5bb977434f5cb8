import * as assert from 'node:assert/strict';
import { parseRules, type RuleScope } from '../../src/core/policy/argumentRules';
import { testCondition } from '../../src/core/policy/ruleConditions';
import { localPaths } from '../../src/core/policy/rulePaths';

const GOOD = { name: 'project files', server: 'filesystem', tool: 'write_*', effect: 'allow', when: [{ pointer: '/path', under: '~/project' }] };

/** The one problem of one rule, as the user reads it. */
function problemOf(rule: unknown, scope: RuleScope = 'user'): string {
  const parsed = parseRules([rule], scope);
  assert.equal(parsed.problems.length, 1, `expected one problem, got ${JSON.stringify(parsed.problems)}`);
  return parsed.problems[0].message;
}

function withCondition(condition: unknown): unknown {
  return { ...GOOD, when: [condition] };
}

describe('argument rules: parsing, and a specific error for every bad rule', () => {
  it('reads a good rule, and nothing from no setting', () => {
    const parsed = parseRules([GOOD, { name: 'no main', server: '*', tool: 'delete_*', effect: 'deny', reason: 'main is protected', when: [{ pointer: '/branch', equals: 'main' }] }], 'user');
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.rules.length, 2);
    assert.deepEqual(parsed.rules[0].when[0], { pointerText: '/path', pointer: ['path'], test: { kind: 'under', folder: '~/project' } });
    assert.equal(parsed.rules[1].reason, 'main is protected');
    assert.equal(parsed.rules[1].source, 'user settings');
    assert.equal(parseRules([GOOD], 'user', 'rules file rules.json').rules[0].source, 'rules file rules.json');
    assert.deepEqual(parseRules(undefined, 'user'), { rules: [], problems: [] });
  });

  it('the list and each rule must have the right shape', () => {
    const many = parseRules(Array.from({ length: 1001 }, (_, i) => ({ ...GOOD, name: `r${i}` })), 'user');
    assert.deepEqual(many.problems.map((p) => p.message), ['User settings has 1001 rules; only the first 1000 are read.']);
    assert.equal(many.rules.length, 1000);
    assert.match(parseRules({ rules: [] }, 'user').problems[0].message, /^The rules in user settings must be a list \(\[\.\.\.\]\) of rules, not an object\.$/);
    assert.equal(problemOf('allow everything'), 'Rule 1 (user settings) must be an object { name, server, tool, effect, when?, reason? }, not string "allow everything".');
    assert.equal(problemOf({ ...GOOD, efect: 'deny' }), 'Rule \'project files\' (user settings): "efect" is not a field of a rule (the fields are name, server, tool, when, effect, reason).');
  });

  it('name: present, plain, short, unique', () => {
    assert.equal(problemOf({ ...GOOD, name: undefined }), 'Rule 1 (user settings): "name" must be a non-empty text, not nothing.');
    assert.equal(problemOf({ ...GOOD, name: 'a\u202eb' }), 'Rule 1 (user settings): "name" contains control or invisible characters; use plain text.');
    assert.match(problemOf({ ...GOOD, name: 'x'.repeat(101) }), /"name" is 101 characters long; at most 100\./);
    const dup = parseRules([GOOD, GOOD], 'user');
    assert.equal(dup.problems[0].message, 'Rule \'project files\' (user settings): "name" is used by an earlier rule too; give each rule its own name, since decisions are explained by name.');
  });

  it('server, tool and effect', () => {
    assert.equal(problemOf({ ...GOOD, server: undefined }), 'Rule \'project files\' (user settings): "server" must be a non-empty text, not nothing. Use "*" for any server.');
    assert.equal(problemOf({ ...GOOD, tool: '' }), 'Rule \'project files\' (user settings): "tool" must be a non-empty text, not "". Use "*" for any tool.');
    assert.equal(problemOf({ ...GOOD, effect: 'permit' }), 'Rule \'project files\' (user settings): "effect" must be "allow", "ask" or "deny", not "permit".');
    assert.equal(problemOf({ ...GOOD, reason: 7 }), 'Rule \'project files\' (user settings): "reason" must be a non-empty text, not 7.');
  });

  it('a workspace may not allow: refused at parse time with a clear error', () => {
    assert.equal(problemOf(GOOD, 'workspace'), 'Rule \'project files\' (workspace settings): "effect" is "allow", but a workspace may only add "ask" and "deny" rules; put allow rules in your user settings.');
    assert.deepEqual(parseRules([GOOD], 'workspace').rules, [], 'the allow is dropped');
    assert.deepEqual(parseRules([{ ...GOOD, effect: 'ask' }], 'workspace').problems, []);
    assert.deepEqual(parseRules([GOOD], 'policy').problems, [], 'a policy may allow');
  });

  it('when and its conditions', () => {
    assert.equal(problemOf({ ...GOOD, when: { pointer: '/path' } }), 'Rule \'project files\' (user settings): "when" must be a list of conditions such as [{ "pointer": "/path", "under": "~/project" }], not an object.');
    assert.match(problemOf({ ...GOOD, when: Array(33).fill({ pointer: '/a', equals: 1 }) }), /"when" has 33 conditions; at most 32\./);
    assert.equal(problemOf(withCondition('/path')), 'Rule \'project files\' (user settings): "when[0]" must be an object such as { "pointer": "/path", "under": "~/project" }, not string "/path".');
    assert.equal(problemOf(withCondition({ under: '/p' })), 'Rule \'project files\' (user settings): "when[0].pointer" must be a JSON pointer to an argument such as "/path" or "/options/dryRun", not nothing.');
    assert.equal(problemOf(withCondition({ pointer: 'path', under: '/p' })), 'Rule \'project files\' (user settings): "when[0].pointer" "path" must start with "/" (a JSON pointer such as "/path").');
    assert.match(problemOf(withCondition({ pointer: '', under: '/p' })), /"when\[0\]\.pointer" "" must name one argument/);
    assert.match(problemOf(withCondition({ pointer: '/a~2b', equals: 1 })), /"when\[0\]\.pointer" "\/a~2b" has a "~" that is not "~0" \(for ~\) or "~1" \(for \/\)\./);
    assert.match(problemOf(withCondition({ pointer: '/p' })), /"when\[0\]" has no test: give one of equals, in, prefix, under, glob, regex, min, max/);
    assert.match(problemOf(withCondition({ pointer: '/p', prefix: 'SELECT', regex: '^SELECT' })), /"when\[0\]" has prefix and regex: give one test per condition/);
    assert.match(problemOf(withCondition({ pointer: '/p', prefix: 'x', startsWith: 'x' })), /"when\[0\]\.startsWith" is not a field of a condition/);
  });

  it('each test checks its value', () => {
    assert.match(problemOf(withCondition({ pointer: '/p', in: [] })), /"when\[0\]\.in" must be a non-empty list of the values allowed, not \[\]\./);
    assert.match(problemOf(withCondition({ pointer: '/p', prefix: '' })), /"when\[0\]\.prefix" must be a non-empty text, not "" \(for paths use "under"/);
    assert.match(problemOf(withCondition({ pointer: '/p', under: 'src' })), /"when\[0\]\.under" must be absolute \(start with \/, a drive, ~ or \$\{workspaceFolder\}\), not "src"/);
    assert.match(problemOf(withCondition({ pointer: '/p', under: '/a/*' })), /"when\[0\]\.under" is a folder and takes no wildcards/);
    assert.match(problemOf(withCondition({ pointer: '/p', under: '/a\0' })), /"when\[0\]\.under" contains a NUL character\./);
    assert.match(problemOf(withCondition({ pointer: '/p', glob: '/a/../**' })), /"when\[0\]\.glob" may not contain "\.\." segments/);
    assert.match(problemOf(withCondition({ pointer: '/p', glob: 'src/*.md' })), /"when\[0\]\.glob" must be absolute \(start with \/, a drive, ~, \$\{workspaceFolder\} or \*\*\/\)/);
    // As in .gitignore, "**/" at the start means at any depth from the root.
    const anywhere = parseRules([{ ...GOOD, when: [{ pointer: '/p', glob: '**/*.env' }] }], 'user');
    assert.deepEqual(anywhere.problems, []);
    assert.deepEqual(anywhere.rules[0].when[0].test, { kind: 'glob', glob: '/**/*.env' });
    assert.match(problemOf(withCondition({ pointer: '/p', regex: '(?=a)b' })), /"when\[0\]\.regex" "\(\?=a\)b" is not a regex the linear-time engine accepts \(RE2: no backreferences or lookaround\): .*invalid or unsupported Perl syntax/);
    assert.match(problemOf(withCondition({ pointer: '/p', regex: '(a)\\1' })), /"when\[0\]\.regex" .* is not a regex the linear-time engine accepts/);
    assert.match(problemOf(withCondition({ pointer: '/p', regex: '[' })), /"when\[0\]\.regex" "\[" is not a regex the linear-time engine accepts .*: .*missing closing \]/);
    assert.match(problemOf(withCondition({ pointer: '/p', regex: 'a{0,1000}b{0,1000}c{0,1000}d{0,1000}e{0,1000}f{0,1000}' })), /"when\[0\]\.regex" .* is too large \(\d+ RE2 instructions, over 5000\)/);
    assert.match(problemOf(withCondition({ pointer: '/p', min: '1' })), /"when\[0\]\.min" must be a finite number, not "1"\./);
    // A list argument is read value by value, so a test compares one value: a list in equals or in could never match.
    assert.match(problemOf(withCondition({ pointer: '/p', equals: ['main', 'master'] })), /"when\[0\]\.equals" is a list, but a list argument is read value by value: use "in": \["main","master"\] for "any of these values"\./);
    assert.match(problemOf(withCondition({ pointer: '/p', in: ['main', ['dev']] })), /"when\[0\]\.in" holds a list \(\["dev"\]\), but a list argument is read value by value, so no value is a list: list its values one by one\./);
    assert.match(problemOf(withCondition({ pointer: '/p', min: 5, max: 1 })), /"when\[0\]\.min" \(5\) is greater than max \(1\): no number is in that range\./);
  });

  it('a broken deny or ask is kept as an ask for its tools (a typo never loosens); a broken allow is dropped', () => {
    const parsed = parseRules([{ name: 'no main', server: 'git', tool: 'push', effect: 'deny', when: [{ pointer: 'branch', equals: 'main' }] }], 'user');
    assert.equal(parsed.problems.length, 1);
    assert.equal(parsed.rules.length, 1);
    assert.equal(parsed.rules[0].effect, 'ask');
    assert.deepEqual(parsed.rules[0].when, []);
    assert.match(parsed.rules[0].broken ?? '', /^"when\[0\]\.pointer" "branch" must start with "\/"/);
    assert.deepEqual(parseRules([{ ...GOOD, when: [{ pointer: 'path', under: '/p' }] }], 'user').rules, []);
    assert.equal(parseRules([{ ...GOOD, effect: 'dney' }], 'user').rules[0].effect, 'ask', 'an unknown effect is read as restricting');
  });

  it('a regex runs in linear time: ^(a+)+$ against 100,000 characters', () => {
    const rule = parseRules([{ ...GOOD, when: [{ pointer: '/p', regex: '^(a+)+$' }] }], 'user').rules[0];
    const start = performance.now();
    const result = testCondition(rule.when[0], { p: `${'a'.repeat(100_000)}!` }, { paths: localPaths() });
    const ms = performance.now() - start;
    assert.equal(result.kind, 'no');
    assert.ok(ms < 2000, `took ${ms} ms`);
    const huge = testCondition(rule.when[0], { p: 'a'.repeat(5_000_000) }, { paths: localPaths() });
    assert.equal(huge.kind, 'unsure', 'past the step bound the rule cannot tell');
  });
});
