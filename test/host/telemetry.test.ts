import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import type { CallOutcome } from '../../src/core/calls/callPipeline';
import { startOtlpCollector, type OtlpCollector } from '../fixtures/otlpCollector';
import { until } from './wait';

const config = () => vscode.workspace.getConfiguration('mcpToolHost');
const { Global } = vscode.ConfigurationTarget;

describe('OpenTelemetry in VS Code: user settings only, turned on as they change', () => {
  let api: McpToolHostApi;
  let collector: OtlpCollector;
  const call = (tool: string, args: Record<string, unknown>) => vscode.commands.executeCommand<CallOutcome>('mcpToolHost.callTool', { server: 'demo', tool, args });

  before(async () => {
    collector = await startOtlpCollector();
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    await vscode.commands.executeCommand('mcpToolHost.addDemoServer');
    await until('demo running', () => api.pool.get('demo')?.state.kind === 'running' && api.pool.get('demo')!.tools.length > 0);
  });
  after(async () => {
    for (const key of ['telemetry.enabled', 'telemetry.endpoint']) await config().update(key, undefined, Global);
    await config().update('servers', undefined, Global);
    await collector.close();
  });

  it("off by default; the user's settings turn it on at once (the settings are application-scoped: a repository cannot set them)", async () => {
    assert.equal((await call('list_notes', {})).kind, 'ok');
    await config().update('telemetry.endpoint', collector.url, Global);
    await config().update('telemetry.enabled', true, Global);
    assert.equal((await call('read_note', { name: 'shopping' })).kind !== 'denied', true);
    const span = await collector.waitForSpan((s) => s.name === 'tools/call read_note');
    assert.equal(span.attributes['mcp_tool_host.server.name'], 'demo');
    assert.ok(['tree', 'palette'].includes(String(span.attributes['mcp_tool_host.call.origin'])));
    assert.ok(!('gen_ai.tool.call.arguments' in span.attributes));
    // The first call ran while telemetry was off: it was never exported.
    assert.ok(!collector.spans.some((s) => s.name === 'tools/call list_notes'), collector.spans.map((s) => s.name).join(', '));
  });
});
