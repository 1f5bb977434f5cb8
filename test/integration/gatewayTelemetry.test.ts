import * as assert from 'node:assert/strict';
import { startOtlpCollector, type OtlpCollector } from '../fixtures/otlpCollector';
import { fixture, gatewayFolder, stdioClient, textOf } from './gatewayClients';

/** The client's own trace, as an instrumented agent would send it in `_meta`. */
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

describe('gateway: a traceparent in the client\'s _meta continues its trace through the backend call (a local OTLP collector)', function () {
  this.timeout(60_000);
  const folder = gatewayFolder();
  let collector: OtlpCollector;
  let session: Awaited<ReturnType<typeof stdioClient>>;

  before(async () => {
    collector = await startOtlpCollector();
    const config = folder.config({ echo: fixture('trace-echo.cjs') });
    session = await stdioClient(config, folder.dir, undefined, [], { MCP_TOOL_HOST_OTEL: '1', OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
  });
  after(async () => {
    await session?.client.close();
    await collector.close();
    folder.cleanup();
  });

  /** Calls echo_meta through the gateway with `traceparent` in `_meta`: the span of the backend call, and the traceparent the server got. */
  async function callWith(traceparent: unknown, label: string) {
    const result = await session.client.callTool({ name: 'echo_echo_meta', arguments: { text: label }, _meta: { traceparent } });
    assert.ok(!result.isError, textOf(result));
    const sent = (JSON.parse(textOf(result)) as { meta: { traceparent?: string } }).meta.traceparent;
    const span = await collector.waitForSpan((s) => s.name === 'tools/call echo_meta' && sent === `00-${s.traceId}-${s.spanId}-01`);
    return { span, sent: sent! };
  }

  it("a valid traceparent: the backend call's span is in the client's trace, and the server joins it too", async () => {
    const { span, sent } = await callWith(`00-${TRACE_ID}-${PARENT_ID}-01`, 'valid');
    assert.equal(span.traceId, TRACE_ID, 'the span continues the client\'s trace');
    assert.equal(span.parentSpanId, PARENT_ID, 'the client\'s span is its parent');
    assert.equal(span.attributes['mcp_tool_host.call.origin'], 'gateway');
    assert.ok(sent.startsWith(`00-${TRACE_ID}-`), sent);
  });

  const hostile: [string, unknown][] = [
    ['malformed', 'not-a-traceparent'],
    ['upper-case hex', `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${PARENT_ID}-01`],
    ['an unknown version', `ff-${TRACE_ID}-${PARENT_ID}-01`],
    ['a trailing extra', `00-${TRACE_ID}-${PARENT_ID}-01-${'a'.repeat(16)}`],
    ['huge (1 MiB)', `00-${TRACE_ID}-${PARENT_ID}-01`.padEnd(1024 * 1024, 'a')],
    ['not a string', { traceId: TRACE_ID }],
  ];
  for (const [what, traceparent] of hostile) {
    it(`${what}: ignored, the call runs in a trace of its own`, async () => {
      const { span, sent } = await callWith(traceparent, what);
      assert.notEqual(span.traceId, TRACE_ID);
      assert.equal(span.parentSpanId, undefined, 'a root span');
      assert.match(sent, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    });
  }
});
