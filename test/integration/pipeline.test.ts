import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { CallPipeline } from '../../src/core/calls/callPipeline';
import type { AuditRecord } from '../../src/core/calls/ports';
import { SchemaValidator } from '../../src/core/tools/schemaValidator';
import { RateLimiter } from '../../src/core/policy/rateLimiter';
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

  it('flags structuredContent that breaks the outputSchema, without hiding the result', async () => {
    host.events.length = 0;
    const outcome = await host.pipeline.call({ server: 'p', tool: 'bad_output', args: {}, origin: 'api' });
    assert.equal(outcome.kind, 'ok');
    assert.ok(host.events.includes('warning: structuredContent does not match the outputSchema: /count: must be number'), host.events.join('\n'));
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
