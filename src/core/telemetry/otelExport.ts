// Telemetry through OpenTelemetry: spans and metrics sent over OTLP/HTTP. Loaded only when
// telemetry is on (dist/telemetry.js in the extension; reached through loadTelemetry()).
// Attribute names are the OpenTelemetry semantic conventions for MCP (mcp.*, gen_ai.*, error.type);
// ours, where they have none, are under mcp_tool_host.*.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { NO_SPAN, type CallEnd, type CallSpan, type CallStart, type LifecycleEvent, type RequestSpan, type RequestStart, type ServerFacts, type Telemetry } from './telemetry';
import { remoteParent, requestError } from './traceContext';
import type { TelemetrySettings } from './telemetrySettings';
import { callRecord, capped } from './callRecord';
import { serverFacts } from './serverWatch';

/** How long one export may take, and how long shutting down may wait for the last one. */
const EXPORT_TIMEOUT_MS = 5_000;
const SHUTDOWN_WAIT_MS = 3_000;
/** Spans kept while the collector is slow or down; more are dropped (never a call held up). */
const MAX_QUEUED_SPANS = 2_048;
const SPAN_DELAY_MS = 1_000;
const METRIC_INTERVAL_MS = 15_000;
/** The buckets the semantic conventions give mcp.client.operation.duration and mcp.client.session.duration (seconds). */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

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
  const operationDuration = meter.createHistogram('mcp.client.operation.duration', { unit: 's', description: 'The duration of the MCP request or notification as observed on the sender from the time it was sent until the response or ack is received.', advice: { explicitBucketBoundaries: DURATION_BUCKETS } });
  const sessionDuration = meter.createHistogram('mcp.client.session.duration', { unit: 's', description: 'The duration of the MCP session as observed on the MCP client.', advice: { explicitBucketBoundaries: DURATION_BUCKETS } });
  const lifecycleEvents = meter.createCounter('mcp_tool_host.server.lifecycle', { description: 'Servers started, crashed and stopped.' });

  function startCallSpan(start: CallStart): CallSpan {
    const began = performance.now();
    const facts = start.connection ? serverFacts(start.connection) : { server: start.server, transport: 'stdio' as const };
    const server = serverAttributes(facts);
    const span = tracer.startSpan(
      `tools/call ${start.tool}`,
      { kind: SpanKind.CLIENT, attributes: { ...server, ...sessionAttributes(facts, settings.exportContent.has(start.server)), 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': start.tool, 'mcp_tool_host.call.origin': start.origin } },
      parentContext(start.parent),
    );
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
      operationDuration.record((performance.now() - began) / 1000, { ...server, 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': start.tool, ...(record.errorType !== undefined && { 'error.type': record.errorType }), ...(record.statusCode !== undefined && { 'rpc.response.status_code': record.statusCode }) });
    };
    return {
      traceparent: traceparentOf(span),
      end(end: CallEnd) {
        try {
          endSpan(end);
        } catch {
          // The call has its outcome; the span is lost, nothing else.
        }
      },
    };
  }

  function startRequestSpan(facts: ServerFacts, request: RequestStart): RequestSpan {
    const began = performance.now();
    const content = settings.exportContent.has(facts.server);
    const target: Attributes = { ...serverAttributes(facts), 'mcp.method.name': request.method, ...(request.prompt !== undefined && { 'gen_ai.prompt.name': request.prompt }) };
    const span = tracer.startSpan(request.prompt === undefined ? request.method : `${request.method} ${request.prompt}`, {
      kind: SpanKind.CLIENT,
      attributes: { ...target, ...sessionAttributes(facts, content), ...(content && request.uri !== undefined && { 'mcp.resource.uri': capped(request.uri) }) },
    });
    let ended = false;
    return {
      traceparent: traceparentOf(span),
      end(error?: unknown) {
        if (ended) return;
        ended = true;
        try {
          const failed = error === undefined ? undefined : requestError(error);
          if (failed) {
            span.setAttributes({ 'error.type': failed.type, ...(failed.code !== undefined && { 'rpc.response.status_code': failed.code }) });
            // The error's text may quote what was asked: only where the user exports this server's content.
            span.setStatus({ code: SpanStatusCode.ERROR, message: content ? capped(failed.message) : failed.type });
          }
          span.end();
          operationDuration.record((performance.now() - began) / 1000, { ...target, ...(failed && { 'error.type': failed.type }), ...(failed?.code !== undefined && { 'rpc.response.status_code': failed.code }) });
        } catch {
          // The request has its answer; the span is lost, nothing else.
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
    startRequest(facts, request) {
      try {
        return startRequestSpan(facts, request);
      } catch {
        return NO_SPAN;
      }
    },
    listing(facts, record) {
      const endTime = Date.now();
      const span = tracer.startSpan('tools/list', { kind: SpanKind.CLIENT, startTime: endTime - record.durationMs, attributes: { ...serverAttributes(facts), ...sessionAttributes(facts, settings.exportContent.has(facts.server)), 'mcp.method.name': 'tools/list', ...(record.tools !== undefined && { 'mcp_tool_host.tools.count': record.tools }) } });
      if (record.error !== undefined) {
        span.setAttribute('error.type', '_OTHER');
        span.setStatus({ code: SpanStatusCode.ERROR, message: record.error });
      }
      span.end(endTime);
      operationDuration.record(record.durationMs / 1000, { ...serverAttributes(facts), 'mcp.method.name': 'tools/list', ...(record.error !== undefined && { 'error.type': '_OTHER' }) });
    },
    lifecycle(facts, event: LifecycleEvent, record) {
      const endTime = Date.now();
      const server = serverAttributes(facts);
      // A start is the conventions' `initialize` (CLIENT), from the launch (a process spawned, a connection
      // opened) to the initialized handshake; a crash or a stop ends the session (mcp.client.session.duration).
      const initialize = event === 'start';
      const errorType = record.error === undefined ? undefined : event === 'crash' ? 'server_crash' : '_OTHER';
      const span = tracer.startSpan(initialize ? 'initialize' : `server ${event}`, {
        kind: initialize ? SpanKind.CLIENT : SpanKind.INTERNAL,
        startTime: endTime - (record.durationMs ?? 0),
        attributes: { ...server, ...sessionAttributes(facts, settings.exportContent.has(facts.server)), ...(initialize && { 'mcp.method.name': 'initialize' }), 'mcp_tool_host.server.event': event },
      });
      if (errorType !== undefined) {
        span.setAttribute('error.type', errorType);
        span.setStatus({ code: SpanStatusCode.ERROR, message: record.error });
      }
      span.end(endTime);
      lifecycleEvents.add(1, { 'mcp_tool_host.server.event': event, ...(errorType !== undefined && { 'error.type': errorType }) });
      if (initialize) operationDuration.record((record.durationMs ?? 0) / 1000, { ...server, 'mcp.method.name': 'initialize', ...(errorType !== undefined && { 'error.type': errorType }) });
      if (record.sessionMs !== undefined) sessionDuration.record(record.sessionMs / 1000, { ...server, ...(errorType !== undefined && { 'error.type': errorType }) });
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
  if (facts.transport === 'http') attributes['network.protocol.name'] = 'http';
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

/** An `Mcp-Session-Id` as the MCP specification allows it: visible ASCII; and one of a sane length. */
const SESSION_ID = /^[\x21-\x7e]{1,256}$/;

/**
 * The conventions' `mcp.session.id`, on spans only (as a metric attribute it would be a series per
 * session). Only for a server whose content the user exports: the id lets whoever holds it speak in
 * the session, and the server chose it (one that breaks the specification's form is left out).
 */
function sessionAttributes(facts: ServerFacts, content: boolean): Attributes {
  const id = facts.sessionId;
  return content && id !== undefined && SESSION_ID.test(id) ? { 'mcp.session.id': id } : {};
}

/** The W3C `traceparent` of `span`, for a request's `_meta`. */
function traceparentOf(span: Span): string {
  const context = span.spanContext();
  return `00-${context.traceId}-${context.spanId}-${(context.traceFlags & 1) === 1 ? '01' : '00'}`;
}

/** The context a call's span starts in: the caller's trace when it sent a valid `traceparent`, else a new trace. */
function parentContext(traceparent: string | undefined): Context {
  const parent = remoteParent(traceparent);
  return parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
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
