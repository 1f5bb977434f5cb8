import type { ServerLog } from '../serverLog';
import type { ElicitationCompletions } from '../elicitation/urlElicitation';
import { answerElicitation, type AskForCalls, type AskUser, type OpenedPages } from './elicitationRequests';
import type { CallInFlight, PromptGate, PromptSource } from './promptGate';
import { SAMPLING_DECLINED, samplingParams, type SampleForCalls } from './samplingRequests';

/**
 * How what a server asks during a call reaches the user: a -32042 error's links, a 2026-07-28
 * `input_required` round, a task's input requests. Each goes through the gate (promptGate.ts),
 * so it counts against its call's share; without a way to ask, a form is declined.
 */
export class CallPrompts {
  constructor(
    private readonly _elicit: AskForCalls | undefined,
    private readonly _gate: PromptGate,
    private readonly _roots: (() => { uri: string; name?: string }[]) | undefined,
    private readonly _log: ServerLog,
    private readonly _completions: ElicitationCompletions,
    private readonly _sample?: SampleForCalls,
  ) {}

  /** How a prompt of `source` reaches the user, through the gate. Undefined: the host does not ask. */
  askFor(source: PromptSource): AskUser | undefined {
    const elicit = this._elicit;
    if (!elicit) return undefined;
    return (asked) => {
      const admitted = this._gate.admit(source);
      return admitted ? elicit(asked, admitted) : Promise.resolve({ action: 'decline' });
    };
  }

  /**
   * One request a task or a 2026-07-28 call embeds (MRTR): a form or a link goes to the same prompt
   * as `elicitation/create`; roots are the workspace folders; sampling goes where `sampling/createMessage`
   * does, through the same gate (only the gateway has a way to answer it). With
   * `pages`, the request is sent again once each page opened is done (a 2026-07-28 input round).
   */
  async answerInput(request: { kind: string; params?: unknown }, call: CallInFlight | undefined, taskId: string | undefined, pages?: OpenedPages): Promise<unknown> {
    // The call's own, counted against its share; without a call to name (never expected), judged as a request naming its task.
    const named = taskId === undefined ? {} : { _meta: { 'io.modelcontextprotocol/related-task': { taskId } } };
    const source: PromptSource = call ? { kind: 'call', call } : { kind: 'request', params: named };
    if (request.kind === 'elicitation') {
      const elicit = this._elicit;
      // The gate first, as for elicitation/create: what it declines is not read.
      const admitted = elicit && this._gate.admit(source);
      return admitted ? answerElicitation(request.params, (asked) => elicit(asked, admitted), this._log, this._completions, undefined, pages) : { action: 'decline' };
    }
    if (request.kind === 'roots' && this._roots) return { roots: this._roots() };
    if (request.kind === 'sampling' && this._sample) {
      const admitted = this._gate.admit(source);
      if (!admitted) throw new Error(SAMPLING_DECLINED);
      const params = samplingParams(request.params);
      if (typeof params === 'string') throw new Error(`The server embedded a sampling request the host cannot pass on: ${params}.`);
      return this._sample(params, admitted, undefined);
    }
    throw new Error(`The server asked for ${request.kind === 'roots' ? 'the roots' : 'sampling'}, which the host does not offer it.`);
  }

  /** At the call's total limit a prompt of it still open is closed, so the call ends on time. */
  endAtLimit(call: CallInFlight, ms: number): () => void {
    const limit = setTimeout(() => this._gate.end(call, 'timed-out'), ms);
    return () => clearTimeout(limit);
  }
}
