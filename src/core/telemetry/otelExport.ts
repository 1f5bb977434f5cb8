// Telemetry through OpenTelemetry: spans and metrics sent over OTLP/HTTP. Loaded only when
// telemetry is on (dist/telemetry.js in the extension; reached through loadTelemetry()).
// Attribute names are the OpenTelemetry semantic conventions for MCP (mcp.*, gen_ai.*, error.type);
// ours, where they have none, are under mcp_tool_host.*.
import { SpanKind, SpanStatusCode, type Attributes } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { NO_SPAN, type CallEnd, type CallSpan, type CallStart, type LifecycleEvent, type ServerFacts, type Telemetry } from './telemetry';
import type { TelemetrySettings } from './telemetrySettings';
import { callRecord } from './callRecord';
import { serverFacts } from './serverWatch';

/** How long one export may take, and how long shutting down may wait for the last one. */
const EXPORT_TIMEOUT_MS = 5_000;
const SHUTDOWN_WAIT_MS = 3_000;
/** Spans kept while the collector is slow or down; more are dropped (never a call held up). */
const MAX_QUEUED_SPANS = 2_048;
const SPAN_DELAY_MS = 1_000;
const METRIC_INTERVAL_MS = 15_000;

/** Starts exporting; `log` hears one line when exports begin to fail and one when they work again. */
export function startOtelTelemetry(settings: TelemetrySettings, log: (line: string) => void): Telemetry {
  const resource = resourceFromAttributes({ 'service.name': settings.serviceName });
  const health = new ExportHealth(log);
  const spanExporter = guarded(new OTLPTraceExporter({ url: settings.tracesUrl, headers: { ...settings.headers }, timeoutMillis: EXPORT_TIMEOUT_MS, concurrencyLimit: 4 }), health, 'spans');
  const tracerProvider = new BasicTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(spanExporter, { maxQueueSize: MAX_QUEUED_SPANS, maxExportBatchSize: 256, scheduledDelayMillis: SPAN_DELAY_MS, exportTimeoutMillis: EXPORT_TIMEOUT_MS })],
  });
  const metricExporter = guarded(new OTLPMetricExporter({ url: settings.metricsUrl, headers: { ...settings.headers }, timeoutMillis: EXPORT_TIMEOUT_MS, concurrencyLimit: 2 }), health, 'metrics');
  const meterProvider = new MeterProvider({ resource, readers: [new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: METRIC_INTERVAL_MS, exportTimeoutMillis: EXPORT_TIMEOUT_MS })] });
  const tracer = tracerProvider.getTracer('mcp-tool-host');
  const meter = meterProvider.getMeter('mcp-tool-host');
  const operationDuration = meter.createHistogram('mcp.client.operation.duration', { unit: 's', description: 'The duration of an MCP request as the client sees it.' });
  const lifecycleEvents = meter.createCounter('mcp_tool_host.server.lifecycle', { description: 'Servers started, crashed and stopped.' });

  function startCallSpan(start: CallStart): CallSpan {
    const began = performance.now();
    const span = tracer.startSpan(`tools/call ${start.tool}`, {
      kind: SpanKind.CLIENT,
      attributes: { ...serverAttributes(start.connection ? serverFacts(start.connection) : { server: start.server, transport: 'stdio' }), 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': start.tool, 'mcp_tool_host.call.origin': start.origin },
    });
    const endSpan = (end: CallEnd) => {
      const record = callRecord(end, settings.exportContent.has(start.server));
      const attributes: Attributes = { 'mcp_tool_host.call.outcome': record.outcome, 'mcp_tool_host.call.decision': record.decision };
      if (record.errorType !== undefined) attributes['error.type'] = record.errorType;
      if (record.statusCode !== undefined) attributes['rpc.response.status_code'] = record.statusCode;
      if (record.arguments !== undefined) attributes['gen_ai.tool.call.arguments'] = record.arguments;
      if (record.result !== undefined) attributes['gen_ai.tool.call.result'] = record.result;
      span.setAttributes(attributes);
      // The status's description is the error's text only where content is exported: else the kind of error.
      if (record.errorType !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: record.errorMessage ?? record.errorType });
      span.end();
      operationDuration.record((performance.now() - began) / 1000, { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': start.tool, ...(record.errorType !== undefined && { 'error.type': record.errorType }) });
    };
    const context = span.spanContext();
    return {
      traceparent: `00-${context.traceId}-${context.spanId}-${(context.traceFlags & 1) === 1 ? '01' : '00'}`,
      end(end: CallEnd) {
        try {
          endSpan(end);
        } catch {
          // The call has its outcome; the span is lost, nothing else.
        }
      },
    };
  }

  return {
    startCall(start: CallStart): CallSpan {
      // Telemetry never fails a call: a fault here loses the span, nothing else.
      try {
        return startCallSpan(start);
      } catch {
        return NO_SPAN;
      }
    },
        listing(facts, record) {
      const endTime = Date.now();
      const span = tracer.startSpan('tools/list', { kind: SpanKind.CLIENT, startTime: endTime - record.durationMs, attributes: { ...serverAttributes(facts), 'mcp.method.name': 'tools/list', ...(record.tools !== undefined && { 'mcp_tool_host.tools.count': record.tools }) } });
      if (record.error !== undefined) {
        span.setAttribute('error.type', '_OTHER');
        span.setStatus({ code: SpanStatusCode.ERROR, message: record.error });
      }
      span.end(endTime);
      operationDuration.record(record.durationMs / 1000, { 'mcp.method.name': 'tools/list', ...(record.error !== undefined && { 'error.type': '_OTHER' }) });
    },
    lifecycle(facts, event: LifecycleEvent, record) {
      const endTime = Date.now();
      const span = tracer.startSpan(`server ${event}`, { kind: SpanKind.INTERNAL, startTime: endTime - (record.durationMs ?? 0), attributes: { ...serverAttributes(facts), 'mcp_tool_host.server.event': event } });
      if (record.error !== undefined) {
        span.setAttribute('error.type', event === 'crash' ? 'server_crash' : '_OTHER');
        span.setStatus({ code: SpanStatusCode.ERROR, message: record.error });
      }
      span.end(endTime);
      lifecycleEvents.add(1, { 'mcp_tool_host.server.event': event });
    },
    async shutdown() {
      const done = Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, SHUTDOWN_WAIT_MS)))]);
      clearTimeout(timer);
    },
  };
}

