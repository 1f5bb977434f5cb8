import type { Transport } from '@modelcontextprotocol/client';
import { loadElicitation } from '../elicitation/load';
import { loadTransport } from '../transport/load';
import type { RawToolResult } from '../render/renderResult';
import { StdioTransport } from '../transport/stdioTransport';
import type { LaunchAttempt } from './launchAttempt';
import type { CallInFlight, PromptGate } from './promptGate';
import type { SdkClient } from './sdkClient';
import { ServerFailure, serverEnd } from './serverFailures';
import { McpHostError } from '../errors';
import type { CallSignal } from '../callSignal';

/**
 * The frame of one call (or followed task) in a running launch: its prompts are its own until it
 * ends (promptGate.ts), a refused token signs in again (LaunchAttempt.withSignIn), a sandboxed
 * server's tool error says what the sandbox denied, and a server that died during it is named.
 * A call's prompts close at once when the caller aborts it (PromptGate.begin's `cancelledBy`).
 */
export function inCallFrame(attempt: LaunchAttempt, client: SdkClient, gate: PromptGate, call: CallInFlight, signal: CallSignal | undefined, info: (message: string) => void, send: () => Promise<RawToolResult>): Promise<RawToolResult> {
  // No async frame and no listener of its own: every call runs this (BENCHMARKS.md case 2).
  const transport = attempt.transport;
  const began = Date.now();
  const failed = (err: unknown): never => {
    gate.end(call, loadElicitation().callEndOf(err, signal, attempt.client !== client));
    // A restart of ours (dev mode) ended the session: say that, not how the process was stopped.
    if (attempt.endReason) throw new McpHostError(attempt.endReason, { cause: err });
    // The SDK only says "Connection closed": say how the server ended, from the transport we called through.
    throw ServerFailure.duringCall(serverEnd(transport), err) ?? err;
  };
  return attempt.withSignIn(send, info).then((result) => {
    let noted: RawToolResult;
    try {
      noted = withSandboxNotes(result, transport, began);
    } catch (err) {
      return failed(err);
    }
    gate.end(call, 'finished');
    return noted;
  }, failed);
}

/**
 * A tool error of a sandboxed server, with what the sandbox denied during the call added as a
 * text block of ours: every surface shows the result's text, so each says it.
 */
function withSandboxNotes(result: RawToolResult, transport: Transport | undefined, since: number): RawToolResult {
  const fence = transport instanceof StdioTransport ? transport.fence : undefined;
  if (!fence || !('content' in result) || result.isError !== true || !Array.isArray(result.content)) return result;
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
  const notes = loadTransport().explainToolFailure(text, fence, since);
  return notes.length ? { ...result, content: [...result.content, { type: 'text', text: `[MCP Tool Host] ${notes.join(' ')}` }] } : result;
}

/** For a server that ran in a sandbox, the denial its stderr shows as the likely cause of its failure (sandbox.ts), as a sentence to add. */
export function sandboxCause(transport: Transport | undefined, stderr: readonly string[]): string {
  const denial = transport instanceof StdioTransport && transport.sandboxed ? loadTransport().sandboxDenial(stderr) : undefined;
  return denial ? ` ${denial}` : '';
}
