import * as vscode from 'vscode';
import type { CallOutcome } from '../../core/calls/callPipeline';
import type { TaskBoard, TaskEntry } from '../../core/calls/taskBoard';
import type { FormRequest } from '../../core/elicitation/formElicitation';
import type { UrlRequest } from '../../core/elicitation/urlElicitation';
import { sanitizeLine, shownName } from '../../core/render/sanitize';
import type { TaskCommandDeps, TaskTarget } from './taskDeps';

// What Cancel Task, Fetch Task Result and Forget Task do (taskCommands.ts registers them): loaded
// with dist/forms.js at the first use.

/** Asks the server to cancel a running task (the call that follows it ends as cancelled). */
export async function cancelTask(deps: TaskCommandDeps, target?: TaskTarget): Promise<void> {
  const entry = target ? deps.tasks.get(target.server, target.taskId) : await pick(deps, vscode.l10n.t('Cancel which task?'), (e) => e.live);
  if (entry && !deps.tasks.cancel(entry.server, entry.taskId)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Task {0} is not running in this window: nothing to cancel.', sanitizeLine(entry.taskId)));
  }
}

/** While `ask` waits for the user, the task rows the prompt belongs to say what they wait for (its message, one safe line). */
export async function askingFor<T>(tasks: TaskBoard, request: FormRequest | UrlRequest, ask: () => Promise<T>): Promise<T> {
  const ids = request.tasks ?? [];
  tasks.question(request.server, ids, sanitizeLine(request.message).slice(0, 300) || vscode.l10n.t('(no message)'));
  try {
    return await ask();
  } finally {
    tasks.question(request.server, ids, undefined);
  }
}

/**
 * What a running task does or waits for (its row's click): the question it asks and where to
 * answer it, or what the server said of it last; Cancel Task beside.
 */
export async function showTask(deps: TaskCommandDeps, target?: TaskTarget): Promise<void> {
  const entry = target ? deps.tasks.get(target.server, target.taskId) : await pick(deps, vscode.l10n.t('Show which task?'), (e) => e.live);
  if (!entry) return;
  if (!entry.live) return void (await fetchTaskResult(deps, target ?? entry));
  const cancel = vscode.l10n.t('Cancel Task');
  const choice = await vscode.window.showInformationMessage(taskSentence(entry), cancel);
  if (choice === cancel) await cancelTask(deps, entry);
}

/** What a running task does or waits for, in one sentence (the row's tooltip says it too). */
export function taskSentence(entry: TaskEntry): string {
  const task = vscode.l10n.t('Task {0} of {1}', sanitizeLine(entry.taskId), shownName(entry.tool));
  if (entry.question !== undefined) return vscode.l10n.t('{0} waits for your answer: {1}. Answer it in the form at the top of the window, or in the chat that made the call.', task, entry.question);
  const said = entry.statusMessage ? ` (${entry.statusMessage})` : '';
  if (entry.status === 'input_required') return vscode.l10n.t('{0} waits for input{1}: its question appears where the call was made as soon as the server sends it.', task, said);
  return vscode.l10n.t('{0} is running{1}; Cancel Task asks the server to stop it.', task, said);
}

/** Follows a task of an earlier session until it ends and shows its result in the output channel (and returns how it ended). */
export async function fetchTaskResult(deps: TaskCommandDeps, target?: TaskTarget): Promise<CallOutcome | undefined> {
  const entry = target ? deps.tasks.get(target.server, target.taskId) : await pick(deps, vscode.l10n.t('Fetch the result of which task?'), (e) => !e.live);
  if (!entry || entry.live) return undefined;
  deps.output.show(true);
  const outcome = await deps.pipeline.fetchTaskResult({ server: entry.server, taskId: entry.taskId, origin: 'tree' });
  if (outcome.kind === 'failed' || outcome.kind === 'protocol-error' || outcome.kind === 'timeout') {
    void vscode.window.showErrorMessage(vscode.l10n.t('Fetching the result of task {0} failed: {1}', sanitizeLine(entry.taskId), outcome.message));
  }
  return outcome;
}

/** Drops a task of an earlier session, without asking the server. */
export async function forgetTask(deps: TaskCommandDeps, target?: TaskTarget): Promise<void> {
  const entry = target ? deps.tasks.get(target.server, target.taskId) : await pick(deps, vscode.l10n.t('Forget which task?'), (e) => !e.live);
  if (entry) deps.tasks.forget(entry.server, entry.taskId);
}

async function pick(deps: TaskCommandDeps, title: string, which: (e: TaskEntry) => boolean): Promise<TaskEntry | undefined> {
  const entries = deps.tasks.entries().filter(which);
  if (entries.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No task to choose from.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    entries.map((entry) => ({
      label: `${shownName(entry.server)} · ${shownName(entry.tool)}`,
      description: entry.statusMessage ?? entry.status,
      detail: vscode.l10n.t('Task {0}, started {1}', sanitizeLine(entry.taskId), new Date(entry.startedAt).toLocaleString()),
      entry,
    })),
    { title, placeHolder: title },
  );
  return picked?.entry;
}
