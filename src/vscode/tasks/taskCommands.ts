import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CallOutcome } from '../../core/calls/callPipeline';
import type { SavedTask, TaskMemory } from '../../core/calls/taskBoard';
import { ServerState } from '../../core/connection/serverState';
import type { Disposable } from '../../core/events';
import type { TaskCommandDeps, TaskTarget } from './taskDeps';
import type * as Later from './later';

/**
 * Where the tasks a window started are kept: a file in the workspace's storage folder, written at
 * once. (Workspace state is flushed later: a task started just before a reload was lost with it.)
 */
export function fileTasks(folder: string): TaskMemory {
  const file = path.join(folder, 'tasks.json');
  return {
    load: () => {
      try {
        const kept: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
        return Array.isArray(kept) ? (kept as SavedTask[]) : [];
      } catch {
        return []; // none yet, or damaged: the board reads each entry as untrusted anyway
      }
    },
    save: (tasks) => {
      try {
        fs.mkdirSync(folder, { recursive: true });
        fs.writeFileSync(`${file}.tmp`, JSON.stringify(tasks));
        fs.renameSync(`${file}.tmp`, file);
      } catch {
        // Storage unavailable: the tasks still show for this session.
      }
    },
  };
}

/**
 * Cancel Task, Fetch Result and Forget Task (taskActions.ts, loaded at first use), from the task rows of the Tools view or the palette;
 * and, whenever a server starts, asking it about the tasks an earlier session left.
 */
export class TaskCommands implements Disposable {
  private readonly _subscription: Disposable;
  private readonly _checked = new Set<string>();

  constructor(
    private readonly _deps: TaskCommandDeps,
    private readonly _later: () => { readonly tasks: typeof Later },
  ) {
    this._subscription = _deps.pool.onDidChange((c) => {
      if (!c) return;
      if (!ServerState.isRunning(c.state)) return void this._checked.delete(c.name);
      if (this._checked.has(c.name) || !_deps.tasks.entries(c.name).some((e) => !e.live)) return;
      this._checked.add(c.name);
      void _deps.pipeline.checkEarlierTasks(c.name).then((dropped) => dropped.forEach((line) => _deps.logs.logFor(c.name).warn(line)));
    });
  }

  /** Asks the server to cancel a running task (the call that follows it ends as cancelled). */
  cancel(target?: TaskTarget): Promise<void> {
    return this._later().tasks.cancelTask(this._deps, target);
  }

  /** Says what a running task does or waits for (its row's click), with Cancel Task. */
  show(target?: TaskTarget): Promise<void> {
    return this._later().tasks.showTask(this._deps, target);
  }

  /** Follows a task of an earlier session until it ends and shows its result in the output channel (and returns how it ended). */
  fetchResult(target?: TaskTarget): Promise<CallOutcome | undefined> {
    return this._later().tasks.fetchTaskResult(this._deps, target);
  }

  /** Drops a task of an earlier session, without asking the server. */
  forget(target?: TaskTarget): Promise<void> {
    return this._later().tasks.forgetTask(this._deps, target);
  }

  dispose(): void {
    this._subscription.dispose();
  }
}
