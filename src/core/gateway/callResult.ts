import type { CallToolResult } from '@modelcontextprotocol/client';
import type { CallOutcome } from '../calls/callPipeline';
import type { RawToolResult, RenderedResult } from '../render/renderResult';
import { sanitizeLine } from '../render/sanitize';
import { problemText } from '../tools/schemaProblems';

/** What the gateway answers a client's tools/call with. */
export type GatewayCallResult = CallToolResult;

/** A tool error the model reads: nothing ran, and the sentence says why and what to do. */
export function toolError(text: string): GatewayCallResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The pipeline's outcome as the client's result: a result as the server sent it (secrets masked);
 * every other outcome a tool error whose text tells the model why nothing (or what) ran.
 */
export function callResult(outcome: CallOutcome, fit?: (result: GatewayCallResult, rendered: RenderedResult) => GatewayCallResult): GatewayCallResult {
  switch (outcome.kind) {
    case 'ok':
    case 'tool-error': {
      const forwarded = outcome.raw && fromRaw(outcome.raw);
      const result: GatewayCallResult = forwarded ?? { content: [{ type: 'text', text: outcome.result.text }] };
      const warning = outcome.kind === 'ok' ? outcome.outputWarning : undefined;
      const whole = outcome.kind === 'tool-error' ? { ...result, isError: true } : warning !== undefined ? brokenOutput(result, warning) : result;
      // Within the model's budget (resultBudget.ts): every way to a result passes here.
      return fit ? fit(whole, outcome.result) : whole;
    }
    case 'denied':
      return toolError(outcome.rule !== undefined ? `Not run: ${sanitizeLine(outcome.rule)}` : 'Not run: the user denied this call.');
    case 'invalid-arguments':
      return toolError(`Not sent: the arguments do not match the tool's input schema: ${outcome.problems.map(problemText).join('; ')}`);
    case 'cancelled':
      return toolError('Cancelled: the call was stopped before it ended.');
    case 'input-required':
      return toolError('Stopped: the server asked for input, and this client cannot be asked for it.');
    case 'timeout':
      return toolError(`Timed out: ${sanitizeLine(outcome.message)}`);
    case 'protocol-error':
      return toolError(`The server answered with an error (${outcome.code}): ${sanitizeLine(outcome.message)}`);
    case 'failed':
      // Once sent, a call may have run in part (a server that died during it): "Not run" would invite a retry.
      return toolError(outcome.sent ? `Failed after it was sent: ${sanitizeLine(outcome.message)} It may have run in part: check before calling it again.` : `Not run: ${sanitizeLine(outcome.message)}`);
  }
}

/**
 * A result whose structured part breaks the tool's outputSchema (or is missing): passed on as it
 * was, a client would refuse it whole (the SDK's client throws); flagged instead, as a tool error
 * with the content and what is wrong, without the structured part nobody should rely on.
 */
function brokenOutput(result: GatewayCallResult, warning: string): GatewayCallResult {
  const flagged = `The tool's result does not keep to its own output schema (the gateway checked it): ${sanitizeLine(warning)} Its content is above; do not rely on its structured result.`;
  return { content: [...result.content, { type: 'text', text: flagged }], isError: true };
}

/** Content and structured content of a raw result; a task-era `toolResult` or an odd shape is undefined (the rendered text is sent). */
function fromRaw(raw: RawToolResult): GatewayCallResult | undefined {
  if (!('content' in raw) || !Array.isArray(raw.content)) return undefined;
  const structured = raw.structuredContent;
  return { content: raw.content, ...(typeof structured === 'object' && structured !== null && !Array.isArray(structured) && { structuredContent: structured as Record<string, unknown> }) };
}
