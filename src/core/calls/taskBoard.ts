import type { TaskReference, TaskState } from '../connection/eraClient';
import { Emitter } from '../events';
import { sanitizeLine } from '../render/sanitize';

/** How many tasks are kept for the next session at most (the oldest go first). */
export const MAX_SAVED_TASKS = 50;
/** A task id longer than this is not kept: a server could fill the host's storage with one. */
const MAX_TASK_ID = 200;

/** What is kept of a task between sessions (a reload, a restart of VS Code). */
export interface SavedTask {
  readonly server: string;
  readonly tool: string;
  readonly taskId: string;
  /** ISO time the call started. */
  readonly startedAt: string;
  readonly reference: TaskReference;
}

/** Where the tasks are kept between sessions (the extension: workspace state; the CLI: nowhere). */
export interface TaskMemory {
  load(): readonly SavedTask[];
  save(tasks: readonly SavedTask[]): void;
}

/** A task as the views show it. */
export interface TaskEntry extends SavedTask {
  /** `earlier`: started in an earlier session, not followed now (Fetch Result picks it up). */
  readonly status: TaskState | 'earlier';
  readonly statusMessage?: string;
  /** A call of this session is following it: cancelling it cancels the task. */
  readonly live: boolean;
  /** What it asks the user now (a form's or a link's message, one safe line), until answered. */
  readonly question?: string;
}

/**
 * The tasks the host started: the ones running now (followed by a call) and the ones an earlier
 * session left (kept in TaskMemory until their result is fetched or they are forgotten). The
 * tree, the status bar and the commands read it; the pipeline writes it.
 */
export class TaskBoard {
  private readonly _entries = new Map<string, TaskEntry>();
  private readonly _aborts = new Map<string, () => void>();
  private readonly _onDidChange = new Emitter<void>();
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly _memory?: TaskMemory) {
    for (const saved of _memory?.load() ?? []) if (isSaved(saved)) this._entries.set(keyOf(saved.server, saved.taskId), { ...saved, status: 'earlier', live: false });
  }

  /** Every task, newest first; with `server`, only that server's. */
  entries(server?: string): TaskEntry[] {
    return [...this._entries.values()].filter((e) => server === undefined || e.server === server).sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  }

  /** How many tasks a call of this session follows now. */
  get running(): number {
    return [...this._entries.values()].filter((e) => e.live).length;
  }

  get(server: string, taskId: string): TaskEntry | undefined {
    return this._entries.get(keyOf(server, taskId));
  }

  /** A call became a task; `abort` stops the call, which cancels the task. */
  started(task: SavedTask, abort: () => void): void {
    const key = keyOf(task.server, task.taskId);
    this._entries.set(key, { ...task, status: 'working', live: true });
    this._aborts.set(key, abort);
    this._save();
    this._onDidChange.fire();
  }

  /** What the server said of the task last (its message made one safe line). */
  status(server: string, taskId: string, status: TaskState, statusMessage: string | undefined): void {
    const key = keyOf(server, taskId);
    const entry = this._entries.get(key);
    if (!entry) return;
    this._entries.set(key, { ...entry, status, statusMessage: statusMessage === undefined ? undefined : sanitizeLine(statusMessage) });
    this._onDidChange.fire();
  }

  /** What the tasks a prompt belongs to ask the user now (its message), or undefined once answered (taskActions.ts `askingFor`). */
  question(server: string, taskIds: readonly string[], question: string | undefined): void {
    for (const key of taskIds.map((taskId) => keyOf(server, taskId))) {
      const entry = this._entries.get(key);
      if (entry) this._entries.set(key, { ...entry, question });
    }
    this._onDidChange.fire();
  }

  /**
   * The call that followed the task ended. `settled`: its result, failure or cancellation was
   * reported, so the task is done with; otherwise (the session ended under it) it stays, for Fetch Result.
   */
  ended(server: string, taskId: string, settled: boolean): void {
    const key = keyOf(server, taskId);
    const entry = this._entries.get(key);
    this._aborts.delete(key);
    if (!entry) return;
    if (settled) this._entries.delete(key);
    else this._entries.set(key, { ...entry, status: 'earlier', live: false });
    this._save();
    this._onDidChange.fire();
  }

  /** Stops the call that follows the task, which cancels it on the server. False: no call follows it. */
  cancel(server: string, taskId: string): boolean {
    const abort = this._aborts.get(keyOf(server, taskId));
    abort?.();
    return abort !== undefined;
  }

  /** Drops a task from an earlier session without asking the server. */
  forget(server: string, taskId: string): void {
    const key = keyOf(server, taskId);
    if (this._entries.get(key)?.live !== false) return;
    this._entries.delete(key);
    this._save();
    this._onDidChange.fire();
  }

  dispose(): void {
    this._onDidChange.dispose();
  }

  private _save(): void {
    if (!this._memory) return;
    const kept = this.entries()
      .filter((e) => e.taskId.length <= MAX_TASK_ID)
      .slice(0, MAX_SAVED_TASKS)
      .map(({ server, tool, taskId, startedAt, reference }) => ({ server, tool, taskId, startedAt, reference }));
    this._memory.save(kept);
  }
}

const keyOf = (server: string, taskId: string) => JSON.stringify([server, taskId]);

/** A saved entry as we wrote it: storage can be edited or damaged, and is read as untrusted. */
function isSaved(value: unknown): value is SavedTask {
  const v = value as Partial<SavedTask> | undefined;
  const ref = v?.reference as Partial<TaskReference> | undefined;
  return (
    typeof v?.server === 'string' &&
    typeof v.tool === 'string' &&
    typeof v.taskId === 'string' &&
    v.taskId.length <= MAX_TASK_ID &&
    typeof v.startedAt === 'string' &&
    typeof ref?.endpointId === 'string' &&
    (ref.generation === 'v1' || ref.generation === 'v2') &&
    ref.taskId === v.taskId &&
    typeof ref.originalOperation === 'string'
  );
}
