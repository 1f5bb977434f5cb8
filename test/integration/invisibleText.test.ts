import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileAuditLog } from '../../src/core/calls/fileAuditLog';
import type { ApprovalDecision } from '../../src/core/calls/ports';
import { FIXTURES, makeHost, node } from './helpers';
import { CLI, runCli, runOnTerminal } from './cliRun';

// Issue 31, "The screen and the disk": names and arguments that hide characters, met where a user
// meets them (the CLI in a terminal, the pipeline's lines for the output channel, the audit log),
// with a real server (fixtures/servers/invisible-names.cjs). The approval prompt shows such
// characters as escapes; these places must too.

/** Characters that must never reach the screen raw. */
// eslint-disable-next-line no-control-regex -- these are the characters, by code point
const HIDDEN = /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{E0000}-\u{E007F}]/u;
const SERVER = path.join(FIXTURES, 'invisible-names.cjs');
/** The fixture's tool names as a reader must see them: each different. */
const NAMES_SHOWN = ['read_file', 'read\\u200B_file', 'read_\\u00ADfile', 'read_file\\u034F', '\\u202Eelif_daer', 'echo'];

describe('names and arguments that hide characters (issue 31)', function () {
  this.timeout(60_000);
  let dir: string;
  const env = () => ({ ...process.env, XDG_STATE_HOME: dir });

  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is missing: run `node esbuild.mjs` first');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-invisible-'));
    fs.writeFileSync(path.join(dir, 'servers.json'), JSON.stringify({ servers: { inv: node(SERVER) } }));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('CLI `tools`: names that differ only by invisible or direction characters are listed as escapes, each different', async () => {
    const run = await runCli(['tools', '--config', 'servers.json'], { cwd: dir, env: env() });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stdout, HIDDEN);
    const listed = run.stdout.split('\n').filter((l) => l.startsWith('  ')).map((l) => l.trim().split(/\s+/)[0]);
    assert.deepEqual(listed, NAMES_SHOWN);
  });

  it('CLI `tools --json`: the same names to a parser, every hidden character written as its escape', async () => {
    const run = await runCli(['tools', '--config', 'servers.json', '--json'], { cwd: dir, env: env() });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stdout, HIDDEN);
    const [server] = JSON.parse(run.stdout) as { tools: { name: string }[] }[];
    assert.deepEqual(server.tools.map((t) => t.name), ['read_file', 'read\u200b_file', 'read_\u00adfile', 'read_file\u034f', '\u202eelif_daer', 'echo']);
  });

  it('CLI `call` on a terminal: the y/N question shows the arguments as the approval prompt does', async () => {
    const args = JSON.stringify({ path: 'notes/\u202etxt.exe', note: 'a\u200bb' });
    const run = await runOnTerminal(['call', 'inv', 'echo', '--args', args, '--config', 'servers.json'], ['n'], { cwd: dir, env: env() });
    assert.equal(run.code, 3, run.output);
    assert.match(run.output, /Arguments: \{"path":"notes\/\\u202Etxt\.exe","note":"a\\u200Bb"\}/);
    assert.doesNotMatch(run.output.replace(/\r/g, ''), HIDDEN); // the terminal's own line ends aside
  });

  it('CLI: a tool it does not have is named, with its tools, as escapes', async () => {
    const run = await runCli(['call', 'inv', 'read\u2060_file', '--config', 'servers.json'], { cwd: dir, env: env() });
    assert.equal(run.code, 2, run.stderr);
    assert.doesNotMatch(run.stderr, HIDDEN);
    assert.match(run.stderr, /no tool named "read\\u2060_file"\. Its tools: read_file, read\\u200B_file, read_\\u00ADfile, read_file\\u034F, \\u202Eelif_daer, echo\./);
  });

  it("the pipeline: the call's header, edited arguments and audit record show hidden characters as escapes", async () => {
    const audit = path.join(dir, 'audit.jsonl');
    const answers: ApprovalDecision[] = [{ kind: 'edit', args: { path: 'x\u202ey', clear: '\u001b[2J' } }, 'allow-once'];
    const host = makeHost({ inv: node(SERVER) }, 'deny', { answer: () => answers.shift() ?? 'deny', audit: new FileAuditLog(audit) });
    try {
      await host.pool.get('inv')!.start();
      const outcome = await host.pipeline.call({ server: 'inv', tool: 'read\u200b_file', args: { path: 'a' }, origin: 'palette' });
      assert.equal(outcome.kind, 'ok', JSON.stringify(outcome));
      await host.pipeline.call({ server: 'inv', tool: 'echo', args: {}, origin: 'palette' });
    } finally {
      await host.close();
    }
    assert.equal(host.events[0], 'begin inv/read\\u200B_file');
    assert.ok(host.events.includes('arguments (edited): {"path":"x\\u202Ey","clear":"\\u001b[2J"}'), host.events.join('\n'));
    for (const event of host.events) assert.doesNotMatch(event, HIDDEN);
    const text = fs.readFileSync(audit, 'utf8');
    assert.doesNotMatch(text, HIDDEN);
    assert.deepEqual(text.trim().split('\n').map((line) => (JSON.parse(line) as { tool: string }).tool), ['read\u200b_file', 'echo']);
  });
});
