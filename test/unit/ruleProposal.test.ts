import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Tool } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { parseRules } from '../../src/core/policy/argumentRules';
import { memoryRuleBindings, RuleBindings } from '../../src/core/policy/ruleBindings';
import type { MatchPlace } from '../../src/core/policy/ruleConditions';
import { decideByRules } from '../../src/core/policy/ruleDecision';
import { localPaths } from '../../src/core/policy/rulePaths';
import { buildRule, MAX_EQUALS_CHARS, proposeRule, ruleName, type ArgumentChoice, type RuleProposal } from '../../src/core/policy/ruleProposal';
import { pinTool } from '../../src/core/policy/toolPin';

const TOOL: Tool = { name: 'write_file', inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' }, force: { type: 'boolean' } } } };

type Proposal = Extract<RuleProposal, { kind: 'proposal' }>;

function propose(args: Record<string, unknown>, place: MatchPlace, tool: Tool = TOOL, taken: readonly string[] = []): Proposal {
  const p = proposeRule('filesystem', tool, args, place, taken);
  assert.equal(p.kind, 'proposal', p.kind === 'none' ? p.why : '');
  return p as Proposal;
}

function kinds(p: Proposal, arg: string): string[] {
  return p.arguments.find((a) => a.name === arg)!.choices.map((c) => c.kind);
}

function choice(p: Proposal, arg: string, kind: ArgumentChoice['kind']): ArgumentChoice {
  const found = p.arguments.find((a) => a.name === arg)!.choices.find((c) => c.kind === kind);
  assert.ok(found, `argument ${arg} offers ${kind}`);
  return found;
}

/** Saves the rule built from `pick` (per argument; "any" for the rest) and decides another call with it. */
function decides(p: Proposal, pick: Record<string, ArgumentChoice['kind']>, args: Record<string, unknown>, place: MatchPlace): string {
  const rule = buildRule(p, p.arguments.map((a) => choice(p, a.name, pick[a.name] ?? 'any')));
  const parsed = parseRules([rule], 'user');
  assert.deepEqual(parsed.problems, [], 'the proposed rule parses as the user setting would');
  return decideByRules(parsed.rules, { server: 'filesystem', tool: TOOL.name, args, pin: pinTool(TOOL) }, place, new RuleBindings(memoryRuleBindings())).kind;
}

describe('"Allow calls like this one": the proposed rule (attacker first)', () => {
  // Real folders: tmp/project/src (the workspace, also reached through tmp/projlink), tmp/outside, tmp/project/link -> outside.
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'proposal-')));
  const project = path.join(tmp, 'project');
  const outside = path.join(tmp, 'outside');
  const place: MatchPlace = { paths: localPaths(), workspaceFolder: project, base: project };

  before(() => {
    fs.mkdirSync(path.join(project, 'src', 'deep'), { recursive: true });
    fs.mkdirSync(outside);
    fs.symlinkSync(outside, path.join(project, 'link'));
    fs.symlinkSync(project, path.join(tmp, 'projlink'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('a path offers its folder (under ${workspaceFolder} inside the workspace), its exact value, or any value', () => {
    const p = propose({ path: `${project}/src/a.ts`, content: 'hello' }, place);
    assert.equal(p.name, 'write_file like this');
    assert.deepEqual(kinds(p, 'path'), ['under', 'equals', 'any']);
    assert.deepEqual(choice(p, 'path', 'under'), { kind: 'under', folder: '${workspaceFolder}/src', condition: { pointer: '/path', under: '${workspaceFolder}/src' } });
    assert.deepEqual(kinds(p, 'content'), ['equals', 'any'], 'text that is not a path has no folder');
    assert.deepEqual(p.unchecked, ['force'], 'a parameter the call did not send is named: the rule cannot check it');
    assert.deepEqual(buildRule(p, [choice(p, 'path', 'under'), choice(p, 'content', 'any')]), {
      name: 'write_file like this',
      server: 'filesystem',
      tool: 'write_file',
      effect: 'allow',
      when: [{ pointer: '/path', under: '${workspaceFolder}/src' }],
    });
  });

  it('the folder rule covers the folder and below, and nothing beside or above it', () => {
    const p = propose({ path: `${project}/src/a.ts`, content: 'x' }, place);
    const under = { path: 'under' } as const;
    assert.equal(decides(p, under, { path: `${project}/src/b.ts`, content: 'y' }, place), 'allow');
    assert.equal(decides(p, under, { path: `${project}/src/deep/c.ts`, content: 'y' }, place), 'allow');
    assert.equal(decides(p, under, { path: `${project}/other.ts`, content: 'y' }, place), 'none', 'the parent folder is not covered');
    assert.equal(decides(p, under, { path: `${project}/src-evil/a.ts`, content: 'y' }, place), 'none');
    assert.equal(decides(p, under, { path: `${project}/src/../../outside/a.ts`, content: 'y' }, place), 'none', '".." out of it');
    assert.equal(decides(p, under, { path: `${project}/src/../link/a.ts`, content: 'y' }, place), 'none', 'a link out of it');
  });

  it('a path with ".." proposes the folder it really reaches, not the one it names first', () => {
    const p = propose({ path: `${project}/src/../../outside/secret.txt` }, place);
    assert.equal((choice(p, 'path', 'under') as { folder: string }).folder, outside, 'written absolute: it is outside the workspace');
  });

  it('a symlink out of the project proposes the REAL folder', () => {
    const p = propose({ path: `${project}/link/secret.txt` }, place);
    assert.equal((choice(p, 'path', 'under') as { folder: string }).folder, outside);
    assert.equal(decides(p, { path: 'under' }, { path: `${project}/src/a.ts` }, place), 'none', 'the project is not what was allowed');
  });

  it('a workspace reached through a symlink is still written as ${workspaceFolder}', () => {
    const viaLink: MatchPlace = { ...place, workspaceFolder: path.join(tmp, 'projlink') };
    const p = propose({ path: `${tmp}/projlink/src/deep/x` }, viaLink);
    assert.equal((choice(p, 'path', 'under') as { folder: string }).folder, '${workspaceFolder}/src/deep');
    assert.equal(decides(p, { path: 'under' }, { path: `${project}/src/deep/y` }, viaLink), 'allow');
  });

  it('a relative path is read from the server\'s folder; without one, no folder is offered', () => {
    const p = propose({ path: 'src/a.ts' }, place);
    assert.equal((choice(p, 'path', 'under') as { folder: string }).folder, '${workspaceFolder}/src');
    const noBase = propose({ path: 'src/a.ts' }, { paths: localPaths() });
    assert.deepEqual(kinds(noBase, 'path'), ['equals', 'any']);
    assert.match(noBase.arguments[0].notes.join(), /no folder: the path is a relative path and the server's folder is not known/);
  });

  it('a path the engine cannot read offers only its exact value (and any value), and says why', () => {
    for (const [value, why] of [
      [`${project}/src/a\0.ts`, /NUL/],
      [`${project}/src/%2e%2e/x`, /percent-encoded/],
      ['~someone/x', /another user's home/],
      [`${project}/${'a/'.repeat(2100)}x`, /longer than 4096/],
    ] as const) {
      const p = propose({ path: value }, place);
      assert.deepEqual(kinds(p, 'path'), value.length > MAX_EQUALS_CHARS ? ['any'] : ['equals', 'any'], value.slice(0, 40));
      assert.match(p.arguments[0].notes.join(' '), why);
    }
  });

  it('a path the server reads in its own process (/proc/self/cwd) offers no folder, and says why', () => {
    const p = propose({ path: '/proc/self/cwd/src/a.ts' }, place);
    assert.deepEqual(kinds(p, 'path'), ['equals', 'any']);
    assert.match(p.arguments[0].notes.join(' '), /no folder: the path names "\/proc\/self\/cwd\/src\/a\.ts", whose meaning depends on the process that opens it/);
  });

  it('a list offers "each value one of" its values (a list is read value by value); an empty or nested list offers none, and says why', () => {
    const p = propose({ branches: ['dev', 'test'], none: [], nested: [['a']] }, place);
    assert.deepEqual(kinds(p, 'branches'), ['each-of', 'any']);
    assert.deepEqual((choice(p, 'branches', 'each-of') as { condition: unknown }).condition, { pointer: '/branches', in: ['dev', 'test'] });
    assert.equal(decides(p, { branches: 'each-of' }, { branches: ['test', 'dev', 'dev'] }, place), 'allow');
    assert.equal(decides(p, { branches: 'each-of' }, { branches: ['dev', 'main'] }, place), 'none');
    assert.deepEqual(kinds(p, 'none'), ['any']);
    assert.match(p.arguments[1].notes.join(' '), /no list of values: a rule does not read an empty list/);
    assert.deepEqual(kinds(p, 'nested'), ['any']);
    assert.match(p.arguments[2].notes.join(' '), /no list of values: a rule does not read a list inside a list/);
  });

  it('a ".." after a symlink reaches two places: no folder', () => {
    const p = propose({ path: `${project}/link/../x` }, place);
    assert.deepEqual(kinds(p, 'path'), ['equals', 'any']);
    assert.match(p.arguments[0].notes[0], /depending on how "\.\." is read/);
  });

  it('a file in the root folder offers no folder (under "/" would cover every path)', () => {
    const p = propose({ path: '/x.txt' }, place);
    assert.deepEqual(kinds(p, 'path'), ['equals', 'any']);
    assert.match(p.arguments[0].notes[0], /root folder/);
  });

  it('a URL or plain text is not a path; a name that says path makes one', () => {
    const p = propose({ url: 'https://example.com/a/b', note: 'and/or', filePath: 'notes.txt', profile: 'default' }, place);
    assert.deepEqual(kinds(p, 'url'), ['equals', 'any']);
    assert.deepEqual(kinds(p, 'note'), ['equals', 'any']);
    assert.deepEqual(kinds(p, 'filePath'), ['under', 'equals', 'any']);
    assert.deepEqual(kinds(p, 'profile'), ['equals', 'any'], '"profile" is not "file"');
  });

  it('a server-chosen argument name with newlines, quotes, ~ and / is escaped in the pointer and still names that argument', () => {
    const name = 'a/b~c\n"\u202e\\';
    const p = propose({ [name]: 7 }, place);
    const equals = choice(p, name, 'equals') as { condition: { pointer: string } };
    assert.equal(equals.condition.pointer, '/a~1b~0c\n"\u202e\\');
    assert.equal(decides(p, { [name]: 'equals' }, { [name]: 7 }, place), 'allow');
    assert.equal(decides(p, { [name]: 'equals' }, { [name]: 8 }, place), 'none');
    assert.equal(decides(p, { [name]: 'equals' }, { 'a/b~c': 7 }, place), 'none', 'another argument is not this one');
  });

  it('"__proto__" as an argument name is an ordinary own argument', () => {
    const args = JSON.parse('{"__proto__": "x"}') as Record<string, unknown>;
    const p = propose(args, place);
    assert.deepEqual(kinds(p, '__proto__'), ['equals', 'any']);
    assert.equal(decides(p, JSON.parse('{"__proto__": "equals"}') as Record<string, 'equals'>, JSON.parse('{"__proto__": "x"}') as Record<string, unknown>, place), 'allow');
    assert.equal(decides(p, JSON.parse('{"__proto__": "equals"}') as Record<string, 'equals'>, {}, place), 'none');
  });

  it('huge values and names: no exact value past the bound, only "any value" for a huge name; too many arguments: no proposal', () => {
    const p = propose({ content: 'x'.repeat(1_000_000), ['n'.repeat(300)]: 1 }, place);
    assert.deepEqual(kinds(p, 'content'), ['any']);
    assert.match(p.arguments[0].notes[0], /1000002 characters long/);
    assert.deepEqual(kinds(p, 'n'.repeat(300)), ['any']);
    const many = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`a${i}`, i]));
    const none = proposeRule('filesystem', TOOL, many, place);
    assert.equal(none.kind, 'none');
    assert.match(none.kind === 'none' ? none.why : '', /33 arguments; a rule tests at most 32/);
  });

  it('numbers offer exactly / at most / at least; other values exactly / any; each holds no further than chosen', () => {
    const p = propose({ limit: 10, force: false, options: { deep: true }, nothing: null }, place);
    assert.deepEqual(kinds(p, 'limit'), ['equals', 'at-most', 'at-least', 'any']);
    assert.deepEqual(kinds(p, 'force'), ['equals', 'any']);
    assert.deepEqual(kinds(p, 'options'), ['equals', 'any']);
    assert.deepEqual(kinds(p, 'nothing'), ['equals', 'any']);
    const base = { force: false, options: { deep: true }, nothing: null };
    assert.equal(decides(p, { limit: 'at-most' }, { ...base, limit: 3 }, place), 'allow');
    assert.equal(decides(p, { limit: 'at-most' }, { ...base, limit: 11 }, place), 'none');
    assert.equal(decides(p, { limit: 'at-least' }, { ...base, limit: 9 }, place), 'none');
    assert.equal(decides(p, { force: 'equals', options: 'equals' }, { ...base, limit: 1, force: true }, place), 'none');
    assert.equal(decides(p, { force: 'equals', options: 'equals' }, { ...base, limit: 1, options: { deep: false } }, place), 'none');
    assert.equal(decides(p, { force: 'equals', options: 'equals' }, { limit: 99, options: { deep: true }, force: false }, place), 'allow');
  });

  it('no proposal for a tool or server name a rule would read as a wildcard, or cannot hold', () => {
    const star = proposeRule('filesystem', { ...TOOL, name: 'write*' }, {}, place);
    assert.match(star.kind === 'none' ? star.why : 'proposed', /reads as a wildcard/);
    assert.equal(proposeRule('fs?', TOOL, {}, place).kind, 'none');
    const control = proposeRule('filesystem', { ...TOOL, name: 'write\nfile' }, {}, place);
    assert.match(control.kind === 'none' ? control.why : 'proposed', /control or invisible/);
  });

  it('a name that is taken gets a suffix; a long tool name is cut to fit', () => {
    assert.equal(ruleName('write_file', ['write_file like this']), 'write_file like this (2)');
    assert.equal(ruleName('write_file', ['write_file like this', 'write_file like this (2)']), 'write_file like this (3)');
    const long = ruleName('😀'.repeat(150), []);
    assert.ok(long.length <= 100 && !/[\ud800-\udbff](?![\udc00-\udfff])/.test(long), 'within 100 characters, no half surrogate');
    assert.deepEqual(parseRules([{ name: long, server: 's', tool: 't', effect: 'allow' }], 'user').problems, []);
    const p = propose({}, place, TOOL, ['write_file like this']);
    assert.equal(p.name, 'write_file like this (2)');
  });

  it('buildRule takes only choices the proposal offered', () => {
    const p = propose({ path: `${project}/src/a.ts` }, place);
    assert.throws(() => buildRule(p, [{ kind: 'under', folder: '/', condition: { pointer: '/path', under: '/' } }]), /was not offered/);
    assert.throws(() => buildRule(p, []), /One choice per argument/);
  });

  it('property: for any arguments, the rule of the tightest choices parses and allows the very call it came from', () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null), fc.constantFrom(`${project}/src/a`, `${project}/link/x`, '../x', `${project}/link/../y`, '~/x'));
    fc.assert(
      fc.property(fc.dictionary(fc.string(), value, { maxKeys: 6 }), (args) => {
        const p = propose(args, place);
        const rule = buildRule(p, p.arguments.map((a) => a.choices[0]));
        const parsed = parseRules([rule], 'user');
        assert.deepEqual(parsed.problems, []);
        const d = decideByRules(parsed.rules, { server: 'filesystem', tool: TOOL.name, args, pin: pinTool(TOOL) }, place, new RuleBindings(memoryRuleBindings()));
        assert.equal(d.kind, 'allow');
      }),
      { numRuns: 300 },
    );
  });
});
