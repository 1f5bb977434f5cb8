import * as assert from 'node:assert/strict';
import { loadTelemetry } from '../../src/core/telemetry/load';

const { telemetryFromEnv, telemetryFromSettings, TelemetrySettingsError } = loadTelemetry();

describe('telemetry settings: the CLI environment and VS Code user settings', () => {
  it('the OpenTelemetry variables alone turn nothing on; MCP_TOOL_HOST_OTEL=1 does, and OTEL_SDK_DISABLED=true wins', () => {
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/', OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=a%20b,team=core' };
    assert.equal(telemetryFromEnv(otel), undefined);
    assert.equal(telemetryFromEnv({ ...otel, MCP_TOOL_HOST_OTEL: '0' }), undefined);
    assert.equal(telemetryFromEnv({ ...otel, MCP_TOOL_HOST_OTEL: '1', OTEL_SDK_DISABLED: 'true' }), undefined);
    const on = telemetryFromEnv({ ...otel, MCP_TOOL_HOST_OTEL: '1', MCP_TOOL_HOST_OTEL_CONTENT: 'a, b' });
    assert.equal(on?.tracesUrl, 'http://collector:4318/v1/traces');
    assert.equal(on?.metricsUrl, 'http://collector:4318/v1/metrics');
    assert.deepEqual(on?.headers, { 'x-api-key': 'a b', team: 'core' });
    assert.equal(on?.serviceName, 'mcp-tool-host');
    assert.deepEqual([...on!.exportContent], ['a', 'b']);
    assert.equal(telemetryFromEnv({ MCP_TOOL_HOST_OTEL: 'true', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://t.example/in' })?.tracesUrl, 'https://t.example/in');
  });

  it('a bad value is a clear error that never shows a header value', () => {
    assert.throws(() => telemetryFromEnv({ MCP_TOOL_HOST_OTEL: 'yes' }), /MCP_TOOL_HOST_OTEL must be 1 or true/);
    assert.throws(() => telemetryFromEnv({ MCP_TOOL_HOST_OTEL: '1', OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://x' }), /OTEL_EXPORTER_OTLP_ENDPOINT must be an http:\/\/ or https:\/\/ URL/);
    assert.throws(() => telemetryFromEnv({ MCP_TOOL_HOST_OTEL: '1', OTEL_EXPORTER_OTLP_ENDPOINT: 'https://user:hunter2pass@x' }), (err: Error) => err instanceof TelemetrySettingsError && !err.message.includes('hunter2pass'));
    assert.throws(() => telemetryFromEnv({ MCP_TOOL_HOST_OTEL: '1', OTEL_EXPORTER_OTLP_HEADERS: 'sk-secret-value-only' }), (err: Error) => /key=value/.test(err.message) && !err.message.includes('sk-secret'));
  });

  it('VS Code: header values may name an environment variable; one not set is named, never guessed', () => {
    const settings = telemetryFromSettings({ endpoint: 'https://otel.example', headers: { authorization: 'Bearer ${env:OTEL_TOKEN}' }, exportContent: ['notes', 3] }, { OTEL_TOKEN: 't0ken-value' });
    assert.deepEqual(settings.headers, { authorization: 'Bearer t0ken-value' });
    assert.deepEqual([...settings.exportContent], ['notes']);
    assert.equal(telemetryFromSettings({}, {}).tracesUrl, 'http://localhost:4318/v1/traces');
    assert.throws(() => telemetryFromSettings({ headers: { authorization: '${env:MISSING_TOKEN}' } }, {}), /names the environment variable MISSING_TOKEN, which is not set/);
    assert.throws(() => telemetryFromSettings({ headers: ['x'] }, {}), /must be an object/);
  });
});
