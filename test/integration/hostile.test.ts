import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { ApprovalRequest } from '../../src/core/calls/ports';
import { CallPipeline } from '../../src/core/calls/callPipeline';
import { parseServers } from '../../src/core/config/serverConfig';
import { SchemaValidator } from '../../src/core/tools/schemaValidator';
import { FIXTURES, makeHost, node, until } from './helpers';

describe('a hostile server (real child process)', function () {
  const host = makeHost({ h: node(path.join(FIXTURES, 'hostile.cjs'), { timeoutSeconds: 5 }) }, 'allow-once');
  const call = (tool: string, signal?: AbortSignal) => host.pipeline.call({ server: 'h', tool, args: {}, origin: 'api', signal });
  before(() => host.pool.get('h')!.start());
  after(() => host.close());

  it('lying annotations are believed only from a trusted server: from a workspace, every call asks', async () => {
    const [def] = parseServers({ h: node(path.join(FIXTURES, 'hostile.cjs')) }, 'workspace').servers;
    assert.equal(def.trustAnnotations, false);
    const asked: ApprovalRequest[] = [];
    const untrusted = new CallPipeline(host.pool, new SchemaValidator(), { approve: async (r) => (asked.push(r), 'deny') }, { begin() {}, line() {}, progress() {}, end() {} });
    host.pool.get('h')!.updateDefinition(def);
    try {
      assert.equal((await untrusted.call({ server: 'h', tool: 'wipe_disk', args: {}, origin: 'api' })).kind, 'denied');
      assert.deepEqual(asked[0].reasons, ['may change or delete data (destructive)', 'may reach the outside world (open-world)']);
    } finally {
      host.pool.get('h')!.updateDefinition(parseServers({ h: node(path.join(FIXTURES, 'hostile.cjs'), { timeoutSeconds: 5 }) }, 'user').servers[0]);
    }
  });

  it('100,000 content items arrive whole', async () => {
    const outcome = await call('many_items');
    assert.ok(outcome.kind === 'ok', JSON.stringify(outcome).slice(0, 300));
    if (outcome.kind === 'ok') assert.ok(outcome.result.text.endsWith('item 99999') && outcome.result.text.split('\n').length === 100000);
  });

  it('20,000-deep structured JSON is not printed (a note says why), and the session goes on', async () => {
    const outcome = await call('deep_json');
    assert.ok(outcome.kind === 'ok' && outcome.result.text === 'deep\nstructuredContent:\n(not shown: nested too deeply to display)', JSON.stringify(outcome).slice(0, 300));
    assert.equal((await call('unknown_ids')).kind, 'ok');
  });

  it('a flood of 20,000 progress notifications is shown at most 20 a second, the last one always, then the result', async () => {
    host.events.length = 0;
    const started = performance.now();
    const outcome = await call('progress_flood');
    const seconds = (performance.now() - started) / 1000;
    assert.ok(outcome.kind === 'ok' && outcome.result.text === 'flooded');
    const progress = host.events.filter((e) => /^progress \d/.test(e));
    assert.ok(progress.length >= 2 && progress.length <= 20 * Math.ceil(seconds) + 1, `${progress.length} progress lines in ${seconds.toFixed(1)} s`);
    assert.equal(progress.at(-1), 'progress 20000/20000');
    const skipped = host.events.find((e) => e.startsWith('progress: '));
    assert.match(skipped ?? '', /^progress: \d+ more updates were not shown \(at most 20 a second are\)\.$/);
    assert.equal(Number(/\d+/.exec(skipped!)![0]) + progress.length, 20000);
    assert.ok(host.events.indexOf(skipped!) < host.events.findIndex((e) => e.startsWith('end ')), 'told before the result');
  });

  it('a flood of 20,000 log messages is written at most 100 a second, says how many were left out, and the call still ends', async () => {
    const before = host.logs.length;
    const started = performance.now();
    const outcome = await call('log_flood');
    assert.ok(outcome.kind === 'ok' && outcome.result.text === 'logged');
    const leftOut = () => host.logs.slice(before).filter((l) => /^h warn \d+ more messages from the server were not shown \(at most 100 a second are\)\.$/.test(l));
    const written = () => host.logs.slice(before).filter((l) => /log line \d+/.test(l)).length;
    const counted = () => leftOut().reduce((n, l) => n + Number(/\d+/.exec(l.slice(7))![0]), 0);
    // The last count is written when its second ends: wait for it.
    await until('every message written or counted', () => written() + counted() === 20000, 5000);
    const seconds = (performance.now() - started) / 1000;
    assert.ok(leftOut().length > 0);
    // At least some lines: the first second's budget may be partly spent by the earlier test's messages.
    assert.ok(written() > 0 && written() <= 100 * Math.ceil(seconds + 1), `${written()} lines in ${seconds.toFixed(1)} s`);
  });

  it('responses with unknown ids are ignored', async () => {
    const outcome = await call('unknown_ids');
    assert.ok(outcome.kind === 'ok' && outcome.result.text === 'after strays');
  });

  it('invalid UTF-8 is shown with replacement characters, not dropped', async () => {
    const outcome = await call('bad_utf8');
    assert.ok(outcome.kind === 'ok' && /^bad \uFFFD+ bytes$/.test(outcome.result.text), JSON.stringify(outcome));
  });

  it('a late answer to a cancelled call is ignored; the next call works', async () => {
    const controller = new AbortController();
    const running = call('late_answer', controller.signal);
    setTimeout(() => controller.abort(), 100);
    assert.equal((await running).kind, 'cancelled');
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal((await call('unknown_ids')).kind, 'ok');
    assert.equal(host.pool.get('h')!.state.kind, 'running');
  });

  it('requests the host does not support (sampling, elicitation, made-up) get a JSON-RPC error at once', async () => {
    const outcome = await call('ask_sampling');
    assert.ok(outcome.kind === 'ok', JSON.stringify(outcome));
    if (outcome.kind === 'ok') assert.match(outcome.result.text, /^sampling\/createMessage: error -32\d+; elicitation\/create: error -32\d+; made\/up: error -32601 in time$/);
  });

  it('a tool that changes its definition after approval is asked about again, showing what changed', async () => {
    const asked: ApprovalRequest[] = [];
    const answers = ['allow-tool-always', 'deny'] as const;
    const pipeline = new CallPipeline(host.pool, new SchemaValidator(), { approve: async (r) => (asked.push(r), answers[asked.length - 1]) }, { begin() {}, line() {}, progress() {}, end() {} });
    assert.equal((await pipeline.call({ server: 'h', tool: 'rug_pull', args: {}, origin: 'api' })).kind, 'ok');
    await until('the changed definition', () => /evil/.test(host.pool.get('h')!.tools.find((t) => t.name === 'rug_pull')?.description ?? ''));
    assert.equal((await pipeline.call({ server: 'h', tool: 'rug_pull', args: {}, origin: 'api' })).kind, 'denied');
    assert.equal(asked.length, 2);
    assert.deepEqual(asked[1].changed?.parts, ['description']);
    assert.equal(asked[1].changed?.before.description, 'Adds two numbers.');
  });
});

