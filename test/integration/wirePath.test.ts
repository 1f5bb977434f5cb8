import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { describeCallError } from '../../src/core/calls/callErrors';
import { FIXTURES, makeHost, node } from './helpers';

/**
 * Issue 20: tools/call and tools/list of the 2025 era go past the SDK's Client on the same
 * transport (sdkClient.ts, rawAnswers.ts). What the SDK did for them must still happen: a call we
 * stop waiting for is cancelled on the server, progress re-arms the timeout and the total limit
 * holds anyway, and a JSON-RPC error arrives as one (code and data).
 */
describe("the host's own tools/call path (real child process)", function () {
  this.timeout(30_000);
  let host: ReturnType<typeof makeHost>;
  const connection = () => host.pool.get('slow')!;
  const limits = { timeoutSeconds: 1, maxTotalSeconds: 2 };
  const failure = async (call: Promise<unknown>) => describeCallError(await call.then(() => assert.fail('the call should fail'), (err: unknown) => err), limits);
  const text = (result: unknown) => (result as { content: { text: string }[] }).content[0].text;
  const cancellations = async () => JSON.parse(text(await connection().callTool('cancellations', {}, { timeoutMs: 5_000, maxTotalTimeoutMs: 5_000 }))) as { requestId: unknown; reason: string }[];

  beforeEach(async () => {
    host = makeHost({ slow: node(path.join(FIXTURES, 'slow-calls.cjs')) });
    await connection().start();
  });
  afterEach(() => host.close());

  it('a cancelled call is cancelled on the server: notifications/cancelled with its request id', async () => {
    const controller = new AbortController();
    const call = connection().callTool('wait', { ms: 5_000 }, { timeoutMs: 10_000, maxTotalTimeoutMs: 10_000, signal: controller.signal });
    setTimeout(() => controller.abort('the user cancelled'), 200);
    await assert.rejects(call);
    const seen = await cancellations();
    assert.equal(seen.length, 1);
    assert.match(String(seen[0].requestId), /^mcp-tool-host-raw-/);
    assert.equal(seen[0].reason, 'the user cancelled');
  });

  it('no answer and no progress within the timeout: a timeout, and the server is told', async () => {
    const started = Date.now();
    const failed = await failure(connection().callTool('wait', { ms: 5_000 }, { timeoutMs: 1_000, maxTotalTimeoutMs: 10_000 }));
    assert.equal(failed.kind, 'timeout');
    assert.match(failed.message, /no result or progress for 1 s/);
    assert.ok(Date.now() - started < 3_000);
    assert.deepEqual((await cancellations()).map((c) => c.reason), ['timed out']);
  });

  it('progress re-arms the timeout; the total limit holds anyway', async () => {
    const progress: number[] = [];
    const ok = await connection().callTool('wait', { ms: 2_000, progressMs: 300 }, { timeoutMs: 1_000, maxTotalTimeoutMs: 10_000, onprogress: (p) => progress.push(p.progress) });
    assert.equal(text(ok), 'waited 2000 ms');
    assert.ok(progress.length >= 4, `progress heard: ${progress.join(',')}`);
    const started = Date.now();
    const failed = await failure(connection().callTool('wait', { ms: 6_000, progressMs: 300 }, { timeoutMs: 1_000, maxTotalTimeoutMs: 2_000, onprogress: () => undefined }));
    assert.equal(failed.kind, 'timeout');
    assert.match(failed.message, /maxTotalTimeoutSeconds/);
    assert.ok(Date.now() - started < 4_000);
  });

  it('calls in flight share one clock: a short timeout sent after a long one expires on time, the long one still answers', async () => {
    const long = connection().callTool('wait', { ms: 2_500 }, { timeoutMs: 20_000, maxTotalTimeoutMs: 20_000 });
    const started = Date.now();
    const failed = await failure(connection().callTool('wait', { ms: 8_000 }, { timeoutMs: 500, maxTotalTimeoutMs: 20_000 }));
    assert.equal(failed.kind, 'timeout');
    assert.ok(Date.now() - started < 2_000, `the short call expired after ${Date.now() - started} ms`);
    assert.equal(text(await long), 'waited 2500 ms');
  });

  it('a JSON-RPC error arrives with its code and data', async () => {
    const failed = await failure(connection().callTool('fail', {}, { timeoutMs: 5_000, maxTotalTimeoutMs: 5_000 }));
    assert.deepEqual(failed, { kind: 'protocol-error', code: -32602, message: 'invalid params: bad arguments (field: x)' });
  });
});
