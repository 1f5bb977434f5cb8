import { randomUUID } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerPool } from '../connection/serverPool';
import { Emitter } from '../events';
import { effectiveAnnotations, badgeWords } from '../tools/annotations';
import type { SchemaValidator } from '../tools/schemaValidator';
import { approvalNeed } from '../policy/approvalPolicy';
import { renderResult, type BinarySaver, type RenderedResult } from '../render/renderResult';
import { sanitizeLine } from '../render/sanitize';
import type { Approver, CallOrigin, CallSink } from './ports';

export interface CallRequest {
  readonly server: string;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly origin: CallOrigin;
  readonly signal?: AbortSignal;
  /** Progress for the caller's own UI (a notification, a chat response), besides the sink. */
  readonly onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/** How a call ended; every surface reports exactly one of these. */
export type CallOutcome =
  | { readonly kind: 'ok'; readonly result: RenderedResult; readonly durationMs: number }
  | { readonly kind: 'tool-error'; readonly result: RenderedResult; readonly durationMs: number }
  | { readonly kind: 'invalid-arguments'; readonly problems: readonly string[] }
  | { readonly kind: 'denied' }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'failed'; readonly message: string };

export interface CallPipelineOptions {
  readonly approveAll?: () => boolean;
  readonly saveBinary?: BinarySaver;
}

/**
 * The one way to call a tool: validate -> approve -> invoke -> render. Nothing reaches the
 * server before the arguments are valid and, where needed, the user has approved.
 */
export class CallPipeline {
  private _callsInFlight = 0;
  private readonly _onDidChangeCallsInFlight = new Emitter<number>();
  /** Fires with the number of calls between begin and end (the status bar shows it). */
  readonly onDidChangeCallsInFlight = this._onDidChangeCallsInFlight.event;

  constructor(
    private readonly _pool: ServerPool,
    private readonly _validator: SchemaValidator,
    private readonly _approver: Approver,
    private readonly _sink: CallSink,
    private readonly _options: CallPipelineOptions = {},
  ) {}

  /** Checks arguments against the tool's input schema; problems name the field and why. */
  validateArguments(tool: Tool, args: unknown): { problems: string[]; warning?: string } {
    const compiled = this._validator.compile(tool.inputSchema);
    if (!compiled.ok) return { problems: [], warning: `The tool's input schema does not compile (${compiled.error}); arguments were not checked.` };
    const check = compiled.check(args);
    return { problems: check.valid ? [] : check.problems };
  }

  /** Calls begun and not yet ended (waiting for approval, or running). */
  get callsInFlight(): number {
    return this._callsInFlight;
  }

  async call(request: CallRequest): Promise<CallOutcome> {
    const callId = randomUUID().slice(0, 8);
    const sink = this._sink;
    sink.begin({ callId, server: request.server, tool: request.tool, origin: request.origin, args: request.args, startedAt: new Date() });
    this._onDidChangeCallsInFlight.fire(++this._callsInFlight);
    const outcome = await this._run(callId, request).finally(() => this._onDidChangeCallsInFlight.fire(--this._callsInFlight));
    sink.end(callId, summarize(outcome));
    return outcome;
  }

  private async _run(callId: string, request: CallRequest): Promise<CallOutcome> {
    const sink = this._sink;
    const found = this._pool.findTool(request.server, request.tool);
    if (!found) {
      const connection = this._pool.get(request.server);
      const message = connection
        ? connection.state.kind === 'running'
          ? `Server "${request.server}" has no tool named "${request.tool}".`
          : `Server "${request.server}" is not running (${connection.state.kind}).`
        : `No server named "${request.server}" is configured.`;
      return { kind: 'failed', message };
    }
    const { connection, tool } = found;

    const { problems, warning } = this.validateArguments(tool, request.args);
    if (warning) sink.line(callId, `warning: ${warning}`);
    if (problems.length > 0) return { kind: 'invalid-arguments', problems };

    const annotations = effectiveAnnotations(tool, connection.definition.trustAnnotations);
    const need = approvalNeed(annotations, { approveAll: this._options.approveAll?.() });
    if (need.kind === 'required') {
      const decision = await this._approver.approve({ server: request.server, tool, args: request.args, annotations, reasons: need.reasons, origin: request.origin });
      sink.line(callId, `approval: ${decision === 'deny' ? 'denied by user' : 'allowed once'} [${badgeWords(annotations).join(', ')}]`);
      if (decision === 'deny') return { kind: 'denied' };
    } else {
      sink.line(callId, `approval: not needed [${badgeWords(annotations).join(', ')}]`);
    }
    if (request.signal?.aborted) return { kind: 'cancelled' };

    const started = performance.now();
    try {
      const raw = await connection.callTool(request.tool, request.args, {
        signal: request.signal,
        onprogress: (p) => {
          const clean = { progress: p.progress, total: p.total, message: p.message === undefined ? undefined : sanitizeLine(p.message) };
          sink.progress(callId, clean);
          request.onProgress?.(clean);
        },
        timeoutMs: connection.definition.timeoutSeconds * 1000,
        maxTotalTimeoutMs: connection.definition.maxTotalTimeoutSeconds * 1000,
      });
      const result = await renderResult(raw, this._options.saveBinary);
      const durationMs = performance.now() - started;
      return { kind: result.isError ? 'tool-error' : 'ok', result, durationMs };
    } catch (err) {
      // The SDK reports a user abort with the timeout code: the signal tells us who stopped it.
      if (request.signal?.aborted) return { kind: 'cancelled' };
      return { kind: 'failed', message: err instanceof Error ? sanitizeLine(err.message) : String(err) };
    }
  }
}

/** The closing line of a call, as every sink prints it. */
export function summarize(outcome: CallOutcome): string {
  switch (outcome.kind) {
    case 'ok':
      return `result (${Math.round(outcome.durationMs)} ms):\n${outcome.result.text}`;
    case 'tool-error':
      return `tool error (isError, ${Math.round(outcome.durationMs)} ms):\n${outcome.result.text}`;
    case 'invalid-arguments':
      return `not sent: the arguments do not match the tool's input schema:\n${outcome.problems.map((p) => `  - ${p}`).join('\n')}`;
    case 'denied':
      return 'not sent: the user denied this call.';
    case 'cancelled':
      return 'cancelled by user.';
    case 'failed':
      return `failed: ${outcome.message}`;
  }
}
