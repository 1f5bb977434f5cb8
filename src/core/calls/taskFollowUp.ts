import type { CallOptions, TaskReference } from '../connection/eraClient';
import { isTaskEnded } from '../connection/taskEnded';
import type { ServerConnection } from '../connection/serverConnection';
import { ServerState } from '../connection/serverState';
import { sanitizeLine, shownName } from '../render/sanitize';
import { maskSecrets } from '../render/secrets';
import { describeCallError } from './callErrors';
import type { CallOrigin, CallSink } from './ports';
import type { TaskBoard, TaskEntry } from './taskBoard';
import type { CallSignal } from '../callSignal';

/** How often a running task's changing message gets a line of the call's log at most. */
const TASK_LINE_MS = 2_000;

/** Fetching the result of a task started earlier (TaskBoard): `tasks/get` until it ends, then its result. */
export interface TaskResultRequest {
  readonly server: string;
  readonly taskId: string;
  readonly origin: CallOrigin;
  readonly signal?: CallSignal;
}

/**
 * The calls a server runs as tasks, as the pipeline follows them: each is on the task board from
 * its start (Cancel Task stops it as the caller's signal would), its status on the call's lines
 * and its row, settled once the server answers; and the tasks an earlier session left, checked
 * again or followed to their result.
 */
export class TaskFollowUp {
  constructor(private readonly _board: TaskBoard | undefined, private readonly _sink: CallSink) {}

  /** The task an earlier call started, if the board knows it. */
  entry(server: string, taskId: string): TaskEntry | undefined {
    return this._board?.get(server, taskId);
  }

  /** What one call does with the task it may become. */
  watch(callId: string, server: string, connection: ServerConnection, abort: () => void): TaskWatch {
    return new TaskWatch(callId, server, connection, abort, this._board, this._sink);
  }

  /**
   * Asks a running server about the tasks an earlier session left (`tasks/get`): each shows what
   * the server says of it now; one the server no longer knows is dropped. Returns a line for each
   * dropped task, for the log.
   */
  async checkEarlier(server: string, connection: ServerConnection | undefined): Promise<string[]> {
    const board = this._board;
    if (!board || !connection || !ServerState.isRunning(connection.state)) return [];
    const dropped: string[] = [];
    for (const entry of board.entries(server).filter((e) => !e.live)) {
      try {
        const now = await connection.taskStatus(entry.reference, connection.definition.timeoutSeconds * 1000);
        board.status(server, entry.taskId, now.status, now.statusMessage && maskSecrets(now.statusMessage, connection.secrets));
      } catch (err) {
        // Only the server's own "no such task" drops it; a failure on our side keeps it for later.
        if (typeof (err as { code?: unknown }).code !== 'number') continue;
        board.ended(server, entry.taskId, true);
        dropped.push(`Task ${sanitizeLine(entry.taskId)} of "${shownName(entry.tool)}" is no longer known to the server: ${describeCallError(err, { timeoutSeconds: 0, maxTotalSeconds: 0 }).message}`);
      }
    }
    return dropped;
  }
}

/** One call's task: the board's row while it runs, the lines of its status, how it settled. */
export class TaskWatch {
  private _taskId: string | undefined;
  private _shown: { status: string; at: number } | undefined;

  constructor(
    private readonly _callId: string,
    private readonly _server: string,
    private readonly _connection: ServerConnection,
    private readonly _abort: () => void,
    private readonly _board: TaskBoard | undefined,
    private readonly _sink: CallSink,
  ) {}

  /** The server runs the call as a task: from here on the board follows it, and the call's log says what that means. */
  started(task: { readonly taskId: string; readonly reference: TaskReference }, tool: string, startedAt: string): void {
    this._taskId = task.taskId;
    const text = `task ${sanitizeLine(task.taskId)}: the server runs this call as a task; it may run past the call timeout, and cancelling the call cancels it.`;
    this._sink.line(this._callId, text);
    this._sink.task?.(this._callId, text);
    this._board?.started({ server: this._server, tool, taskId: task.taskId, startedAt, reference: task.reference }, this._abort);
  }

  /** A task an earlier call started is followed by this one. */
  resumed(entry: TaskEntry): void {
    this._taskId = entry.taskId;
    this._board?.started(entry, this._abort);
  }

  /**
   * A new status always gets a line; a new message of the same status, one every TASK_LINE_MS
   * (the task's row shows each): an hour of "step k" messages is not an hour of lines.
   */
  readonly onStatus: CallOptions['onTaskStatus'] = (status) => {
    this._taskId = status.taskId;
    const secrets = this._connection.secrets;
    const message = status.statusMessage === undefined ? '' : `: ${maskSecrets(sanitizeLine(status.statusMessage), secrets)}`;
    const now = performance.now();
    if (!this._shown || this._shown.status !== status.status || now - this._shown.at >= TASK_LINE_MS) {
      this._shown = { status: status.status, at: now };
      this._sink.line(this._callId, `task ${status.status}${message}`);
      this._sink.task?.(this._callId, `task ${status.status}${message}`);
    }
    this._board?.status(this._server, status.taskId, status.status, status.statusMessage && maskSecrets(status.statusMessage, secrets));
  };

  /**
   * The call ended (`error`: how, when it failed). A task whose call failed on our side (the
   * session ended, a request timed out) may still run: it stays on the board for Fetch Result. An
   * answer from the server settles it.
   */
  settled(outcomeKind: string, error?: unknown): void {
    if (this._taskId === undefined) return;
    const answered = isTaskEnded(error) || (outcomeKind !== 'failed' && outcomeKind !== 'timeout');
    this._board?.ended(this._server, this._taskId, answered);
  }
}