/** What every record of a server carries; an HTTP server's host and port, never its path or query. */
function serverAttributes(facts: ServerFacts): Attributes {
  const attributes: Attributes = { 'mcp_tool_host.server.name': facts.server, 'network.transport': facts.transport === 'stdio' ? 'pipe' : 'tcp' };
  if (facts.protocolVersion !== undefined) attributes['mcp.protocol.version'] = facts.protocolVersion;
  if (facts.url !== undefined) {
    try {
      const url = new URL(facts.url);
      attributes['server.address'] = url.hostname;
      attributes['server.port'] = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    } catch {
      // A URL that does not parse gives no address; the server's name is there.
    }
  }
  return attributes;
}

/** Tells of failing exports once, not once an export: a collector that is down would fill the log. */
class ExportHealth {
  private _failing = false;
  constructor(private readonly _log: (line: string) => void) {}

  report(signal: string, ok: boolean, error: Error | undefined): void {
    if (ok && this._failing) {
      this._failing = false;
      this._log('telemetry: exporting works again.');
    } else if (!ok && !this._failing) {
      this._failing = true;
      // The error's message only: it names neither the headers nor their values.
      this._log(`telemetry: could not export ${signal} (${error?.message ?? 'no reason given'}); what cannot be sent is dropped, and this is not repeated until an export works again.`);
    }
  }
}

/** ExportResultCode.SUCCESS of @opentelemetry/core, which this file does not otherwise need. */
const EXPORT_SUCCESS = 0;

/** The exporter, with each export's result reported to `health`. */
function guarded<T extends { export(items: never, done: (result: { code: number; error?: Error }) => void): void }>(exporter: T, health: ExportHealth, signal: string): T {
  const send = exporter.export.bind(exporter) as (items: unknown, done: (result: { code: number; error?: Error }) => void) => void;
  (exporter as unknown as { export: typeof send }).export = (items, done) =>
    send(items, (result) => {
      health.report(signal, result.code === EXPORT_SUCCESS, result.error);
      done(result);
    });
  return exporter;
}
