import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { CallPipeline } from '../../src/core/calls/callPipeline';
import { toolResultText } from '../../src/core/chat/callReport';
import { createHash } from 'node:crypto';
import type { ApprovalDecision, AuditRecord } from '../../src/core/calls/ports';
import { canonicalJson } from '../../src/core/policy/toolPin';
import { SchemaValidator } from '../../src/core/tools/schemaValidator';
import { RateLimiter } from '../../src/core/policy/rateLimiter';
import { GrantStore, memoryPersistence } from '../../src/core/policy/grants';
import { callVerdict } from '../../src/core/policy/approvalPolicy';
import { effectiveAnnotations } from '../../src/core/tools/annotations';
import { FIXTURES, makeHost, node } from './helpers';

describe('the call pipeline against real servers', function () {
  const fixture = node(path.join(FIXTURES, 'pipeline-cases.cjs'), { timeoutSeconds: 1, toolTimeouts: { silent: 1 } });
  const host = makeHost({ p: fixture }, 'allow-once');
  before(() => host.pool.get('p')!.start());
  after(() => host.close());

  it('shows a JSON-RPC error as a protocol error with its code, distinct from isError', async () => {
    const outcome = await host.pipeline.call({ server: 'p', tool: 'rpc_error', args: {}, origin: 'api' });
    assert.deepEqual(outcome, { kind: 'protocol-error', code: -32602, message: 'invalid params: Invalid arguments for tool rpc_error: "city" is required' });
  });

  it('shows what a JSON-RPC error\'s data says, not only its message', async () => {
    const outcome = await host.pipeline.call({ server: 'p', tool: 'rpc_error_data', args: {}, origin: 'api' });
    assert.deepEqual(outcome, { kind: 'protocol-error', code: -32602, message: 'invalid params: Invalid params (reason: Missing required argument: location)' });
  });

  it('a call right after a start waits for the tool listing under way, instead of finding no tool', async () => {
    const slow = makeHost({ s: node(path.join(FIXTURES, 'pipeline-cases.cjs'), { env: { LIST_DELAY_MS: '800' } }) }, 'allow-once');
    try {
      const connection = slow.pool.get('s')!;
      const started = connection.start();
      const end = Date.now() + 10_000;
      while (connection.state.kind !== 'running' && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
      assert.equal(connection.tools.length, 0, 'running, and the listing not done yet');
      const outcome = await slow.pipeline.call({ server: 's', tool: 'echo_args', args: { region: 'eu' }, origin: 'api' });
      assert.ok(outcome.kind === 'ok' && outcome.result.text === '{"region":"eu"}', JSON.stringify(outcome));
      await started;
    } finally {
      await slow.close();
    }
  });

  it('a null for an optional argument that cannot be null is read as not given: left out, and the log says so; a required null is refused', async () => {
    host.events.length = 0;
    const outcome = await host.pipeline.call({ server: 'p', tool: 'echo_args', args: { region: 'eu', verbose: null, note: null }, origin: 'api' });
    assert.ok(outcome.kind === 'ok' && outcome.result.text === '{"region":"eu","note":null}', JSON.stringify(outcome));
    assert.ok(host.events.includes('arguments: "verbose" left out: null, which the tool\'s schema does not take for an optional argument, is read as not given.'), host.events.join('\n'));
    const required = await host.pipeline.call({ server: 'p', tool: 'echo_args', args: { region: null }, origin: 'api' });
    assert.equal(required.kind, 'invalid-arguments');
  });

  it('flags structuredContent that breaks the outputSchema, without hiding the result', async () => {
    host.events.length = 0;
    const outcome = await host.pipeline.call({ server: 'p', tool: 'bad_output', args: {}, origin: 'api' });
    assert.equal(outcome.kind, 'ok');
    assert.ok(host.events.includes('warning: structuredContent does not match the outputSchema: /count: must be a number'), host.events.join('\n'));
    // and not only in the output channel: the outcome carries it, so the CLI and the model see it too
    assert.ok(outcome.kind === 'ok' && outcome.outputWarning === 'structuredContent does not match the outputSchema: /count: must be a number');
    assert.match(toolResultText(outcome), /Warning from the host: structuredContent does not match the outputSchema: \/count: must be a number/);
  });

  it('progress resets the timeout: 1.8 s of work with progress every 0.3 s passes a 1 s timeout', async () => {
    const outcome = await host.pipeline.call({ server: 'p', tool: 'slow_with_progress', args: {}, origin: 'api' });
    assert.ok(outcome.kind === 'ok' && outcome.result.text === 'done after progress', JSON.stringify(outcome));
  });

  it('a silent tool times out with a message that names the setting', async () => {
    const outcome = await host.pipeline.call({ server: 'p', tool: 'silent', args: {}, origin: 'api' });
    assert.deepEqual(outcome, { kind: 'timeout', message: 'no result or progress for 1 s (timeoutSeconds; progress notifications reset it).' });
  });

  it('shows content annotations and collects resource links', async () => {
    const outcome = await host.pipeline.call({ server: 'p', tool: 'annotated', args: {}, origin: 'api' });
    assert.ok(outcome.kind === 'ok');
    if (outcome.kind === 'ok') {
      assert.equal(outcome.result.text, '(for user, priority 0.9) for the user\n[resource link] report file:///tmp/report.txt (text/plain)');
      assert.deepEqual(outcome.result.links, [{ uri: 'file:///tmp/report.txt', name: 'report', mimeType: 'text/plain' }]);
    }
  });

  it('writes one audit record per call, without the arguments', async () => {
    const records: AuditRecord[] = [];
    const pipeline = new CallPipeline(host.pool, new SchemaValidator(), { approve: async () => 'deny' }, { begin() {}, line() {}, progress() {}, end() {} }, { audit: { append: (r) => records.push(r) } });
    await pipeline.call({ server: 'p', tool: 'annotated', args: { secret: 'hunter2' }, origin: 'palette' });
    assert.equal(records.length, 1);
    const [r] = records;
    assert.deepEqual({ origin: r.origin, server: r.server, tool: r.tool, outcome: r.outcome }, { origin: 'palette', server: 'p', tool: 'annotated', outcome: 'ok' });
    assert.match(r.argsHash, /^[0-9a-f]{16}$/);
    assert.match(r.decision, /^not needed/);
    assert.ok(!JSON.stringify(r).includes('hunter2'));
  });

  it('audits the arguments that were sent: after "Edit arguments", the edited ones', async () => {
    const records: AuditRecord[] = [];
    const answers: ApprovalDecision[] = [{ kind: 'edit', args: { secret: 'edited' } }, 'allow-once'];
    const pipeline = new CallPipeline(host.pool, new SchemaValidator(), { approve: async () => answers.shift()! }, { begin() {}, line() {}, progress() {}, end() {} }, {
      approveAll: () => true,
      audit: { append: (r) => records.push(r) },
    });
    const outcome = await pipeline.call({ server: 'p', tool: 'annotated', args: { secret: 'original' }, origin: 'palette' });
    assert.equal(outcome.kind, 'ok');
    const hash = (args: object) => createHash('sha256').update(canonicalJson(args)).digest('hex').slice(0, 16);
    assert.equal(records[0].argsHash, hash({ secret: 'edited' }));
    assert.notEqual(records[0].argsHash, hash({ secret: 'original' }));
  });

  it('a grant given to one launch of a server is not inherited by another launch under its name', async () => {
    const grants = new GrantStore(memoryPersistence());
    const silent = { begin() {}, line() {}, progress() {}, end() {} };
    const original = new CallPipeline(host.pool, new SchemaValidator(), { approve: async () => 'allow-tool-always' }, silent, { approveAll: () => true, grants });
    assert.equal((await original.call({ server: 'p', tool: 'annotated', args: {}, origin: 'api' })).kind, 'ok');
    // Same name, same tools, another command line (a repository's entry that copies the name).
    const other = makeHost({ p: { ...fixture, args: [...fixture.args, '--other'] } });
    try {
      await other.pool.get('p')!.start();
      const asked: string[] = [];
      const impostor = new CallPipeline(other.pool, new SchemaValidator(), { approve: async (r) => (asked.push(r.tool.name), 'deny') }, silent, { approveAll: () => true, grants });
      assert.equal((await impostor.call({ server: 'p', tool: 'annotated', args: {}, origin: 'api' })).kind, 'denied');
      assert.deepEqual(asked, ['annotated']);
      assert.equal(callVerdict('p', other.pool.findTool('p', 'annotated')!.tool, effectiveAnnotations(other.pool.findTool('p', 'annotated')!.tool, true), impostor.rules).kind, 'asks', 'the tooltip says so too');
      assert.equal((await original.call({ server: 'p', tool: 'annotated', args: {}, origin: 'api' })).kind, 'ok', 'the original launch keeps its grant');
    } finally {
      await other.close();
    }
  });

  it('arguments nested past any tool\'s use (a stack-overflow payload) are refused before anything walks them, and nothing is sent', async () => {
    const nested = (levels: number) => {
      let value: unknown = 'bottom';
      for (let i = 0; i < levels; i++) value = [value];
      return value;
    };
    for (const levels of [257, 100_000]) {
      const outcome = await host.pipeline.call({ server: 'p', tool: 'echo_args', args: { region: 'eu', note: null, extra: nested(levels) } as Record<string, unknown>, origin: 'api' });
      assert.deepEqual(outcome, { kind: 'failed', message: 'The arguments nest more than 256 levels deep, past what any tool takes: nothing was sent to "p".' }, `${levels} levels`);
    }
    // 256 levels (the object and 255 arrays below it) still go: the bound is past what a tool takes, not a squeeze.
    const deepest = await host.pipeline.call({ server: 'p', tool: 'echo_args', args: { region: 'eu', extra: nested(255) } as Record<string, unknown>, origin: 'api' });
    assert.equal(deepest.kind, 'ok');
  });

  it('over the rate limit a call fails at once with a clear message, and nothing is sent', async () => {
    const limited = new CallPipeline(host.pool, new SchemaValidator(), { approve: async () => 'allow-once' }, { begin() {}, line() {}, progress() {}, end() {} }, {
      rateLimiter: new RateLimiter(() => ({ burst: 5, perSecond: 0.1 })),
    });
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => limited.call({ server: 'p', tool: 'annotated', args: {}, origin: 'api' })));
    assert.deepEqual(outcomes.map((o) => o.kind), ['ok', 'ok', 'ok', 'ok', 'ok', 'failed', 'failed', 'failed']);
    const refused = outcomes[5];
    assert.ok(refused.kind === 'failed' && /^Too many calls to "p" \(rate limit, settings mcpToolHost\.rateLimit\.\*\): nothing was sent\. Try again in \d+ ms\.$/.test(refused.message));
  });
});
