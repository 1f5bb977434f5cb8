// The Rules and Approvals view and What Would Happen in the real extension host: rows read from
// real settings, Delete and Edit writing them back, Revoke, and forecasts that call nothing
// (the rule-tools fixture records every call it receives).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import { launchKey } from '../../src/core/config/serverConfig';
import { RuleSet } from '../../src/core/policy/ruleSource';
import { pinTool } from '../../src/core/policy/toolPin';
import { deleteRule, editRule, type RuleQuestions } from '../../src/vscode/rules/ruleActions';
import { RulesTree, type RulesNode } from '../../src/vscode/rules/rulesTree';
import { answerText } from '../../src/vscode/rules/whatWouldHappen';
import { until } from './wait';

const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/servers/rule-tools.cjs');

const USER_RULES = [
  { name: 'no env files', server: 'tools', tool: 'write_*', when: [{ pointer: '/path', glob: '/**/*.env' }], effect: 'deny', reason: 'secrets live there' },
  { name: 'project files', server: 'tools', tool: 'write_file', when: [{ pointer: '/path', under: '${workspaceFolder}' }], effect: 'allow' },
  { name: 'queries', server: 'tools', tool: 'run_query', when: [{ pointer: '/sql', regex: '^\\s*(select|SELECT)\\b' }], effect: 'ask', reason: 'check the SQL' },
  { name: 'old rule', server: 'tools', tool: 'read_file', effect: 'ask' },
];
const WORKSPACE_RULES = [
  { name: 'never main', server: 'tools', tool: 'delete_branch', when: [{ pointer: '/repo/branch', in: ['main', 'master'] }], effect: 'deny' },
  { name: 'sneaky', server: '*', tool: '*', effect: 'allow' },
];

