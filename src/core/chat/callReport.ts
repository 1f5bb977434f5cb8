import type { CallOutcome } from '../calls/callPipeline';
import { cutForModel, mdCode, mdText, shortArgs } from './markdown';
import { problemText } from '../tools/schemaProblems';
import { shownName } from '../render/sanitize';

/** The most characters of one result a model gets (the output channel has the whole result). */
export const MAX_RESULT_CHARS_FOR_MODEL = 60_000;
const FULL_RESULT = 'the "MCP Tool Host" output channel';

/**
 * What the model is told a call did. Every outcome is text: a failing tool is something the
 * model can explain or work around, never an exception. Denials say plainly that nothing was
 * sent and that the model must not retry.
 */
export function toolResultText(outcome: CallOutcome): string {
  switch (outcome.kind) {
    case 'ok': {
      const text = cutForModel(outcome.result, MAX_RESULT_CHARS_FOR_MODEL, FULL_RESULT);
      return outcome.outputWarning ? `${text}\n\nWarning from the host: ${outcome.outputWarning} Do not rely on the structured result.` : text;
    }
    case 'tool-error':
      return `The tool reported an error:\n${cutForModel(outcome.result, MAX_RESULT_CHARS_FOR_MODEL, FULL_RESULT)}`;
    case 'invalid-arguments':
      return `Not sent: the arguments do not match the tool's input schema:\n${outcome.problems.map((p) => `- ${problemText(p)}`).join('\n')}\nFix the arguments and call the tool again.`;
    case 'denied':
      if (outcome.rule) return `The user's rules refused this call (${outcome.rule}); it was not sent. Do not call this tool again with these arguments for this request; tell the user which rule refused it.`;
      return 'The user denied this call; it was not sent. Do not call this tool again for this request; tell the user the call was denied.';
    case 'cancelled':
      return 'The user cancelled this call.';
    case 'input-required':
      return 'The server asked for input that this host did not give; the call did not complete.';
    case 'protocol-error':
      return `The server answered with an error (${outcome.code}): ${outcome.message}`;
    case 'timeout':
      return `The call timed out: ${outcome.message}`;
    case 'failed':
      return `The call failed: ${outcome.message}`;
  }
}

/** How a call ended, in a few words for the chat answer. */
export function outcomeWords(outcome: CallOutcome): string {
  switch (outcome.kind) {
    case 'ok':
      return `done (${Math.round(outcome.durationMs)} ms)${outcome.result.files.length ? `, ${outcome.result.files.length} file(s) saved` : ''}`;
    case 'tool-error':
      return `the tool reported an error (${Math.round(outcome.durationMs)} ms)`;
    case 'invalid-arguments':
      return 'not sent: the arguments do not match the schema';
    case 'denied':
      return outcome.rule ? `**${mdText(outcome.rule)}**: not sent` : '**denied by you**: not sent';
    case 'cancelled':
      return 'cancelled';
    case 'input-required':
      return 'the server asked for input: not completed';
    case 'protocol-error':
      return `protocol error ${outcome.code}: ${mdText(outcome.message)}`;
    case 'timeout':
      return `timed out: ${mdText(outcome.message)}`;
    case 'failed':
      return `failed: ${mdText(outcome.message)}`;
  }
}

/** One line of the answer per call: server, tool, short arguments, outcome. */
export function callLine(server: string, tool: string, args: unknown, outcome: CallOutcome | string): string {
  const how = typeof outcome === 'string' ? outcome : outcomeWords(outcome);
  return `- ${mdText(shownName(server))} › ${mdCode(shownName(tool))} ${mdCode(shortArgs(args))}: ${how}\n`;
}
