import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { resolveLaunch } from '../../src/core/config/launch';
import { parseServers } from '../../src/core/config/serverConfig';
import { ServerPool } from '../../src/core/connection/serverPool';
import { CallPipeline } from '../../src/core/calls/callPipeline';
import { SchemaValidator } from '../../src/core/tools/schemaValidator';
import { loadTelemetry } from '../../src/core/telemetry/load';
import { NO_TELEMETRY, type Telemetry } from '../../src/core/telemetry/telemetry';
import { newPromptOffers } from '../../src/core/offers/promptOffers';
import { newResourceOffers } from '../../src/core/offers/later';
import { startOtlpCollector, type CollectedSpan, type OtlpCollector } from '../fixtures/otlpCollector';
import { FIXTURES, ROOT } from './helpers';

const SECRET = 'sk-live-0tel-5ecret-77';
const API_KEY = 'collector-key-9f8e7d';

/** A pool of trace-echo servers (2025 era, 2026-07-28 era, one opted in to export content) and a pipeline whose telemetry is `telemetry()`. */
function host(telemetry: () => Telemetry | undefined, servers?: Record<string, unknown>) {
  const pool = new ServerPool(() => ({
    validator: new SchemaValidator(),
    clientVersion: 'test',
    log: { info: () => undefined, warn: () => undefined, error: () => undefined, stderr: () => undefined },
    confirmLaunch: async () => true,
    resolveLaunch: async (d) => resolveLaunch(d, { workspaceFolders: [{ name: 'root', path: ROOT }], env: process.env, inputs: { token: SECRET } }),
  }));
  const fixture = path.join(FIXTURES, 'trace-echo.cjs');
  pool.apply(parseServers(servers ?? {
    echo: { command: process.execPath, args: [fixture], env: { API_TOKEN: '${input:token}' } },
    modern: { command: process.execPath, args: [fixture], env: { MODERN: '1' } },
    'echo-optin': { command: process.execPath, args: [fixture], env: { API_TOKEN: '${input:token}' } },
  }, 'user'), { autoStart: false });
  const sink = { begin: () => undefined, line: () => undefined, progress: () => undefined, end: () => undefined };
  const pipeline = new CallPipeline(pool, new SchemaValidator(), { approve: async () => 'allow-once' }, sink, { telemetry: () => telemetry() ?? NO_TELEMETRY });
  return { pool, pipeline };
}

/** What the server saw in the request's `_meta`, from its echo. */
function echoed(outcome: Awaited<ReturnType<CallPipeline['call']>>): { meta: Record<string, unknown>; said: unknown; token: string } {
  assert.equal(outcome.kind, 'ok', JSON.stringify(outcome));
  return JSON.parse(outcome.kind === 'ok' ? outcome.result.text : '{}') as { meta: Record<string, unknown>; said: unknown; token: string };
}

function telemetryFor(collector: OtlpCollector, log: string[], env: Record<string, string> = {}): Telemetry {
  const later = loadTelemetry();
  const settings = later.telemetryFromEnv({ MCP_TOOL_HOST_OTEL: '1', OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_HEADERS: `x-api-key=${API_KEY}`, OTEL_SERVICE_NAME: 'mth-test', [later.CONTENT_VARIABLE]: 'echo-optin', ...env });
  assert.ok(settings);
  return later.startOtelTelemetry(settings, (line) => log.push(line));
}

