import type { StandardSchemaV1, Tool } from '@modelcontextprotocol/client';
import type { TaskEnabledSession, ToolExecution } from '@modelcontextprotocol/ext-tasks/client' with { 'resolution-mode': 'import' };
import { loadConnection } from './load';
import type { RawToolResult } from '../render/renderResult';
import { withLinkConsent } from './elicitationRequests';
import { resultOf, type CallOptions, type EraSession, type TaskReference, type TaskStatus } from './eraClient';
import { taskEnded } from './taskEnded';
import type { CallInFlight } from './promptGate';
import { MAX_INPUT_ROUNDS } from './promptLimits';
import type { OpenedTaskSession } from './taskSession';
import { abortSignalOf } from '../callSignal';

/** The longest task id followed; a longer one is refused (and the board would not keep it either, taskBoard.ts). */
const MAX_TASK_ID = 200;

/** A result schema that accepts any answer: we check what we use ourselves (toolListing.ts, renderResult.ts). */
export const ANY_ANSWER: StandardSchemaV1<unknown, unknown> = { '~standard': { version: 1, vendor: 'mcp-tool-host', validate: (value) => ({ value }) } };
/** A result parser that takes any answer (the pipeline renders what it can, as for a plain call). */
const ANY_RESULT = { parse: (value: unknown) => ({ success: true as const, value }) };

/**
 * Calls run as tasks, in either era (the MCP Tasks package, taskSession.ts): the server answers at
 * once with a task, which is polled (`tasks/get`, at the server's interval within bounds) until it
 * ends, then its result fetched. Each request has the call's timeout; the task as a whole has
 * none, as a long job needs. A cancelled signal cancels the task on the server. With the
 * 2026-07-28 extension (`extension`) every call comes here and the server may answer at once
 * instead, or ask for input first (MRTR).
 */
export class TaskCalls {
  private _tasks: Promise<OpenedTaskSession<CallInFlight | undefined>> | undefined;

  constructor(
    private readonly _s: EraSession,
    private readonly _extension: { readonly protocolVersion: string } | undefined,
  ) {}

  async call(tool: Tool, args: Record<string, unknown>, taskSupport: 'required' | 'optional' | 'forbidden' | undefined, options: CallOptions, headers: Record<string, string>, call: CallInFlight): Promise<RawToolResult> {
    const session = await this._session();
    // The caller's signal stops the call before the task exists; after, it cancels the task (_settle).
    const beforeTask = new AbortController();
    const stop = () => beforeTask.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', stop, { once: true });
    if (options.signal?.aborted) stop();
    let execution: ToolExecution<unknown, CallInFlight | undefined>;
    // The package's requests bypass the SDK's progress tracking: a token of ours carries the call's progress.
    const progress = options.onprogress && this._s.raw.watchProgress(options.onprogress);
    const metadata = progress ? { ...options.meta, progressToken: progress.token } : options.meta;
    const send = () =>
      session.callTool(tool.name, args as never, {
        ...(metadata && { metadata }),
        declaration: { name: tool.name, inputSchema: tool.inputSchema as never, ...(taskSupport && { taskSupport }) },
        resultCodec: ANY_RESULT as never,
        // What the server asks during this call (input_required) is this call's (answerInput).
        applicationContext: call,
        signal: beforeTask.signal,
        // 2025-11-25: ask for a task; 2026-07-28: the server decides (the extension is declared in every call).
        task: { preference: this._extension ? 'allow' : 'prefer' },
        requestTimeoutMs: options.timeoutMs,
        resetTimeoutOnProgress: true,
        ...(Object.keys(headers).length > 0 && { headers }),
      });
    // A request naming a task may come before the task's id reaches us: until then it may be this call's (promptGate.ts).
    call.becomingTask = true;
    try {
      execution = await withLinkConsent(send, tool.name, this._s.prompts.askFor({ kind: 'call', call }), this._s.log, this._s.completions, options.signal);
    } catch (err) {
      progress?.stop();
      throw err;
    } finally {
      options.signal?.removeEventListener('abort', stop);
      call.becomingTask = false;
    }
    if (execution.kind === 'task' && execution.handle.taskId.length > MAX_TASK_ID) {
      progress?.stop();
      // Not followed: it would be shown, kept and sent back in every poll. The server is asked to drop it.
      void execution.cancel().catch(() => execution.detach());
      throw new Error(`The server gave its task an id of ${execution.handle.taskId.length} characters (at most ${MAX_TASK_ID} are accepted): the task is not followed, and was asked to stop.`);
    }
    if (execution.kind === 'task') {
      call.taskId = execution.handle.taskId;
      options.onTask?.({ taskId: execution.handle.taskId, reference: execution.serializeReference() });
    }
    try {
      return await this._settle(execution, options);
    } finally {
      progress?.stop();
    }
  }

  /** Picks up a task started earlier (this session or before a reload) and waits for its result. */
  async resume(reference: TaskReference, options: Pick<CallOptions, 'signal' | 'timeoutMs' | 'onTaskStatus'>, call: CallInFlight): Promise<RawToolResult> {
    const session = await this._session();
    const execution = await session.resumeTask(reference as never, { resultCodec: ANY_RESULT as never, requestTimeoutMs: options.timeoutMs, applicationContext: call });
    return this._settle(execution, options);
  }

  /** What the server says of a task now (`tasks/get`), without following it. */
  async status(reference: TaskReference, timeoutMs: number): Promise<TaskStatus> {
    const session = await this._session();
    const view = await session.task(reference.taskId as never, { requestTimeoutMs: timeoutMs }).snapshot();
    return { taskId: view.taskId, status: view.status, statusMessage: view.statusMessage };
  }

  /** Follows an execution to its end, reporting each new status (taskSession.ts `followTask`). */
  private async _settle(execution: ToolExecution<unknown, CallInFlight | undefined>, options: Pick<CallOptions, 'signal' | 'onTaskStatus' | 'timeoutMs'>): Promise<RawToolResult> {
    const { followTask, withoutEnvelope, rawAnswer } = loadConnection();
    // A 2025-11-25 task that waits for input has its questions fetched (taskSession.ts, fetchQueued).
    const requests = (await this._tasks!).queued;
    const end = await followTask(execution, abortSignalOf(options.signal), options.onTaskStatus, { requests, timeoutMs: options.timeoutMs });
    if (end.kind === 'completed') return resultOf(withoutEnvelope(rawAnswer(end.result)));
    throw taskEnded(end.message);
  }

  private async _session(): Promise<TaskEnabledSession<CallInFlight | undefined>> {
    const s = this._s;
    const client = s.client;
    const extension = this._extension && { raw: s.raw, protocolVersion: this._extension.protocolVersion, clientInfo: { ...s.clientInfo }, clientCapabilities: s.capabilities() };
    this._tasks ??= loadConnection().openTaskSession<CallInFlight | undefined>({
      endpointId: s.endpointId,
      capability: client.getServerCapabilities()?.tasks,
      ...(extension && { extension }),
      request: async (method, params, options) => loadConnection().rawAnswer(await client.request({ method, ...(params && { params }) } as never, ANY_ANSWER, options)),
      onClose: (listener) => s.onClose(listener),
      onInputRequest: (request, context) => s.prompts.answerInput(request, context.applicationContext, context.taskId) as never,
      maxInputRounds: MAX_INPUT_ROUNDS,
    });
    return (await this._tasks).session;
  }
}