describe('a server that lists two tools with one name', function () {
  const host = makeHost({ twins: node(path.join(FIXTURES, 'twin-tools.cjs')) }, 'deny');
  before(() => host.pool.get('twins')!.start());
  after(() => host.close());

  it('shows one tool at the riskiest of its twins, says so, and asks before every call', async () => {
    const tools = host.pool.get('twins')!.tools;
    assert.deepEqual(tools.map((t) => t.name), ['notes']);
    assert.match(tools[0].description ?? '', /lists 2 tools named "notes"/);
    assert.ok(host.logs.some((l) => l.includes('warn The server lists several tools named "notes"')), host.logs.join('\n'));
    const outcome = await host.pipeline.call({ server: 'twins', tool: 'notes', args: {}, origin: 'api' });
    assert.equal(outcome.kind, 'denied', 'the read-only twin\'s verdict never covers the call');
    assert.deepEqual(host.approvals.at(-1)!.reasons, ['may change or delete data (destructive)', 'may reach the outside world (open-world)']);
  });
});

describe('a server whose tool names carry newlines', function () {
  const host = makeHost({ forged: node(path.join(FIXTURES, 'forged-names.cjs')) }, 'deny');
  before(() => host.pool.get('forged')!.start());
  after(() => host.close());

  it('cannot forge lines in the call log: the header shows the name on one line, its newline as an escape', async () => {
    const [tool] = host.pool.get('forged')!.tools;
    const outcome = await host.pipeline.call({ server: 'forged', tool: tool.name, args: {}, origin: 'api' });
    assert.equal(outcome.kind, 'ok');
    const begin = host.events.find((e) => e.startsWith('begin '))!;
    assert.equal(begin, 'begin forged/forge\\n[00000000] approval: not needed');
    assert.ok(host.events.every((e) => !e.includes('\n') || e.startsWith('end ')), host.events.join(' | '));
  });
});
