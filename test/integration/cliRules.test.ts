import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FIXTURES, ROOT } from './helpers';
import { CLI, runCli, type CliRun } from './cliRun';


type Run = CliRun;

/**
 * Argument rules in the CLI (issue 16), with real child processes: the CLI, and a file server
 * (fixtures/servers/recorded-files.cjs) that writes nothing but records every call it receives,
 * so "nothing was sent" is read from the server's side.
 */
describe('argument rules in the CLI (node dist/cli.js, a server that records its calls)', function () {
  this.timeout(60_000);
  let dir: string;
  let project: string;
  let state: string;
  let calls: string;
  let note: string;
  let config: string;

  /** Runs the built CLI, stdin a pipe (not a terminal), with its own state folder and no policy file but `env`'s. */
  function cli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; config?: string } = {}): Promise<Run> {
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_STATE_HOME: state, ...options.env };
    if (options.env?.MCP_TOOL_HOST_POLICY_FILE === undefined) delete env.MCP_TOOL_HOST_POLICY_FILE;
    return runCli([...args, '--config', options.config ?? config], { cwd: options.cwd ?? dir, env });
  }
  /** A rules file in the test folder. */
  const rulesFile = (name: string, content: unknown) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  };
  /** The calls the server received since the last look (and forgets them). */
  const received = (): { tool: string; args: { path: string } }[] => {
    const text = fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8') : '';
    fs.rmSync(calls, { force: true });
    return text.trim() === '' ? [] : text.trim().split('\n').map((l) => JSON.parse(l) as { tool: string; args: { path: string } });
  };
  const lastAudit = (): { decision: string; outcome: string } => {
    const lines = fs.readFileSync(path.join(state, 'mcp-tool-host', 'audit.jsonl'), 'utf8').trim().split('\n');
    return JSON.parse(lines.at(-1)!) as { decision: string; outcome: string };
  };
  const write = (file: string) => ['call', 'files', 'write_file', '--args', JSON.stringify({ path: file })];
  const read = (file: string) => ['call', 'files', 'read_file', '--args', JSON.stringify({ path: file })];
  const projectAllow = () => rulesFile('project.json', [{ name: 'project files', server: 'files', tool: 'write_file', when: [{ pointer: '/path', under: project }], effect: 'allow' }]);

  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `node esbuild.mjs` first');
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-rules-')));
    project = path.join(dir, 'project');
    fs.mkdirSync(project);
    fs.mkdirSync(path.join(dir, 'outside'));
    fs.symlinkSync(path.join(dir, 'outside'), path.join(project, 'link'));
    calls = path.join(dir, 'calls.jsonl');
    note = path.join(dir, 'note.txt');
    config = path.join(dir, 'servers.json');
    fs.writeFileSync(config, JSON.stringify({ servers: { files: { command: process.execPath, args: [path.join(FIXTURES, 'recorded-files.cjs'), calls, note] } } }));
  });
  beforeEach(() => {
    // Each test starts without rule bindings or an audit log of earlier tests.
    state = fs.mkdtempSync(path.join(dir, 'state-'));
    fs.rmSync(note, { force: true });
    received();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a deny rule from --rules ends the call before it is sent, --yes or not: exit 3, the rule\'s sentence on stderr and in the audit log', async () => {
    const strict = rulesFile('strict.json', { rules: [{ name: 'no env files', server: 'files', tool: 'write_*', when: [{ pointer: '/path', glob: '/**/*.env' }], effect: 'deny', reason: 'secrets stay put' }] });
    const sentence = "denied by rule 'no env files' (rules file strict.json): secrets stay put [destructive · idempotent]";
    for (const yes of [[], ['--yes']]) {
      const denied = await cli([...write(path.join(project, '.env')), '--rules', strict, ...yes]);
      assert.equal(denied.code, 3, denied.stderr);
      assert.equal(denied.stderr, `not sent: ${sentence}\n`);
      assert.deepEqual(received(), [], 'the server received nothing');
      assert.deepEqual(lastAudit(), { ...lastAudit(), decision: sentence, outcome: 'denied' });
    }
    const json = await cli([...write(path.join(project, '.env')), '--rules', strict, '--yes', '--json']);
    assert.equal(json.code, 3);
    assert.deepEqual(JSON.parse(json.stdout), { server: 'files', tool: 'write_file', outcome: 'denied', exitCode: 3, message: `not sent: ${sentence}` });
    // The same rules let another file through (with --yes, as the tool is destructive): the server does record calls.
    const other = await cli([...write(path.join(project, 'a.txt')), '--rules', strict, '--yes']);
    assert.equal(other.code, 0, other.stderr);
    assert.deepEqual(received(), [{ tool: 'write_file', args: { path: path.join(project, 'a.txt') } }]);
  });

  it('an allow rule runs a destructive call without --yes off a terminal, only under its folder (no .., no symlink out)', async () => {
    const allow = projectAllow();
    const inside = await cli([...write(path.join(project, 'notes.txt')), '--rules', allow]);
    assert.equal(inside.code, 0, inside.stderr);
    assert.equal(inside.stdout, `write_file ${path.join(project, 'notes.txt')}\n`);
    assert.equal(lastAudit().decision, "allowed by rule 'project files' (rules file project.json) [destructive · idempotent]");
    assert.equal(received().length, 1);
    const slash = rulesFile('slash-project.json', [{ name: 'slash project', server: 'files', tool: 'write_file', when: [{ pointer: '/path', under: '/project' }], effect: 'allow' }]);
    for (const [file, rules] of [[`${project}/../outside/x.txt`, allow], [path.join(project, 'link', 'x.txt'), allow], ['/project/../etc/passwd', slash]]) {
      const out = await cli([...write(file), '--rules', rules]);
      assert.equal(out.code, 3, `${file}: ${out.stderr}`);
      assert.match(out.stderr, /^not sent: denied, approval required: write_file may change or delete data \(destructive\): approve it with --yes/, file);
      assert.deepEqual(received(), [], `${file} is not under the rule's folder`);
    }
  });

  it('an ask rule asks: refused off a terminal like any ask, answered by --yes', async () => {
    const ask = rulesFile('ask.json', [{ name: 'reads ask', server: 'files', tool: 'read_file', effect: 'ask', reason: 'reads are audited' }]);
    const refused = await cli([...read(path.join(project, 'a.txt')), '--rules', ask]);
    assert.equal(refused.code, 3);
    assert.equal(refused.stderr, "not sent: denied, approval required: read_file needs approval by rule 'reads ask' (rules file ask.json): reads are audited: approve it with --yes, or run on a terminal to be asked.\n");
    assert.deepEqual(received(), []);
    const answered = await cli([...read(path.join(project, 'a.txt')), '--rules', ask, '--yes']);
    assert.equal(answered.code, 0, answered.stderr);
    assert.equal(received().length, 1);
    // Without the rule the read-only tool runs unasked: the rule made the difference.
    assert.equal((await cli(read(path.join(project, 'a.txt')))).code, 0);
    assert.equal(received().length, 1);
  });

  it('a policy file\'s deny beats the user\'s allow (and --yes); a broken policy file makes every call ask, and no server start', async () => {
    const policy = path.join(dir, 'policy.json');
    fs.writeFileSync(policy, JSON.stringify([{ name: 'frozen', server: 'files', tool: '*', when: [{ pointer: '/path', under: project }], effect: 'deny', reason: 'the project is frozen' }]));
    const env = { MCP_TOOL_HOST_POLICY_FILE: policy };
    const denied = await cli([...write(path.join(project, 'notes.txt')), '--rules', projectAllow(), '--yes'], { env });
    assert.equal(denied.code, 3);
    assert.equal(denied.stderr, `not sent: denied by policy rule 'frozen' (policy file ${policy}): the project is frozen; it outweighs rule 'project files' (rules file project.json) [destructive · idempotent]\n`);
    assert.deepEqual(received(), []);
    fs.writeFileSync(policy, '[{"name": "frozen",');
    const broken = await cli(read(path.join(dir, 'outside', 'a.txt')), { env });
    // It may hold the administrator's allowlist of servers too, so no server starts until it is fixed (exit 4, saying so).
    assert.equal(broken.code, 4);
    assert.match(broken.stderr, new RegExp(`^rules: warning: The rules file ${policy.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON \\(.*\\)\\. Every call asks until it is fixed\\.\n`));
    assert.match(broken.stderr, /did not start: .*policy\.json is not valid JSON\. It is the administrator's policy, so whether this server may run is not known/);
    assert.deepEqual(received(), []);
  });

  it('a workspace\'s .vscode/settings.json may add asks and denies, never allows (refused with a message)', async () => {
    const workspace = path.join(dir, 'workspace');
    fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
    fs.writeFileSync(
      path.join(workspace, '.vscode', 'settings.json'),
      `{
  // a repository's settings (JSON with comments)
  "editor.tabSize": 2,
  "mcpToolHost.rules": [
    { "name": "anything goes", "server": "*", "tool": "*", "effect": "allow" },
    { "name": "private", "server": "files", "tool": "read_file", "when": [{ "pointer": "/path", "under": "\${workspaceFolder}/private" }], "effect": "deny" },
  ],
}`,
    );
    const refused = await cli(write(path.join(workspace, 'a.txt')), { cwd: workspace });
    assert.equal(refused.code, 3);
    assert.match(refused.stderr, /^rules: warning: Rule 'anything goes' \(workspace settings\): "effect" is "allow", but a workspace may only add "ask" and "deny" rules; put allow rules in your user settings\.\n/);
    assert.match(refused.stderr, /not sent: denied, approval required: write_file may change/);
    const denied = await cli([...read(path.join(workspace, 'private', 'key')), '--yes'], { cwd: workspace });
    assert.equal(denied.code, 3);
    assert.match(denied.stderr, /\nnot sent: denied by rule 'private' \(workspace settings\) \[read-only\]\n$/);
    assert.deepEqual(received(), []);
    // From another folder that workspace's rules do not apply.
    assert.equal((await cli(read(path.join(workspace, 'private', 'key')))).code, 0);
    assert.equal(received().length, 1);
  });

  it('a rules file that cannot be used stops the command with exit 2, naming file, rule and field: nothing starts or is sent', async () => {
    const good = projectAllow();
    const cases: [string, RegExp][] = [
      [path.join(dir, 'missing.json'), /The rules file .*missing\.json could not be read \(ENOENT\)\./],
      [rulesFile('bad.json', '[{"name": "x",]'), /The rules file .*bad\.json is not valid JSON/],
      [rulesFile('object.json', { name: 'x' }), /The rules in rules file object\.json must be a list \(\[\.\.\.\]\) of rules, not an object\./],
      [rulesFile('relative.json', [{ name: 'src only', server: 'files', tool: 'write_file', when: [{ pointer: '/path', under: 'src' }], effect: 'allow' }]), /Rule 'src only' \(rules file relative\.json\): "when\[0\]\.under" must be absolute/],
      [rulesFile('effect.json', [{ name: 'typo', server: 'files', tool: 'write_file', effect: 'alow' }]), /Rule 'typo' \(rules file effect\.json\): "effect"/],
    ];
    for (const [file, message] of cases) {
      for (const command of [write(path.join(project, 'a.txt')), ['explain', 'files', 'write_file']]) {
        const out = await cli([...command, '--rules', good, '--rules', file, '--yes']);
        assert.equal(out.code, 2, `${file}: ${out.stderr}`);
        assert.match(out.stderr, /^Rules not read, nothing was started or sent:\n {2}/);
        assert.match(out.stderr, message);
        assert.equal(out.stdout, '');
      }
    }
    assert.deepEqual(received(), []);
    assert.ok(!fs.existsSync(path.join(state, 'mcp-tool-host', 'audit.jsonl')), 'no call was even begun');
    const misplaced = await cli(['tools', 'files', '--rules', good]);
    assert.equal(misplaced.code, 2);
    assert.match(misplaced.stderr, /^--rules is for call and explain, not tools\./);
  });

  it('an allow rule is bound to the tool definition it allowed: changed between runs, the call asks until approved again', async () => {
    const allow = projectAllow();
    const file = path.join(project, 'notes.txt');
    assert.equal((await cli([...write(file), '--rules', allow])).code, 0);
    const bindings = fs.readFileSync(path.join(state, 'mcp-tool-host', 'rule-bindings.json'), 'utf8');
    assert.ok(!bindings.includes(project), 'the bindings file names no rule folder or argument');
    fs.writeFileSync(note, 'Also uploads it to a pastebin.');
    const changed = await cli([...write(file), '--rules', allow]);
    assert.equal(changed.code, 3);
    assert.equal(changed.stderr, "not sent: denied, approval required: write_file needs approval: the tool's definition changed (description) since rule 'project files' (rules file project.json) last allowed it and may change or delete data (destructive): approve it with --yes, or run on a terminal to be asked.\n");
    const explained = await cli(['explain', 'files', 'write_file', '--args', JSON.stringify({ path: file }), '--rules', allow]);
    assert.match(explained.stdout, /^files\/write_file would ask first \(--yes to allow\): needs approval: the tool's definition changed \(description\)/);
    assert.equal(received().length, 1, 'only the first run reached the server');
    // Approving the changed tool binds the rule to it again: the next run is silent.
    assert.equal((await cli([...write(file), '--rules', allow, '--yes'])).code, 0);
    const again = await cli([...write(file), '--rules', allow]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(received().length, 2);
  });

  it('/proc/self/cwd means the server\'s folder to the server: explain and call never let an allow of the CLI\'s folder run it, and say why', async () => {
    // The CLI runs in dir; the server (cwd: project) opens /proc/self/cwd/notes.txt as project/notes.txt.
    const own = path.join(dir, 'server-in-project.json');
    fs.writeFileSync(own, JSON.stringify({ servers: { files: { command: process.execPath, args: [path.join(FIXTURES, 'recorded-files.cjs'), calls, note], cwd: project } } }));
    const here = rulesFile('here.json', [{ name: 'cli folder', server: 'files', tool: 'write_file', when: [{ pointer: '/path', under: dir }], effect: 'allow' }]);
    const args = ['--args', JSON.stringify({ path: '/proc/self/cwd/notes.txt' }), '--rules', here];
    const why = 'rule \'cli folder\' (rules file here.json) does not allow it: /path names "/proc/self/cwd/notes.txt", whose meaning depends on the process that opens it ("/proc/self"): the server opens it in its own process, so no rule can judge it';
    const explained = await cli(['explain', 'files', 'write_file', ...args], { config: own });
    assert.equal(explained.code, 0, explained.stderr);
    assert.equal(explained.stdout, `files/write_file would ask first (--yes to allow): may change or delete data (destructive); ${why} [destructive · idempotent]\n`);
    const called = await cli(['call', 'files', 'write_file', ...args], { config: own });
    assert.equal(called.code, 3, called.stderr);
    assert.equal(called.stderr, `not sent: denied, approval required: write_file may change or delete data (destructive) and ${why}: approve it with --yes, or run on a terminal to be asked.\n`);
    assert.deepEqual(received(), []);
    // A deny under the server's folder holds, --yes or not.
    const deny = rulesFile('server-folder.json', [{ name: 'server folder', server: 'files', tool: '*', when: [{ pointer: '/path', under: project }], effect: 'deny' }]);
    const denied = await cli(['call', 'files', 'write_file', '--args', JSON.stringify({ path: '/proc/self/cwd/notes.txt' }), '--rules', deny, '--yes'], { config: own });
    assert.equal(denied.code, 3, denied.stderr);
    assert.match(denied.stderr, /^not sent: denied by rule 'server folder' \(rules file server-folder\.json\): \/path names "\/proc\/self\/cwd\/notes\.txt", whose meaning depends on the process that opens it/);
    assert.deepEqual(received(), []);
  });

  it('attacker: a relative path to server-filesystem (which reads it from the folder it was given, not its own) passes neither a deny nor an allow on a folder', async () => {
    const root = path.join(dir, 'fsroot');
    fs.mkdirSync(path.join(root, 'secret'), { recursive: true });
    fs.writeFileSync(path.join(root, 'secret', '.env'), 'TOKEN=s3cret');
    const own = path.join(dir, 'fs.json');
    fs.writeFileSync(own, JSON.stringify({ servers: { fs: { command: process.execPath, args: [path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), root] } } }));
    const deny = rulesFile('fs-deny.json', [{ name: 'no secrets', server: 'fs', tool: '*', when: [{ pointer: '/path', under: path.join(root, 'secret') }], effect: 'deny' }]);
    // The CLI runs in `dir` (the server's own folder): from there "secret/.env" is not under the rule's folder, from the server's root it is.
    const explained = await cli(['explain', 'fs', 'read_text_file', '--args', JSON.stringify({ path: 'secret/.env' }), '--rules', deny], { config: own });
    assert.match(explained.stdout, /would not be sent: denied by rule .no secrets./);
    assert.match(explained.stdout, /is a relative path, which reaches .* depending on the folder the server reads it from/);
    const denied = await cli(['call', 'fs', 'read_text_file', '--args', JSON.stringify({ path: 'secret/.env' }), '--rules', deny, '--yes'], { config: own });
    assert.equal(denied.code, 3, denied.stderr);
    assert.doesNotMatch(denied.stdout, /s3cret/);
    // An allow for the server's own folder (the CLI run in `project`) does not let a relative write through: it asks (and off a terminal, is not run).
    const allow = rulesFile('fs-allow.json', [{ name: 'here', server: 'fs', tool: 'write_file', when: [{ pointer: '/path', under: project }], effect: 'allow' }]);
    const asked = await cli(['call', 'fs', 'write_file', '--args', JSON.stringify({ path: 'notes-outside.txt', content: 'x' }), '--rules', allow], { config: own, cwd: project });
    assert.equal(asked.code, 3, asked.stderr);
    assert.ok(!fs.existsSync(path.join(root, 'notes-outside.txt')), 'written without asking');
    // Absolute paths are judged as before.
    const absolute = await cli(['call', 'fs', 'read_text_file', '--args', JSON.stringify({ path: path.join(root, 'secret', '.env') }), '--rules', deny, '--yes'], { config: own });
    assert.equal(absolute.code, 3, absolute.stderr);
  });

  it('explain says what a call would meet, and why, without calling it (exit 0)', async () => {
    const rules = rulesFile('mixed.json', [
      { name: 'no env files', server: 'files', tool: 'write_file', when: [{ pointer: '/path', glob: '/**/*.env' }], effect: 'deny' },
      { name: 'project files', server: 'files', tool: 'write_file', when: [{ pointer: '/path', under: project }], effect: 'allow' },
    ]);
    const explain = (tool: string, file: string, ...more: string[]) => cli(['explain', 'files', tool, '--args', JSON.stringify({ path: file }), '--rules', rules, ...more]);
    const denied = await explain('write_file', path.join(project, '.env'));
    assert.equal(denied.code, 0, denied.stderr);
    assert.equal(denied.stdout, "files/write_file would not be sent: denied by rule 'no env files' (rules file mixed.json): it outweighs rule 'project files' (rules file mixed.json) [destructive · idempotent]\n");
    assert.equal((await explain('write_file', path.join(project, 'a.txt'))).stdout, "files/write_file would run: allowed by rule 'project files' (rules file mixed.json) [destructive · idempotent]\n");
    assert.equal((await explain('write_file', path.join(dir, 'outside', 'a.txt'))).stdout, 'files/write_file would ask first (--yes to allow): may change or delete data (destructive) [destructive · idempotent]\n');
    // Arguments the schema refuses are what `call` would stop at first: so does explain.
    const invalid = await cli(['explain', 'files', 'write_file', '--args', JSON.stringify({ path: 1 }), '--rules', rules]);
    assert.match(invalid.stdout, /^files\/write_file would not be sent: the arguments do not match the tool's input schema: \/path: /);
    assert.equal((await explain('read_file', path.join(project, '.env'))).stdout, 'files/read_file would run: not needed [read-only]\n');
    const json = await explain('write_file', path.join(project, '.env'), '--json');
    assert.deepEqual(JSON.parse(json.stdout), { server: 'files', tool: 'write_file', forecast: 'denied', sentence: "denied by rule 'no env files' (rules file mixed.json): it outweighs rule 'project files' (rules file mixed.json) [destructive · idempotent]" });
    assert.deepEqual(received(), [], 'explain calls nothing');
    assert.ok(!fs.existsSync(path.join(state, 'mcp-tool-host', 'rule-bindings.json')), 'nor binds a rule');
    const unknown = await cli(['explain', 'files', 'delete_file']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Server "files" has no tool named "delete_file"\. Its tools: write_file, read_file\./);
  });
});
