import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startOtlpCollector, type OtlpCollector } from '../fixtures/otlpCollector';
import { runCli } from './cliRun';
import { FIXTURES } from './helpers';

describe('CLI: OpenTelemetry from the environment, with its own opt-in', function () {
  this.timeout(60_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-cli-otel-'));
  let collector: OtlpCollector;
  before(async () => {
    collector = await startOtlpCollector();
    fs.writeFileSync(path.join(dir, 'servers.json'), JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [path.join(FIXTURES, 'trace-echo.cjs')] } } }));
  });
  after(async () => {
    await collector.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const call = (env: NodeJS.ProcessEnv) => runCli(['call', 'echo', 'echo_meta', '--args', '{"text":"private words"}', '--config', 'servers.json', '--json'], { cwd: dir, env: { ...process.env, XDG_STATE_HOME: dir, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SERVICE_NAME: 'ci-job', ...env } });

  it('OTEL_* variables alone export nothing (a CI job may set them for other tools)', async () => {
    const run = await call({});
    assert.equal(run.code, 0, run.stderr);
    assert.ok(!run.stdout.includes('traceparent'), run.stdout);
    assert.equal(collector.requests, 0);
  });

  it('with MCP_TOOL_HOST_OTEL=1 the call is a span, flushed before the CLI exits, and the server got its traceparent', async () => {
    const run = await call({ MCP_TOOL_HOST_OTEL: '1' });
    assert.equal(run.code, 0, run.stderr);
    const span = await collector.waitForSpan((s) => s.name === 'tools/call echo_meta', 1);
    assert.equal(span.serviceName, 'ci-job');
    assert.ok(run.stdout.includes(`00-${span.traceId}-${span.spanId}-01`), run.stdout);
    assert.ok(!JSON.stringify(collector.spans).includes('private words'));
  });

  it('a bad opt-in value is said, and the call runs without telemetry', async () => {
    const run = await call({ MCP_TOOL_HOST_OTEL: 'yes please' });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /telemetry is off: MCP_TOOL_HOST_OTEL must be 1 or true/);
  });
});