describe('OpenTelemetry: spans and metrics of calls, listings and server lifecycles (a local OTLP collector)', function () {
  this.timeout(60_000);
  let collector: OtlpCollector;
  let telemetry: Telemetry;
  const log: string[] = [];
  const { pool, pipeline } = host(() => telemetry);
  let watch: { dispose(): void };

  before(async () => {
    collector = await startOtlpCollector();
    telemetry = telemetryFor(collector, log);
    watch = loadTelemetry().watchServers(pool, () => telemetry);
    await Promise.all(['echo', 'modern', 'echo-optin'].map((name) => pool.get(name)!.start()));
  });
  after(async () => {
    watch.dispose();
    await pool.stopAll();
    pool.dispose();
    await collector.close();
  });

  it('a call is one CLIENT span named by the semantic conventions, with the decision and outcome, and no arguments or result', async () => {
    const outcome = await pipeline.call({ server: 'echo', tool: 'echo_meta', args: { text: 'private words' }, origin: 'api' });
    const { meta } = echoed(outcome);
    const span = await collector.waitForSpan((s) => s.name === 'tools/call echo_meta' && s.attributes['mcp_tool_host.server.name'] === 'echo');
    assert.equal(span.kind, 3, 'SPAN_KIND_CLIENT');
    assert.equal(span.serviceName, 'mth-test');
    assert.deepEqual(pick(span, ['mcp.method.name', 'gen_ai.operation.name', 'gen_ai.tool.name', 'network.transport', 'mcp.protocol.version', 'mcp_tool_host.call.origin', 'mcp_tool_host.call.outcome', 'mcp_tool_host.call.decision']), {
      'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'echo_meta', 'network.transport': 'pipe', 'mcp.protocol.version': '2025-11-25', 'mcp_tool_host.call.origin': 'api', 'mcp_tool_host.call.outcome': 'ok', 'mcp_tool_host.call.decision': 'not needed [read-only]',
    });
    const all = JSON.stringify(collector.spans);
    assert.ok(!('gen_ai.tool.call.arguments' in span.attributes) && !('gen_ai.tool.call.result' in span.attributes), JSON.stringify(span));
    assert.ok(!all.includes('private words') && !all.includes(SECRET), 'neither the arguments nor the result left the host');
    // traceparent reached the server in the request's _meta: the server's own spans can join this trace.
    assert.equal(meta.traceparent, `00-${span.traceId}-${span.spanId}-01`);
    assert.ok(collector.headers.some((h) => h['x-api-key'] === API_KEY), 'the exporter sends the configured headers');
    assert.ok(!log.join('\n').includes(API_KEY));
  });

  it('traceparent rides in the 2026-07-28 request _meta beside the revision\'s own keys', async () => {
    const { meta } = echoed(await pipeline.call({ server: 'modern', tool: 'echo_meta', args: {}, origin: 'api' }));
    const span = await collector.waitForSpan((s) => s.name === 'tools/call echo_meta' && s.attributes['mcp_tool_host.server.name'] === 'modern');
    assert.equal(meta.traceparent, `00-${span.traceId}-${span.spanId}-01`);
    assert.ok(Object.keys(meta).some((k) => k.startsWith('io.modelcontextprotocol/')), JSON.stringify(meta));
    assert.equal(span.attributes['mcp.protocol.version'], '2026-07-28');
  });

  it('a server the user opted in for exports its arguments and result, its secret masked', async () => {
    const outcome = await pipeline.call({ server: 'echo-optin', tool: 'echo_meta', args: { text: `key ${SECRET}` }, origin: 'api' });
    assert.equal(echoed(outcome).token, '••••••');
    const span = await collector.waitForSpan((s) => s.name === 'tools/call echo_meta' && s.attributes['mcp_tool_host.server.name'] === 'echo-optin');
    assert.equal(span.attributes['gen_ai.tool.call.arguments'], JSON.stringify({ text: 'key ••••••' }));
    assert.ok(String(span.attributes['gen_ai.tool.call.result']).includes('"said":"key ••••••"'), String(span.attributes['gen_ai.tool.call.result']));
    assert.ok(!JSON.stringify(collector.spans).includes(SECRET));
  });

  it('a JSON-RPC error is error.type and rpc.response.status_code, its text kept out unless opted in', async () => {
    const outcome = await pipeline.call({ server: 'echo', tool: 'fail', args: {}, origin: 'api' });
    assert.equal(outcome.kind, 'protocol-error');
    const span = await collector.waitForSpan((s) => s.name === 'tools/call fail');
    assert.equal(span.attributes['error.type'], '-32602');
    assert.equal(span.attributes['rpc.response.status_code'], '-32602');
    assert.equal(span.status.code, 2, 'STATUS_CODE_ERROR');
    assert.equal(span.status.message, '-32602');
  });

  it('resources, prompts and completions are CLIENT spans named by the conventions, each traceparent in its request _meta', async () => {
    const resources = newResourceOffers({ pool, pipeline });
    const prompts = newPromptOffers({ pool, pipeline });
    const traceparentIn = (text: string) => /00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]/.exec(text)?.[0];
    for (const server of ['echo', 'modern']) {
      const read = await resources.read({ server, uri: 'note://private/plans', origin: 'api' });
      assert.equal(read.kind, 'ok', JSON.stringify(read));
      const span = await collector.waitForSpan((s) => s.name === 'resources/read' && s.attributes['mcp_tool_host.server.name'] === server);
      assert.equal(span.kind, 3, 'SPAN_KIND_CLIENT');
      assert.equal(span.attributes['mcp.method.name'], 'resources/read');
      assert.equal(traceparentIn(JSON.stringify(read)), `00-${span.traceId}-${span.spanId}-01`, `${server}: the server's _meta held the span's traceparent`);
      assert.ok(!('mcp.resource.uri' in span.attributes), 'a resource URI is content: not exported by default');
    }
    await resources.resources('echo');
    await collector.waitForSpan((s) => s.name === 'resources/list' && s.attributes['mcp.method.name'] === 'resources/list');
    await prompts.prompts('echo');
    await collector.waitForSpan((s) => s.name === 'prompts/list' && s.attributes['mcp.method.name'] === 'prompts/list');
    const got = await prompts.get({ server: 'echo', name: 'greet', args: { who: 'x' }, origin: 'api' });
    const getSpan = await collector.waitForSpan((s) => s.name === 'prompts/get greet');
    assert.deepEqual(pick(getSpan, ['mcp.method.name', 'gen_ai.prompt.name', 'network.transport', 'mcp.protocol.version']), { 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': 'greet', 'network.transport': 'pipe', 'mcp.protocol.version': '2025-11-25' });
    assert.equal(traceparentIn(JSON.stringify(got)), `00-${getSpan.traceId}-${getSpan.spanId}-01`);
    await prompts.complete({ server: 'echo', ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'a' } });
    const completion = await collector.waitForSpan((s) => s.name === 'completion/complete greet');
    assert.equal(completion.attributes['mcp.method.name'], 'completion/complete');
  });

  it('a failed read is error.type and rpc.response.status_code; its URI and message only for an opted-in server', async () => {
    const resources = newResourceOffers({ pool, pipeline });
    assert.equal((await resources.read({ server: 'echo', uri: 'missing://private/diary', origin: 'api' })).kind, 'failed');
    const failed = await collector.waitForSpan((s) => s.name === 'resources/read' && s.attributes['error.type'] !== undefined && s.attributes['mcp_tool_host.server.name'] === 'echo');
    assert.deepEqual(pick(failed, ['error.type', 'rpc.response.status_code']), { 'error.type': '-32002', 'rpc.response.status_code': '-32002' });
    assert.equal(failed.status.code, 2, 'STATUS_CODE_ERROR');
    assert.equal(failed.status.message, '-32002');
    assert.ok(!JSON.stringify(collector.spans).includes('private/diary'), 'the URI stayed home');
    await resources.read({ server: 'echo-optin', uri: 'missing://private/diary', origin: 'api' });
    const optin = await collector.waitForSpan((s) => s.name === 'resources/read' && s.attributes['mcp_tool_host.server.name'] === 'echo-optin');
    assert.equal(optin.attributes['mcp.resource.uri'], 'missing://private/diary');
    assert.match(String(optin.status.message), /Resource not found: missing:\/\/private\/diary/);
    // Opted in, the server's secrets are still masked: in the URI and in the error that quotes it.
    await resources.read({ server: 'echo-optin', uri: `missing://key/${SECRET}`, origin: 'api' });
    const masked = await collector.waitForSpan((s) => s.name === 'resources/read' && String(s.attributes['mcp.resource.uri']).startsWith('missing://key/'));
    assert.equal(masked.attributes['mcp.resource.uri'], 'missing://key/••••••');
    assert.match(String(masked.status.message), /Resource not found: missing:\/\/key\/••••••/);
    assert.ok(!JSON.stringify(collector.spans).includes(SECRET));
  });

  it("a server start is the conventions' initialize span; listings and stops are spans", async () => {
    const started = await collector.waitForSpan((s) => s.name === 'initialize' && s.attributes['mcp_tool_host.server.name'] === 'echo');
    assert.equal(started.kind, 3, 'SPAN_KIND_CLIENT');
    assert.deepEqual(pick(started, ['mcp.method.name', 'mcp_tool_host.server.event', 'network.transport']), { 'mcp.method.name': 'initialize', 'mcp_tool_host.server.event': 'start', 'network.transport': 'pipe' });
    const listing = await collector.waitForSpan((s) => s.name === 'tools/list' && s.attributes['mcp_tool_host.server.name'] === 'echo');
    assert.equal(listing.attributes['mcp_tool_host.tools.count'], 2);
    assert.equal(listing.attributes['mcp.method.name'], 'tools/list');
    await pool.get('echo')!.stop();
    await collector.waitForSpan((s) => s.name === 'server stop' && s.attributes['mcp_tool_host.server.name'] === 'echo');
    await pool.get('echo')!.start();
  });

  it('metrics are flushed on shutdown: operation and session durations in seconds, with the buckets the conventions give', async () => {
    await telemetry.shutdown();
    const buckets = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
    for (const name of ['mcp.client.operation.duration', 'mcp.client.session.duration']) {
      const metric = collector.metrics.get(name);
      assert.ok(metric, `${name} is missing; there are ${[...collector.metricNames].join(', ')}`);
      assert.equal(metric.unit, 's');
      assert.deepEqual(metric.bounds, buckets, name);
    }
    const methods = new Set(collector.metrics.get('mcp.client.operation.duration')!.attributes.map((a) => a['mcp.method.name']));
    for (const method of ['tools/call', 'tools/list', 'initialize', 'resources/read', 'prompts/get', 'completion/complete']) assert.ok(methods.has(method), `${method} in ${[...methods].join(', ')}`);
    assert.ok(collector.metricNames.has('mcp_tool_host.server.lifecycle'), [...collector.metricNames].join(', '));
  });
});