describe('the Rules and Approvals view and What Would Happen', () => {
  let api: McpToolHostApi;
  let callsFile: string;
  let folder: string;
  const config = () => vscode.workspace.getConfiguration('mcpToolHost');
  const calls = () => (fs.existsSync(callsFile) ? fs.readFileSync(callsFile, 'utf8').trim().split('\n').filter(Boolean) : []);
  const children = (node?: RulesNode) => (api.rulesView.getChildren(node) ?? []) as RulesNode[];
  const item = (node: RulesNode) => api.rulesView.getTreeItem(node) as vscode.TreeItem;
  const group = (name: string) => children().find((n) => n.kind === 'group' && n.group === name)!;
  const rows = (name: string) => children(group(name)).map((n) => ({ node: n, item: item(n) }));
  // MarkdownString.appendText keeps spaces as &nbsp;.
  const text = (value: string | vscode.MarkdownString | undefined) => (typeof value === 'string' ? value : (value?.value ?? '')).replace(/&nbsp;/g, ' ');
  const questions = (answers: { json?: string; confirm?: boolean }, seen: string[] = []): RuleQuestions => ({
    json: async (title, value, validate) => (seen.push(title, value, validate(answers.json ?? value) ?? 'ok'), answers.json),
    confirm: async (message) => (seen.push(message), answers.confirm ?? false),
  });

  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    callsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rules-view-')), 'calls.jsonl');
    await config().update('servers', { tools: { command: process.execPath, args: [FIXTURE], env: { CALLS_FILE: callsFile } } }, vscode.ConfigurationTarget.Global);
    await config().update('rules', USER_RULES, vscode.ConfigurationTarget.Global);
    await config().update('rules', WORKSPACE_RULES, vscode.ConfigurationTarget.Workspace);
    await until('the rule-tools server to list its tools', () => api.pool.get('tools')?.state.kind === 'running' && api.pool.get('tools')!.tools.length === 4);
    api.pipeline.grants.clear();
  });
  after(async () => {
    api.pipeline.grants.clear();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await config().update('rules', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('rules', undefined, vscode.ConfigurationTarget.Global);
    await config().update('servers', undefined, vscode.ConfigurationTarget.Global);
  });

  it('lists the user and workspace rules with their effect, scope and source; a workspace allow shows as a problem', async () => {
    await until('the rules read', () => rows('user').length === 4);
    assert.deepEqual(children().map((n) => n.kind === 'group' && n.group), ['problems', 'policy', 'user', 'workspace', 'grants']);
    assert.deepEqual(rows('user').map((r) => [r.item.label, r.item.description, r.item.contextValue]), [
      ['no env files', 'tools/write_* · 1 condition', 'mcpRule;user;'],
      ['project files', 'tools/write_file · 1 condition', 'mcpRule;user;'],
      ['queries', 'tools/run_query · 1 condition', 'mcpRule;user;'],
      ['old rule', 'tools/read_file · no conditions', 'mcpRule;user;'],
    ]);
    assert.deepEqual(rows('user').map((r) => (r.item.iconPath as vscode.ThemeIcon).id), ['circle-slash', 'pass', 'question', 'question']);
    const deny = text(rows('user')[0].item.tooltip);
    assert.match(deny, /no env files: denies/);
    assert.match(deny, /Source: user settings/);
    assert.match(deny, /Reason: secrets live there/);
    assert.match(deny, /"glob": "\/\*\*\/\*\.env"/, 'the rule as JSON');
    assert.deepEqual(rows('workspace').map((r) => [r.item.label, r.item.description, r.item.contextValue]), [['never main', 'tools/delete_branch · 1 condition', 'mcpRule;workspace;']]);
    assert.match(text(rows('workspace')[0].item.tooltip), /Source: workspace settings/);
    const problems = rows('problems');
    assert.equal(problems.length, 1);
    assert.equal(problems[0].item.label, "rule 'sneaky' (workspace settings)");
    assert.match(text(problems[0].item.tooltip), /a workspace may only add "ask" and "deny" rules/);
    assert.equal(problems[0].item.contextValue, 'mcpRuleProblem;');
    assert.match(String(item(group('policy')).description), /set by your administrator · read-only · none/);
  });

  it('a policy rule says the administrator set it, and offers neither Edit nor Delete', async () => {
    const policy = new RuleSet(() => [{ scope: 'policy', source: 'policy file /etc/mcp-tool-host/rules.json', raw: [{ name: 'no prod', server: '*', tool: '*', when: [{ pointer: '/env', equals: 'prod' }], effect: 'deny' }, { name: 'x ``` ![a](https://evil.example/a.png)', server: '*', tool: '*', effect: 'ask' }] }]);
    const tree = new RulesTree({ ruleSet: policy, pool: api.pool, pipeline: api.pipeline, workspaceState: { get: () => undefined, keys: () => [], update: async () => undefined }, showReadOnly: async () => undefined });
    const [node] = tree.getChildren({ kind: 'group', group: 'policy' });
    const row = tree.getTreeItem(node);
    assert.equal(row.contextValue, 'mcpRule;policy;', 'the menus offer Edit and Delete for user and workspace rules only');
    assert.match(text(row.tooltip), /Your administrator set this rule: it cannot be edited or deleted here\./);
    assert.match(text(row.tooltip), /Source: policy file \/etc\/mcp-tool-host\/rules\.json/);
    // A name cannot close the JSON's code fence and slip markdown (a remote image) into the tooltip.
    const fenced = text(tree.getTreeItem(tree.getChildren({ kind: 'group', group: 'policy' })[1]).tooltip);
    assert.match(fenced, /^````json\n\{\n {2}"name": "x ``` !\[a\]/m);
    assert.match(fenced, /\n````\n$/);
    const seen: string[] = [];
    assert.equal(await deleteRule({ ruleSet: policy } as never, node, questions({ confirm: true }, seen)), false);
    assert.deepEqual(seen, [], 'not even asked');
  });

  it('Delete asks first, then removes the rule from its settings and the view; Edit writes the entry back where it was', async () => {
    const changed = new Promise<void>((resolve) => api.rulesView.onDidChangeTreeData!(() => resolve()));
    const old = () => rows('user').find((r) => r.item.label === 'old rule')!.node;
    const seen: string[] = [];
    assert.equal(await deleteRule({ ruleSet: api.ruleSet } as never, old(), questions({ confirm: false }, seen)), false);
    assert.deepEqual(seen, ['Delete rule "old rule" from user settings?']);
    assert.equal((config().inspect<unknown[]>('rules')?.globalValue ?? []).length, 4, 'declined: nothing written');
    assert.equal(await deleteRule({ ruleSet: api.ruleSet } as never, old(), questions({ confirm: true })), true);
    assert.deepEqual(config().inspect<unknown[]>('rules')?.globalValue, USER_RULES.slice(0, 3));
    await changed;
    await until('the row gone', () => rows('user').length === 3);

    const never = rows('workspace')[0].node;
    const asked: string[] = [];
    const edited = { ...WORKSPACE_RULES[0], when: [{ pointer: '/repo/branch', in: ['main', 'master', 'release'] }] };
    assert.equal(await editRule({ ruleSet: api.ruleSet } as never, never, questions({ json: JSON.stringify(edited) }, asked)), true);
    assert.equal(asked[0], 'Edit rule "never main" (workspace settings)');
    assert.deepEqual(JSON.parse(asked[1]), WORKSPACE_RULES[0], 'prefilled with the entry as written');
    assert.equal(asked[2], 'ok');
    assert.deepEqual(config().inspect<unknown[]>('rules')?.workspaceValue, [edited, WORKSPACE_RULES[1]], 'written to the same scope, in the same place');
    assert.equal(config().inspect<unknown[]>('rules')?.globalValue?.length, 3, 'the user settings untouched');
  });

  it('Edit refuses what would not parse: bad JSON, an allow in a workspace, a name taken', async () => {
    const never = () => rows('workspace')[0].node;
    for (const [json, problem] of [
      ['{"name": "x",', /^Not valid JSON: /],
      [JSON.stringify({ ...WORKSPACE_RULES[0], effect: 'allow' }), /a workspace may only add "ask" and "deny" rules/],
      [JSON.stringify({ ...WORKSPACE_RULES[0], name: 'sneaky' }), /Another rule in workspace settings is named "sneaky"/],
    ] as const) {
      const seen: string[] = [];
      assert.equal(await editRule({ ruleSet: api.ruleSet } as never, never(), questions({ json }, seen)), false);
      assert.match(seen[2], problem);
    }
    assert.equal(config().inspect<{ name: string }[]>('rules')?.workspaceValue?.[0].name, 'never main');
  });

  it('lists a grant (always / this session) and Revoke removes it', async () => {
    const connection = api.pool.get('tools')!;
    const tool = connection.tools.find((t) => t.name === 'read_file')!;
    api.pipeline.grants.add('tool-session', 'tools', launchKey(connection.definition.spec), 'read_file', pinTool(tool));
    await until('the grant row', () => rows('grants').length === 1);
    const [grant] = rows('grants');
    assert.deepEqual([grant.item.label, grant.item.description, grant.item.contextValue], ['read_file', 'tools · this session', 'mcpGrant;']);
    await vscode.commands.executeCommand('mcpToolHost.rules.revoke', grant.node);
    assert.deepEqual(api.pipeline.grants.all, []);
    await until('the grant row gone', () => rows('grants').length === 0);
  });

  it('What Would Happen gives the sentence of pipeline.forecast for a deny, an allow and an ask, and calls nothing', async () => {
    const cases = [
      { tool: 'write_file', args: { path: path.join(folder, 'prod.env') }, kind: 'denied', sentence: /^denied by rule 'no env files' \(user settings\): secrets live there/, says: 'It is denied: nothing is sent, and no one is asked.' },
      { tool: 'write_file', args: { path: path.join(folder, 'src/a.ts') }, kind: 'runs', sentence: /^allowed by rule 'project files' \(user settings\)/, says: 'It runs without asking.' },
      { tool: 'delete_branch', args: { repo: { branch: 'release' } }, kind: 'denied', sentence: /^denied by rule 'never main' \(workspace settings\)/, says: 'It is denied' },
      { tool: 'run_query', args: { sql: 'select * from notes' }, kind: 'asks', sentence: /^asks: needs approval by rule 'queries' \(user settings\): check the SQL; /, says: "No \"always allow\" is offered: a grant would not outweigh this." },
      { tool: 'write_file', args: { path: '/tmp/elsewhere.txt' }, kind: 'asks', sentence: /^asks: /, says: 'It asks you first. The approval prompt gives these reasons:\n- ' },
      // The extension host reads /proc/self/root as its own root, the server as its own: the allow 'project files'
      // cannot tell (it allowed this before), and the deny on the same argument applies, saying why.
      { tool: 'write_file', args: { path: `/proc/self/root${folder}/src/a.ts` }, kind: 'denied', sentence: /^denied by rule 'no env files' \(user settings\): secrets live there; \/path names ".*", whose meaning depends on the process that opens it \("\/proc\/self"\): the server opens it in its own process, so no rule can judge it, and a rule that restricts applies when it cannot tell/, says: 'It is denied' },
      // A list is read value by value: one value that matches is enough for a deny.
      { tool: 'delete_branch', args: { repo: { branch: ['dev', 'main'] } }, kind: 'denied', sentence: /^denied by rule 'never main' \(workspace settings\): \/repo\/branch is a list, and its value 1 \("main"\) matches/, says: 'It is denied' },
    ];
    for (const c of cases) {
      const request = { server: 'tools', tool: c.tool, args: c.args };
      const answer = await vscode.commands.executeCommand<{ kind: string; sentence: string }>('mcpToolHost.whatWouldHappen', request);
      assert.deepEqual(answer, api.pipeline.forecast(request));
      assert.equal(answer.kind, c.kind, JSON.stringify(answer));
      assert.match(answer.sentence, c.sentence);
      const shown = vscode.window.activeTextEditor!.document;
      assert.equal(shown.uri.scheme, 'mcp-tool-host-view', 'a read-only document');
      assert.ok(shown.getText().includes(c.says), shown.getText());
      assert.ok(shown.getText().includes(`Why: ${answer.sentence}`), shown.getText());
    }
    assert.deepEqual(calls(), [], 'the server received no call');
  });

  it('from a Tools view row it asks for the arguments as JSON (prefilled {}), and says when they do not fit the schema', async () => {
    const server = api.tree.getChildren().find((n) => n.kind === 'server' && n.server === 'tools')!;
    const row = api.tree.getChildren(server).find((n) => n.kind === 'tool' && n.tool === 'run_query')!;
    const pending = Promise.resolve(vscode.commands.executeCommand<{ kind: string; reasons?: string[] }>('mcpToolHost.whatWouldHappen', row));
    let settled = false;
    void pending.finally(() => (settled = true));
    // Accept the input box as it is once it shows.
    await until('the input box answered', async () => (settled || (await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem')), settled), 10_000);
    const answer = await pending;
    assert.equal(answer.kind, 'asks', 'run_query is destructive: it asks');
    const doc = vscode.window.activeTextEditor!.document.getText();
    assert.match(doc, /Arguments: \{\}/);
    assert.match(doc, /these arguments do not fit the tool's schema, so the call would stop before any approval:\n- .*sql/);
    assert.deepEqual(calls(), []);
  });

  it('shows server-sent names sanitised', () => {
    const text = answerText('ev\u202eil', 'to\u001b[31mol', { a: 'x\u200by' }, { kind: 'unknown', sentence: 'no\u202etool' }, []);
    // eslint-disable-next-line no-control-regex -- the escape character is what must not be there
    assert.doesNotMatch(text, /[\u202e\u001b\u200b]/);
    assert.match(text, /Arguments: \{"a":"x\\u200By"\}/, 'an invisible character in the arguments is shown as its escape');
  });

  it('registers its commands', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    for (const c of ['whatWouldHappen', 'rules.add', 'rules.edit', 'rules.delete', 'rules.revoke', 'rules.openSettingsJson', 'rules.refresh']) assert.ok(all.has(`mcpToolHost.${c}`), c);
  });
});
