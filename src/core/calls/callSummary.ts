import type { CallOutcome } from './callTypes';
import { problemText } from '../tools/schemaProblems';

/** The closing line of a call, as every sink prints it. */
export function summarize(outcome: CallOutcome): string {
  return summaryParts(outcome).join('');
}

/** `summarize` in pieces, the result's text a piece of its own (CallSink.end). */
export function summaryParts(outcome: CallOutcome): readonly string[] {
  switch (outcome.kind) {
    case 'ok':
      return [`result (${Math.round(outcome.durationMs)} ms):\n`, ...(outcome.result.pieces ?? [outcome.result.text])];
    case 'tool-error':
      return [`tool error (the tool reported isError, ${Math.round(outcome.durationMs)} ms):\n`, ...(outcome.result.pieces ?? [outcome.result.text])];
    default:
      return [summaryLine(outcome)];
  }
}

function summaryLine(outcome: Exclude<CallOutcome, { kind: 'ok' | 'tool-error' }>): string {
  switch (outcome.kind) {
    case 'invalid-arguments':
      return `not sent: the arguments do not match the tool's input schema:\n${outcome.problems.map((p) => `  - ${problemText(p)}`).join('\n')}`;
    case 'denied':
      return outcome.rule ? `not sent: ${outcome.rule}.` : 'not sent: the user denied this call.';
    case 'cancelled':
      return 'cancelled by user.';
    case 'input-required':
      return 'input required: the server asked for input, passed to the caller\'s client.';
    case 'protocol-error':
      return `protocol error ${outcome.code}: ${outcome.message}`;
    case 'timeout':
      return `timed out: ${outcome.message}`;
    case 'failed':
      return `failed: ${outcome.message}`;
  }
}
