// What the task commands (registered at activation) and their actions (loaded later) are handed.
import type * as vscode from 'vscode';
import type { CallPipeline } from '../../core/calls/callPipeline';
import type { TaskBoard } from '../../core/calls/taskBoard';
import type { ServerPool } from '../../core/connection/serverPool';
import type { ServerLogs } from '../shared/serverLogs';

/** A task command's argument: a task row of the Tools view, or nothing (palette: it asks). */
export type TaskTarget = { readonly server: string; readonly taskId: string } | undefined;

export interface TaskCommandDeps {
  readonly pool: ServerPool;
  readonly pipeline: CallPipeline;
  readonly tasks: TaskBoard;
  readonly output: vscode.OutputChannel;
  readonly logs: ServerLogs;
}