describe('OpenTelemetry: an HTTP server\'s session (a local OTLP collector)', function () {
  this.timeout(60_000);
  const SESSION = '8267461134f24305af708e66b8eda71a';
  let remote: ChildProcess;
  let collector: OtlpCollector;
  let telemetry: Telemetry;
  let setup: ReturnType<typeof host>;
  let watch: { dispose(): void };

  before(async () => {
    remote = spawn(process.execPath, [path.join(FIXTURES, 'trace-echo.cjs')], { env: { ...process.env, HTTP_PORT: '0', SESSION_ID: SESSION }, stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: remote.stdout! }).once('line', resolve);
      remote.once('exit', (code) => reject(new Error(`the remote fixture exited with ${code}`)));
    });
    const url = `http://127.0.0.1:${/listening (\d+)/.exec(line)![1]}/mcp`;
    collector = await startOtlpCollector();
    telemetry = telemetryFor(collector, []);
    setup = host(() => telemetry, { remote: { type: 'http', url }, 'echo-optin': { type: 'http', url } });
    watch = loadTelemetry().watchServers(setup.pool, () => telemetry);
    await Promise.all(['remote', 'echo-optin'].map((name) => setup.pool.get(name)!.start()));
  });
  after(async () => {
    watch?.dispose();
    await setup?.pool.stopAll();
    setup?.pool.dispose();
    remote?.kill();
    await collector?.close();
  });

  it('mcp.session.id, network.protocol.name and server.address on the spans; the session id only for an opted-in server (it lets its holder into the session)', async () => {
    for (const server of ['remote', 'echo-optin']) echoed(await setup.pipeline.call({ server, tool: 'echo_meta', args: {}, origin: 'api' }));
    const optin = await collector.waitForSpan((s) => s.name === 'tools/call echo_meta' && s.attributes['mcp_tool_host.server.name'] === 'echo-optin');
    assert.deepEqual(pick(optin, ['mcp.session.id', 'network.transport', 'network.protocol.name', 'server.address']), { 'mcp.session.id': SESSION, 'network.transport': 'tcp', 'network.protocol.name': 'http', 'server.address': '127.0.0.1' });
    const plain = await collector.waitForSpan((s) => s.name === 'tools/call echo_meta' && s.attributes['mcp_tool_host.server.name'] === 'remote');
    assert.equal(plain.attributes['network.protocol.name'], 'http');
    assert.ok(!('mcp.session.id' in plain.attributes), JSON.stringify(plain.attributes));
    await telemetry.shutdown();
    const points = collector.metrics.get('mcp.client.operation.duration')?.attributes ?? [];
    assert.ok(points.length > 0 && points.every((a) => !('mcp.session.id' in a)), 'never a metric attribute: a series per session');
  });
});

