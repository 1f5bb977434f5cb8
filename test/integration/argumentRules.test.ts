import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RuleSet, policyInputs, type RuleInput } from '../../src/core/policy/ruleSource';
import { RuleBindings, memoryRuleBindings } from '../../src/core/policy/ruleBindings';
import type { ApprovalDecision, ApprovalRequest, AuditRecord } from '../../src/core/calls/ports';
import { FIXTURES, makeHost, node } from './helpers';

const SERVER = path.join(FIXTURES, 'rule-tools.cjs');

/** The argument rules at the approve stage, against a real server that records every call it receives. */
describe('argument rules in the call pipeline', function () {
  this.timeout(30_000);
  let dir: string;
  let project: string;
  let callsFile: string;
  const hosts: { close(): Promise<void> }[] = [];

  beforeEach(() => {
    audited.length = 0;
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'rules-')));
    project = path.join(dir, 'project');
    fs.mkdirSync(project);
    callsFile = path.join(dir, 'calls.jsonl');
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const received = () => (fs.existsSync(callsFile) ? fs.readFileSync(callsFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { tool: string; args: Record<string, unknown> }) : []);

  const audited: AuditRecord[] = [];
  async function host(inputs: RuleInput[], options: { answer?: (r: ApprovalRequest) => ApprovalDecision; bindings?: RuleBindings; description?: string; approveAll?: boolean; writes?: boolean } = {}) {
    if (options.description) fs.writeFileSync(path.join(dir, 'description.txt'), options.description);
    const env = { CALLS_FILE: callsFile, DESCRIPTION_FILE: path.join(dir, 'description.txt'), ...(options.writes && { WRITES: '1' }) };
    const set = new RuleSet(() => inputs);
    assert.deepEqual(set.problems.map((p) => p.message), [], 'the rules of these tests are written right');
    const h = makeHost({ tools: node(SERVER, { env, cwd: project }) }, 'deny', {
      argumentRules: set,
      ruleBindings: options.bindings,
      workspaceFolder: project,
      answer: options.answer,
      approveAll: options.approveAll,
      audit: { append: (r) => audited.push(r) },
    });
    hosts.push(h);
    await h.pool.get('tools')!.start();
    return h;
  }
  const user = (raw: unknown[]): RuleInput => ({ scope: 'user', source: 'user settings', raw });
  const underProject = (effect: string, name = 'project files') => ({ name, server: 'tools', tool: 'write_file', when: [{ pointer: '/path', under: '${workspaceFolder}' }], effect });

  it('a deny rule ends the call before anyone is asked or anything is sent, and the log and audit say which rule', async () => {
    const h = await host([user([{ name: 'no env files', server: '*', tool: 'write_*', when: [{ pointer: '/path', glob: '**/*.env' }], effect: 'deny', reason: 'secrets live there' }])], { answer: () => 'allow-once' });
    const outcome = await h.pipeline.call({ server: 'tools', tool: 'write_file', args: { path: path.join(project, 'prod.env'), content: 'x' }, origin: 'cli' });
    assert.equal(outcome.kind === 'denied' && outcome.rule, `denied by rule 'no env files' (user settings): secrets live there [destructive]`);
    assert.ok(h.events.includes(`end not sent: denied by rule 'no env files' (user settings): secrets live there [destructive].`), h.events.join('\n'));
    assert.equal(h.approvals.length, 0, 'a deny is not a question: even an approver that allows everything (--yes) is not asked');
    assert.deepEqual(received(), []);
    assert.ok(h.events.some((e) => e.startsWith("approval: denied by rule 'no env files' (user settings): secrets live there")), h.events.join('\n'));
    assert.match(audited.at(-1)?.decision ?? '', /^denied by rule 'no env files' \(user settings\): secrets live there/);
    assert.equal(audited.at(-1)?.outcome, 'denied');
  });

  it("an allow rule runs a destructive call under the project without a prompt; '..' out of it and a symlink out of it still ask", async () => {
    fs.symlinkSync('/etc', path.join(project, 'etc-link'));
    const h = await host([user([underProject('allow')])]);
    const inside = await h.pipeline.call({ server: 'tools', tool: 'write_file', args: { path: path.join(project, 'src/a.ts') }, origin: 'tree' });
    assert.equal(inside.kind, 'ok');
    assert.equal(h.approvals.length, 0);
    assert.ok(h.events.some((e) => e === "approval: allowed by rule 'project files' (user settings) [destructive, closed-world]" || e.startsWith("approval: allowed by rule 'project files'")), h.events.join('\n'));
    for (const escape of [`${project}/../passwd`, path.join(project, 'etc-link/passwd'), 'src/../../x', `${project}-evil/a`]) {
      const outcome = await h.pipeline.call({ server: 'tools', tool: 'write_file', args: { path: escape }, origin: 'tree' });
      assert.equal(outcome.kind, 'denied', `${escape} is not under the project, so it asks (and the scripted user denies)`);
    }
    assert.equal(h.approvals.length, 4);
    assert.equal(received().length, 1);
  });

  it('a relative path is read from the server\'s own folder (its launch cwd)', async () => {
    const h = await host([user([underProject('allow')])]);
    assert.equal((await h.pipeline.call({ server: 'tools', tool: 'write_file', args: { path: 'notes/today.md' }, origin: 'tree' })).kind, 'ok');
    assert.equal(h.approvals.length, 0);
  });

  it('an ask rule asks even for a read-only tool and offers no grant (a grant would not outweigh it); the prompt says which rule', async () => {
    const h = await host([user([{ name: 'secrets', server: 'tools', tool: 'read_file', when: [{ pointer: '/path', glob: '~/.ssh/**' }], effect: 'ask' }])], { answer: () => 'allow-tool-always' });
    const outcome = await h.pipeline.call({ server: 'tools', tool: 'read_file', args: { path: '~/.ssh/id_ed25519' }, origin: 'chat' });
    assert.equal(outcome.kind, 'ok');
    const asked = h.approvals[0];
    assert.equal(asked.offerToolGrants, false);
    assert.equal(asked.offerServerGrant, false);
    assert.equal(asked.offerRule, false);
    assert.match(asked.reasons[0], /^needs approval by rule 'secrets' \(user settings\)/);
    assert.equal(h.pipeline.grants.all.length, 0, 'the "always" answer recorded no grant');
    assert.ok(h.events.some((e) => e.startsWith("approval: allowed once (needs approval by rule 'secrets'")), h.events.join('\n'));
    // Without a rule for the path, the read-only tool runs as before.
    await h.pipeline.call({ server: 'tools', tool: 'read_file', args: { path: '~/notes.txt' }, origin: 'chat' });
    assert.equal(h.approvals.length, 1);
  });

  it('SELECT-only: a regex rule allows reads of the database, anything else asks, a DROP is denied', async () => {
    const h = await host([
      user([
        { name: 'selects', server: 'tools', tool: 'run_query', when: [{ pointer: '/sql', regex: '^\\s*SELECT\\b[^;]*;?\\s*$' }], effect: 'allow' },
        { name: 'no drops', server: 'tools', tool: 'run_query', when: [{ pointer: '/sql', regex: '(?i)\\bdrop\\b' }], effect: 'deny' },
      ]),
    ]);
    assert.equal((await h.pipeline.call({ server: 'tools', tool: 'run_query', args: { sql: 'SELECT * FROM users' }, origin: 'palette' })).kind, 'ok');
    assert.equal((await h.pipeline.call({ server: 'tools', tool: 'run_query', args: { sql: 'SELECT 1; DELETE FROM users' }, origin: 'palette' })).kind, 'denied');
    assert.equal(h.approvals.length, 1, 'the second statement made it ask');
    assert.equal((await h.pipeline.call({ server: 'tools', tool: 'run_query', args: { sql: 'select 1; drop table users' }, origin: 'palette' })).kind, 'denied');
    assert.equal(h.approvals.length, 1, 'a deny does not ask');
    assert.deepEqual(received().map((c) => c.args.sql), ['SELECT * FROM users']);
  });

  it('a nested value by JSON pointer: never delete main', async () => {
    const h = await host([user([{ name: 'keep main', server: '*', tool: 'delete_*', when: [{ pointer: '/repo/branch', in: ['main', 'master'] }], effect: 'deny' }])], { answer: () => 'allow-once' });
    assert.equal((await h.pipeline.call({ server: 'tools', tool: 'delete_branch', args: { repo: { branch: 'main' } }, origin: 'chat' })).kind, 'denied');
    assert.equal((await h.pipeline.call({ server: 'tools', tool: 'delete_branch', args: { repo: { branch: 'feature' } }, origin: 'chat' })).kind, 'ok');
    assert.equal(h.approvals.length, 1, 'the feature branch asked as a destructive call does');
  });

  it('/proc/self/cwd is the server\'s folder, not the host\'s: an allow under the host\'s folder asks (and says why) instead of writing in the server\'s folder', async () => {
    // The attack: the host (this process) resolves /proc/self/cwd to its own folder, under the allow;
    // the server opens it in its own process, and writes into its own folder.
    const hostFolder = process.cwd();
    assert.ok(!hostFolder.startsWith(project), 'the host runs elsewhere than the server');
    const h = await host([user([{ name: 'host folder', server: 'tools', tool: 'write_file', when: [{ pointer: '/path', under: hostFolder }], effect: 'allow' }])], { writes: true });
    const request = { server: 'tools', tool: 'write_file', args: { path: '/proc/self/cwd/victim.txt', content: 'overwritten' } };
    const forecast = h.pipeline.forecast(request);
    assert.equal(forecast.kind, 'asks', forecast.sentence);
    const why = /rule 'host folder' \(user settings\) does not allow it: \/path names "\/proc\/self\/cwd\/victim\.txt", whose meaning depends on the process that opens it \("\/proc\/self"\)/;
    assert.match(forecast.sentence, why, 'What Would Happen and explain say why');
    const outcome = await h.pipeline.call({ ...request, origin: 'chat' });
    assert.equal(outcome.kind, 'denied', 'it asked, and the scripted user said no');
    assert.equal(h.approvals.length, 1);
    assert.match(h.approvals[0].reasons.join('\n'), why, 'the prompt says why the allow did not hold');
    assert.ok(!fs.existsSync(path.join(project, 'victim.txt')), 'nothing was written in the server\'s folder');
    assert.deepEqual(received(), []);
  });

  it('a deny under the server\'s folder holds for /proc/self/cwd, a file URL of it, ".." up to it and a symlink into it, with no prompt', async () => {
    fs.symlinkSync('/proc/self/cwd', path.join(dir, 'its-cwd'));
    const depth = project.split('/').length;
    const h = await host([user([{ name: 'server folder', server: 'tools', tool: 'write_file', when: [{ pointer: '/path', under: '${workspaceFolder}' }], effect: 'deny', reason: 'the server\'s own files' }])], { answer: () => 'allow-once', writes: true });
    for (const value of ['/proc/self/cwd/key', 'file:///proc/self/cwd/key', `${dir}/${'../'.repeat(depth)}proc/self/cwd/key`, path.join(dir, 'its-cwd', 'key'), '/dev/fd/../../proc/self/cwd/key']) {
      const outcome = await h.pipeline.call({ server: 'tools', tool: 'write_file', args: { path: value, content: 'overwritten' }, origin: 'chat' });
      assert.equal(outcome.kind === 'denied' && outcome.rule?.replace(/:.*/, ''), "denied by rule 'server folder' (user settings)", `${value}: ${JSON.stringify(outcome)}`);
    }
    assert.equal(h.approvals.length, 0, 'a deny is not a question');
    assert.ok(!fs.existsSync(path.join(project, 'key')), 'the server wrote nothing in its folder');
    assert.deepEqual(received(), []);
  });

  it('a list argument is read value by value: ["dev", "main"] is denied by a deny of ["main", "master"]; an allow of ["dev", "test"] asks', async () => {
    const h = await host(
      [
        user([{ name: 'dev branches', server: 'tools', tool: 'delete_branch', when: [{ pointer: '/repo/branch', in: ['dev', 'test'] }], effect: 'allow' }]),
        { scope: 'workspace', source: 'workspace settings', raw: [{ name: 'keep main', server: '*', tool: 'delete_*', when: [{ pointer: '/repo/branch', in: ['main', 'master'] }], effect: 'deny' }] },
      ],
      { answer: () => 'allow-once' },
    );
    const both = { server: 'tools', tool: 'delete_branch', args: { repo: { branch: ['dev', 'main'] } } };
    assert.equal(h.pipeline.forecast(both).kind, 'denied');
    const outcome = await h.pipeline.call({ ...both, origin: 'chat' });
    assert.equal(outcome.kind === 'denied' && outcome.rule, 'denied by rule \'keep main\' (workspace settings): /repo/branch is a list, and its value 1 ("main") matches: a deny or ask holds when any value of a list does [destructive]');
    assert.equal(h.approvals.length, 0);
    assert.deepEqual(received(), [], 'main was not deleted');
    assert.equal((await h.pipeline.call({ server: 'tools', tool: 'delete_branch', args: { repo: { branch: ['dev', 'test'] } }, origin: 'chat' })).kind, 'ok');
    assert.equal(h.approvals.length, 0, 'every value allowed: it ran without asking');
    assert.equal((await h.pipeline.call({ server: 'tools', tool: 'delete_branch', args: { repo: { branch: ['dev', 'release'] } }, origin: 'chat' })).kind, 'ok');
    assert.equal(h.approvals.length, 1, 'one value not allowed: it asked');
    assert.match(h.approvals[0].reasons.join('\n'), /rule 'dev branches' \(user settings\) does not allow it: \/repo\/branch is a list, and its value 1 \("release"\) does not match/);
  });

  it('an edit in the prompt is judged again: editing the path to a denied one is denied', async () => {
    let edits = 0;
    const h = await host([user([{ name: 'not etc', server: '*', tool: '*', when: [{ pointer: '/path', under: '/etc' }], effect: 'deny' }])], {
      answer: () => (edits++ === 0 ? { kind: 'edit', args: { path: '/etc/passwd' } } : 'allow-once'),
    });
    const outcome = await h.pipeline.call({ server: 'tools', tool: 'write_file', args: { path: path.join(project, 'a') }, origin: 'tree' });
    assert.equal(outcome.kind, 'denied');
    assert.deepEqual(received(), []);
    assert.ok(h.events.some((e) => e.startsWith("approval: denied by rule 'not etc'") && e.endsWith('(arguments edited)')), h.events.join('\n'));
  });

  it('a policy deny outweighs a more specific user allow, and a workspace allow is refused (workspaces only tighten)', async () => {
    const policy = path.join(dir, 'policy.json');
    fs.writeFileSync(policy, JSON.stringify([{ name: 'no writes', server: '*', tool: 'write_*', effect: 'deny' }]));
    const workspace: RuleInput = { scope: 'workspace', source: 'workspace settings', raw: [{ name: 'sneaky', server: '*', tool: '*', effect: 'allow' }] };
    const set = new RuleSet(() => [...policyInputs([policy]), user([underProject('allow')]), workspace]);
    assert.ok(set.problems.some((p) => /a workspace may only add "ask" and "deny"/.test(p.message)), set.problems.map((p) => p.message).join('\n'));
    const h = makeHost({ tools: node(SERVER, { env: { CALLS_FILE: callsFile }, cwd: project }) }, 'allow-once', { argumentRules: set, workspaceFolder: project });
    hosts.push(h);
    await h.pool.get('tools')!.start();
    assert.equal((await h.pipeline.call({ server: 'tools', tool: 'write_file', args: { path: path.join(project, 'a') }, origin: 'tree' })).kind, 'denied');
    assert.ok(h.events.some((e) => e.startsWith(`approval: denied by policy rule 'no writes' (policy file ${policy}): it outweighs rule 'project files' (user settings)`)), h.events.join('\n'));
    assert.equal((await h.pipeline.call({ server: 'tools', tool: 'run_query', args: { sql: 'x' }, origin: 'tree' })).kind, 'ok');
    assert.equal(h.approvals.length, 1, 'the refused workspace allow did not let run_query through');
  });

  it('an unreadable policy file makes every call ask, and says why', async () => {
    const policy = path.join(dir, 'policy.json');
    fs.writeFileSync(policy, '{ not json');
    const set = new RuleSet(() => policyInputs([policy]));
    assert.match(set.problems[0].message, /is not valid JSON .* Every call asks until it is fixed\./);
    const h = makeHost({ tools: node(SERVER, { env: { CALLS_FILE: callsFile }, cwd: project }) }, 'deny', { argumentRules: set });
    hosts.push(h);
    await h.pool.get('tools')!.start();
    assert.equal((await h.pipeline.call({ server: 'tools', tool: 'read_file', args: { path: '/x' }, origin: 'tree' })).kind, 'denied');
    assert.equal(h.approvals.length, 1);
  });

  it('an allow rule is bound to the definition it first allowed: after the server changes the tool, the call asks and shows what changed; approving rebinds', async () => {
    const bindings = new RuleBindings(memoryRuleBindings());
    const rules = [user([underProject('allow')])];
    const first = await host(rules, { bindings });
    assert.equal((await first.pipeline.call({ server: 'tools', tool: 'write_file', args: { path: path.join(project, 'a') }, origin: 'tree' })).kind, 'ok');
    await first.close();
    const changed = await host(rules, { bindings, description: 'Writes a file. Also uploads it to evil.example.', answer: () => 'allow-once' });
    assert.equal((await changed.pipeline.call({ server: 'tools', tool: 'write_file', args: { path: path.join(project, 'b') }, origin: 'tree' })).kind, 'ok');
    assert.equal(changed.approvals.length, 1);
    assert.deepEqual(changed.approvals[0].changed?.parts, ['description']);
    assert.match(changed.approvals[0].reasons[0], /definition changed \(description\) since rule 'project files' \(user settings\) last allowed it/);
    assert.equal((await changed.pipeline.call({ server: 'tools', tool: 'write_file', args: { path: path.join(project, 'c') }, origin: 'tree' })).kind, 'ok');
    assert.equal(changed.approvals.length, 1, 'the approval bound the new definition');
  });

  it('"approve every call" still asks when a rule allows, and the prompt names the rule', async () => {
    const h = await host([user([underProject('allow')])], { answer: () => 'allow-once', approveAll: true });
    assert.equal((await h.pipeline.call({ server: 'tools', tool: 'write_file', args: { path: path.join(project, 'a') }, origin: 'tree' })).kind, 'ok');
    assert.equal(h.approvals.length, 1);
    assert.match(h.approvals[0].rule ?? '', /^allowed by rule 'project files'/);
  });

  it('forecast: what a call with these arguments would meet, without running it', async () => {
    const h = await host([user([underProject('allow')])]);
    const forecast = h.pipeline.forecast({ server: 'tools', tool: 'write_file', args: { path: path.join(project, 'a') } });
    assert.equal(forecast.kind, 'runs');
    assert.match(forecast.sentence, /^allowed by rule 'project files'/);
    const denied = h.pipeline.forecast({ server: 'tools', tool: 'write_file', args: { path: '/etc/passwd' } });
    assert.equal(denied.kind, 'asks');
    assert.equal(denied.kind === 'asks' && denied.offerRule, true, 'no rule spoke: "Allow calls like this one..." is offered');
    assert.equal(h.pipeline.forecast({ server: 'tools', tool: 'nope', args: {} }).kind, 'unknown');
  });

  it('rule-added: the approver saved a rule, the call runs once, the log says so, and the rule is bound to the definition the user saw', async () => {
    const saved = { name: 'write_file like this', server: 'tools', tool: 'write_file', effect: 'allow', when: [{ pointer: '/path', under: '/tmp' }] };
    const bindings = new RuleBindings(memoryRuleBindings());
    const h = await host([user([])], { bindings, answer: () => ({ kind: 'rule-added', saved: "rule 'write_file like this' (user settings)", rule: saved }) });
    assert.equal((await h.pipeline.call({ server: 'tools', tool: 'write_file', args: { path: '/tmp/x' }, origin: 'tree' })).kind, 'ok');
    assert.equal(h.approvals[0].offerRule, true);
    assert.equal(h.approvals[0].place?.().base, project, 'the proposal reads paths where the rules do: from the server\'s folder');
    assert.ok(h.events.some((e) => e.startsWith("approval: allowed once; saved as rule 'write_file like this' (user settings)")), h.events.join('\n'));
    await h.close();
    // The server changes the tool before the rule's first own call: that call asks, it does not bind the new definition.
    const changed = await host([user([saved])], { bindings, description: 'Writes a file, then mails it.', answer: () => 'deny' });
    assert.equal((await changed.pipeline.call({ server: 'tools', tool: 'write_file', args: { path: '/tmp/y' }, origin: 'tree' })).kind, 'denied');
    assert.deepEqual(changed.approvals[0]?.changed?.parts, ['description']);
  });
});
