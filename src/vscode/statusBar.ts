import * as vscode from 'vscode';
import type { ServerPool } from '../core/connection/serverPool';
import type { Disposable, Event } from '../core/events';
import { summarizeServers, type ServerSummary } from './serverSummary';

/** What the status bar needs of the CallPipeline: how many calls are under way, and when that changes. */
export interface CallsInFlight {
  readonly callsInFlight: number;
  readonly onDidChangeCallsInFlight: Event<number>;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The status bar item: running servers out of all, calls in flight (with a spinner), failed
 * servers; hidden while no server is configured. Clicking it focuses the Tools view.
 */
export class ServerStatusBar implements Disposable {
  private readonly _item = vscode.window.createStatusBarItem('mcpToolHost.status', vscode.StatusBarAlignment.Left, 50);
  private readonly _subscriptions: Disposable[];

  constructor(private readonly _pool: ServerPool, private readonly _calls: CallsInFlight) {
    this._item.name = 'MCP Tool Host';
    this._item.command = { command: 'mcpToolHost.tools.focus', title: 'Show the Tools view' };
    this._subscriptions = [_pool.onDidChange(() => this.update()), _calls.onDidChangeCallsInFlight(() => this.update())];
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
    if (calls) parts.push(plural(calls, 'call'));
    if (s.failed + s.broken) parts.push(`$(error) ${s.failed + s.broken}`);
    this._item.text = parts.join('  ');
    this._item.tooltip = tooltip(s, calls);
    this._item.accessibilityInformation = { label: tooltip(s, calls) };
    this._item.show();
  }

  dispose(): void {
    this._subscriptions.forEach((d) => d.dispose());
    this._item.dispose();
  }
}

function tooltip(s: ServerSummary, calls: number): string {
  const lines = [`MCP Tool Host: ${s.running} of ${plural(s.total, 'server')} running`, calls ? `${plural(calls, 'call')} in flight` : 'no call in flight'];
  if (s.failed) lines.push(`${plural(s.failed, 'server')} failed`);
  if (s.broken) lines.push(`${s.broken} configuration ${s.broken === 1 ? 'entry' : 'entries'} broken`);
  lines.push('Click to show the Tools view.');
  return lines.join('\n');
}