describe('OpenTelemetry off, or a collector that is down, failing or hanging', function () {
  this.timeout(60_000);

  it('off (the default): nothing is added to the request', async () => {
    const { pool, pipeline } = host(() => undefined);
    try {
      await pool.get('echo')!.start();
      const { meta } = echoed(await pipeline.call({ server: 'echo', tool: 'echo_meta', args: {}, origin: 'api' }));
      assert.equal(meta.traceparent, undefined);
    } finally {
      await pool.stopAll();
      pool.dispose();
    }
  });

  for (const mode of ['hang', 'fail', 'down'] as const) {
    it(`a collector that is ${mode === 'fail' ? 'failing' : mode === 'hang' ? 'hanging' : 'down'}: every call ends as it would, and one log line tells`, async () => {
      const collector = await startOtlpCollector(mode === 'down' ? 'ok' : mode);
      if (mode === 'down') await collector.close();
      const log: string[] = [];
      const telemetry = telemetryFor(collector, log);
      const { pool, pipeline } = host(() => telemetry);
      try {
        await pool.get('echo')!.start();
        echoed(await pipeline.call({ server: 'echo', tool: 'echo_meta', args: {}, origin: 'api' }));
        // An export is under way (hang: unanswered) or has failed before the next calls begin.
        if (mode === 'down') await until(() => log.length > 0);
        else await until(() => collector.requests > 0);
        const outcomes = [];
        for (let i = 0; i < 12; i++) outcomes.push(await pipeline.call({ server: 'echo', tool: 'echo_meta', args: {}, origin: 'api' }));
        assert.deepEqual(outcomes.map((o) => o.kind), outcomes.map(() => 'ok'));
        if (mode === 'hang') assert.equal(collector.spans.length, 0, 'the calls ended while the collector had answered nothing');
        // A 503 is retried before the export gives up: wait for the line, then for more failed exports.
        if (mode === 'fail') {
          await until(() => log.length > 0);
          const seen = collector.requests;
          await until(() => collector.requests >= seen + 3);
        }
        if (mode !== 'hang') assert.equal(log.filter((l) => l.startsWith('telemetry: could not export')).length, 1, log.join('\n'));
        if (mode === 'fail') {
          collector.mode = 'ok';
          await until(() => log.some((l) => l === 'telemetry: exporting works again.'));
        }
      } finally {
        await pool.stopAll();
        pool.dispose();
        // Shutting down does not wait on a collector that never answers past its bound.
        await telemetry.shutdown();
        await collector.close();
      }
    });
  }
});

function pick(span: CollectedSpan, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, span.attributes[k]]));
}

async function until(test: () => boolean): Promise<void> {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 50));
}
