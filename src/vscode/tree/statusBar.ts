import * as vscode from 'vscode';
import type { ServerPool } from '../../core/connection/serverPool';
import type { Disposable, Event } from '../../core/events';
import { summarizeServers, type ServerSummary } from '../config/serverSummary';

/** What the status bar needs of the CallPipeline: how many calls are under way, and when that changes. */
export interface CallsInFlight {
  readonly callsInFlight: number;
  readonly onDidChangeCallsInFlight: Event<number>;
}

/** What the status bar needs of the TaskBoard: how many tasks run now. */
export interface TasksRunning {
  readonly running: number;
  readonly onDidChange: Event<void>;
}

/**
 * The status bar item: running servers out of all, calls in flight (with a spinner), failed
 * servers; hidden while no server is configured. Clicking it focuses the Tools view.
 */
export class ServerStatusBar implements Disposable {
  private readonly _item = vscode.window.createStatusBarItem('mcpToolHost.status', vscode.StatusBarAlignment.Left, 50);
  private readonly _subscriptions: Disposable[];

  constructor(private readonly _pool: ServerPool, private readonly _calls: CallsInFlight, private readonly _tasks?: TasksRunning) {
    this._item.name = 'MCP Tool Host';
    this._item.command = { command: 'mcpToolHost.tools.focus', title: vscode.l10n.t('Show the Tools view') };
    this._subscriptions = [_pool.onDidChange(() => this.update()), _calls.onDidChangeCallsInFlight(() => this.update())];
    if (_tasks) this._subscriptions.push(_tasks.onDidChange(() => this.update()));
    this.update();
  }

  /** The item as shown now (tests read it). */
  get item(): Pick<vscode.StatusBarItem, 'text' | 'tooltip' | 'command'> {
    return this._item;
  }

  update(): void {
    const s = summarizeServers(this._pool);
    if (s.total === 0 && s.broken === 0) {
      this._item.hide();
      return;
    }
    const calls = this._calls.callsInFlight;
    const parts = [`${calls ? '$(sync~spin)' : '$(tools)'} MCP ${s.running}/${s.total}`];
    if (calls) parts.push(calls === 1 ? vscode.l10n.t('1 call') : vscode.l10n.t('{0} calls', calls));
    const tasks = this._tasks?.running ?? 0;
    if (tasks) parts.push(tasks === 1 ? vscode.l10n.t('1 task') : vscode.l10n.t('{0} tasks', tasks));
    if (s.failed + s.broken) parts.push(`$(error) ${s.failed + s.broken}`);
    this._item.text = parts.join('  ');
    this._item.tooltip = tooltip(s, calls, tasks);
    this._item.accessibilityInformation = { label: tooltip(s, calls, tasks) };
    this._item.show();
  }

  dispose(): void {
    this._subscriptions.forEach((d) => d.dispose());
    this._item.dispose();
  }
}

function tooltip(s: ServerSummary, calls: number, tasks: number): string {
  const lines = [
    s.total === 1 ? vscode.l10n.t('MCP Tool Host: {0} of 1 server running', s.running) : vscode.l10n.t('MCP Tool Host: {0} of {1} servers running', s.running, s.total),
    calls === 0 ? vscode.l10n.t('no call in flight') : calls === 1 ? vscode.l10n.t('1 call in flight') : vscode.l10n.t('{0} calls in flight', calls),
  ];
  if (tasks) lines.push(tasks === 1 ? vscode.l10n.t('1 of them runs as a task (Cancel Task in the Tools view)') : vscode.l10n.t('{0} of them run as tasks (Cancel Task in the Tools view)', tasks));
  if (s.failed) lines.push(s.failed === 1 ? vscode.l10n.t('1 server failed') : vscode.l10n.t('{0} servers failed', s.failed));
  if (s.broken) lines.push(s.broken === 1 ? vscode.l10n.t('1 configuration entry broken') : vscode.l10n.t('{0} configuration entries broken', s.broken));
  lines.push(vscode.l10n.t('Click to show the Tools view.'));
  return lines.join('\n');
}
