import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { resolveLaunch } from '../../src/core/config/launch';
import { parseServers } from '../../src/core/config/serverConfig';
import { ServerPool } from '../../src/core/connection/serverPool';
import { CallPipeline, summarize } from '../../src/core/calls/callPipeline';
import type { AuditRecord } from '../../src/core/calls/ports';
import { SchemaValidator } from '../../src/core/tools/schemaValidator';
import { doctorServer, formatDoctorReport } from '../../src/core/connection/serverDoctor';
import { newResourceOffers } from '../../src/core/offers/later';
import { FIXTURES, ROOT, until } from './helpers';

describe('secrets never appear in any output (a server that tries to leak them)', function () {
  const SECRET = 'sk-live-7f3a9c2e41b8';
  const everything: string[] = [];
  const record = (...parts: unknown[]) => everything.push(parts.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))).join(' '));
  const pool = new ServerPool(() => ({
    validator: new SchemaValidator(),
    clientVersion: 'test',
    log: { info: (m) => record('info', m), warn: (m) => record('warn', m), error: (m) => record('error', m), stderr: (m) => record('stderr', m) },
    confirmLaunch: async (_def, shown) => (record('confirm', shown), true),
    resolveLaunch: async (d) => resolveLaunch(d, { workspaceFolders: [{ name: 'root', path: ROOT }], env: process.env, inputs: { token: SECRET } }),
  }));
  const audit: AuditRecord[] = [];
  const pipeline = new CallPipeline(pool, new SchemaValidator(), { approve: async (r) => (record('approval', r.args), 'allow-once') }, {
    begin: (h) => record('begin', h),
    line: (_id, t) => record('line', t),
    progress: (_id, p) => record('progress', p),
    end: (_id, s) => void record('end', s.join('')),
  }, { audit: { append: (r) => audit.push(r) } });

  before(async () => {
    const servers = parseServers({ leaky: { command: process.execPath, args: [path.join(FIXTURES, 'leaky.cjs'), '--token=${input:token}'], env: { API_TOKEN: '${input:token}' } } }, 'workspace');
    pool.apply(servers, { autoStart: false });
    await pool.get('leaky')!.start();
    record('state', pool.get('leaky')!.state, pool.get('leaky')!.launchLine);
  });
  after(async () => {
    await pool.stopAll();
    pool.dispose();
  });

  it('the server really received the secret (the test is not vacuous)', async () => {
    const outcome = await pipeline.call({ server: 'leaky', tool: 'leak', args: {}, origin: 'api' });
    assert.ok(outcome.kind === 'ok' && outcome.result.text === 'your token: ••••••, arg: ••••••', JSON.stringify(outcome));
    record('outcome', outcome, summarize(outcome));
  });

  it("the raw result kept for a tool's interface (MCP Apps) is masked too", async () => {
    const outcome = await pipeline.call({ server: 'leaky', tool: 'leak', args: {}, origin: 'app', keepRaw: true });
    assert.ok(outcome.kind === 'ok' && outcome.raw, JSON.stringify(outcome));
    assert.deepEqual(outcome.kind === 'ok' && (outcome.raw as { content?: unknown } | undefined)?.content, [{ type: 'text', text: 'your token: ••••••, arg: ••••••' }]);
    record('outcome', outcome, summarize(outcome));
  });

  it('errors that quote the secret are masked too', async () => {
    const outcome = await pipeline.call({ server: 'leaky', tool: 'leak_error', args: {}, origin: 'api' });
    assert.ok(outcome.kind === 'protocol-error' && outcome.message.includes('••••••'), JSON.stringify(outcome));
    record('outcome', outcome, summarize(outcome));
  });

  it('a resource a result links to is read as every resource is: masked and audited', async () => {
    const offers = newResourceOffers({ pool, pipeline, audit: { append: (r) => audit.push(r) } });
    const read = await offers.read({ server: 'leaky', uri: 'note://token', origin: 'tree' });
    record('resource', read);
    assert.ok(read.kind === 'ok' && read.parts[0].kind === 'text' && read.parts[0].text === 'the token is ••••••', JSON.stringify(read));
    const last = audit.at(-1)!;
    assert.deepEqual([last.tool, last.origin, last.outcome], ['resources/read', 'tree', 'ok']);
    const none = await offers.read({ server: 'leaky', uri: 'note://none', origin: 'tree' });
    record('resource', none);
    assert.equal(none.kind, 'failed');
    offers.dispose();
  });

  it('a tool\'s title and description, and schema problems quoting its pattern, are masked', async () => {
    const tool = pool.get('leaky')!.tools.find((t) => t.name === 'leak_schema')!;
    assert.deepEqual([tool.title, tool.description], ['Key ••••••', 'Needs •••••• to work.']);
    const outcome = await pipeline.call({ server: 'leaky', tool: 'leak_schema', args: { key: 'guess' }, origin: 'api' });
    record('outcome', outcome, summarize(outcome));
    assert.ok(outcome.kind === 'invalid-arguments' && outcome.problems[0].message === 'must match the pattern ^••••••$', JSON.stringify(outcome));
  });

  it('a result so long it comes in pieces is masked, even where a cut between pieces splits the secret', async () => {
    const ended: string[] = [];
    const piecesPipeline = new CallPipeline(pool, new SchemaValidator(), { approve: async () => 'allow-once' }, {
      begin: () => undefined,
      line: () => undefined,
      progress: () => undefined,
      end: (_id, s) => void ended.push(s.join('')),
    });
    const outcome = await piecesPipeline.call({ server: 'leaky', tool: 'leak_long', args: {}, origin: 'api' });
    assert.ok(outcome.kind === 'ok', outcome.kind);
    const text = outcome.kind === 'ok' ? outcome.result.text : '';
    assert.ok(text.length > 17 << 20, 'the whole result came');
    assert.equal(text.slice((1 << 20) - 8, (1 << 20) + 4), 'xxx••••••yyy', 'masked where it was cut');
    assert.ok(!text.includes(SECRET) && !ended[0].includes(SECRET) && ended[0].includes('xxx••••••yyy'), 'neither the result nor the output has it');
  });

  it('a secret split by an invisible character is masked once the character is gone', () => {
    assert.ok(everything.some((l) => l === 'stderr split •••••• joined'), everything.filter((l) => l.includes('split')).join('\n'));
  });

  it('the doctor report shows the launch line, the secret masked', async () => {
    const report = await doctorServer(pool.get('leaky')!, { resolveLaunch: (d) => resolveLaunch(d, { workspaceFolders: [{ name: 'root', path: ROOT }], env: process.env, inputs: { token: SECRET } }) });
    record('doctor', report, formatDoctorReport(report));
    assert.match(report.launch ?? '', /--token=••••••/);
  });

  it('a server that dies quoting the secret leaves an error state without it', async () => {
    await pipeline.call({ server: 'leaky', tool: 'leak_crash', args: {}, origin: 'api' });
    await until('crashed', () => pool.get('leaky')!.state.kind === 'error');
    const state = pool.get('leaky')!.state;
    record('state after crash', state, pool.get('leaky')!.facts);
    assert.ok(JSON.stringify(state).includes('••••••') || JSON.stringify(pool.get('leaky')!.facts).includes('fatal: token •••••• was refused'), JSON.stringify(state));
  });

  it('no log line, prompt, sink line, state, outcome or audit record contains it', async () => {
    await new Promise((r) => setTimeout(r, 200));
    record('audit', audit);
    assert.ok(everything.some((l) => l.startsWith('stderr starting with API_TOKEN=••••••')), 'stderr is logged, masked');
    assert.ok(everything.some((l) => l.includes('the token is ••••••')), 'log notifications are masked');
    assert.ok(everything.some((l) => l.includes('"message":"using ••••••"')), 'progress messages are masked');
    const leaks = everything.filter((l) => l.includes(SECRET));
    assert.deepEqual(leaks, []);
  });
});
