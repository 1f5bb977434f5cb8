import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import fc from 'fast-check';
import { CallPipeline } from '../../src/core/calls/callPipeline';
import { RateLimiter } from '../../src/core/policy/rateLimiter';
import { SchemaValidator } from '../../src/core/tools/schemaValidator';
import { FIXTURES, makeHost, node } from './helpers';

/**
 * Fuzzing the stdio transport and message handling with a real child process: before each
 * answer the server writes generated and mutated bytes (broken JSON-RPC, stray and duplicate
 * ids, invalid UTF-8, floods of notifications, lone closing braces). No crash, no hang, and
 * every call settles.
 */
describe('fuzzing stdio message handling (real child process)', function () {
  this.timeout(60_000);
  const RUNS = Number(process.env.FUZZ_TRANSPORT_RUNS ?? 10_000);
  const host = makeHost({ r: node(path.join(FIXTURES, 'replay.cjs'), { timeoutSeconds: 10 }) });
  // the rate limit would refuse most of these calls before they reach the transport
  const pipeline = new CallPipeline(host.pool, new SchemaValidator(), { approve: async () => 'allow-once' }, { begin() {}, line() {}, progress() {}, end() {} }, {
    rateLimiter: new RateLimiter(() => ({ burst: 1e9, perSecond: 1e9 })),
  });
  const kinds = new Map<string, number>();
  before(() => host.pool.get('r')!.start());
  after(() => host.close());

  const valid = fc.oneof(
    fc.record({ jsonrpc: fc.constant('2.0'), method: fc.constantFrom('notifications/progress', 'notifications/message', 'notifications/tools/list_changed', 'made/up'), params: fc.object({ maxDepth: 2 }) }),
    fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.integer({ min: -5, max: 50 }), fc.string({ maxLength: 8 })), result: fc.object({ maxDepth: 2 }) }),
    fc.record({ jsonrpc: fc.constant('2.0'), id: fc.integer({ min: 0, max: 50 }), error: fc.record({ code: fc.integer(), message: fc.string() }) }),
    fc.record({ jsonrpc: fc.constant('2.0'), id: fc.string({ maxLength: 4 }), method: fc.constantFrom('ping', 'sampling/createMessage', 'roots/list', 'x'), params: fc.object({ maxDepth: 1 }) }),
  ).map((m) => Buffer.from(JSON.stringify(m)));
  const mutated = fc.tuple(valid, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }), fc.nat()).map(([bytes, flips, cut]) => {
    const b = Buffer.from(bytes);
    for (const [at, value] of flips) if (b.length) b[at % b.length] = value;
    return b.subarray(0, cut % (b.length + 1));
  });
  const line = fc.oneof(valid, mutated, fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)), fc.constantFrom(Buffer.from('}'), Buffer.from('{"jsonrpc":"2.0"'), Buffer.from([0xff, 0xfe])));
  const stream = fc.array(line, { maxLength: 6 }).map((lines) => Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')])));

  it(`every call settles whatever the server writes before its answer (${RUNS} cases)`, async () => {
    let settled = 0;
    await fc.assert(
      fc.asyncProperty(stream, async (bytes) => {
        const outcome = await pipeline.call({ server: 'r', tool: 'replay', args: { bytes: bytes.toString('base64') }, origin: 'api' });
        // a stray answer with the call's own id may settle it first: ok, tool-error or protocol-error are all fine
        assert.ok(['ok', 'protocol-error', 'tool-error'].includes(outcome.kind), JSON.stringify(outcome).slice(0, 300));
        kinds.set(outcome.kind, (kinds.get(outcome.kind) ?? 0) + 1);
        settled++;
      }),
      { numRuns: RUNS },
    );
    assert.equal(settled, RUNS);
    assert.equal(host.pool.get('r')!.state.kind, 'running', 'the session survived');
    assert.ok((kinds.get('ok') ?? 0) > RUNS * 0.9, `most calls get the real answer: ${JSON.stringify([...kinds])}`);
    const last = await pipeline.call({ server: 'r', tool: 'replay', args: { bytes: '' }, origin: 'api' });
    assert.ok(last.kind === 'ok' && last.result.text === 'replayed');
  });
});
