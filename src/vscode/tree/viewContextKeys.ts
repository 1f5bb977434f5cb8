import * as vscode from 'vscode';
import type { ServerPool } from '../../core/connection/serverPool';
import type { Disposable } from '../../core/events';
import { summarizeServers, type ServerSummary } from '../config/serverSummary';

/** Context keys read by the `when` clauses of package.json (command palette, menus, walkthrough). */
export const CONTEXT_KEYS = {
  hasServers: 'mcpToolHost.hasServers',
  hasCallableTools: 'mcpToolHost.hasCallableTools',
  hasStartable: 'mcpToolHost.hasStartableServers',
  hasStoppable: 'mcpToolHost.hasStoppableServers',
  hasRestartable: 'mcpToolHost.hasRestartableServers',
  hasDemo: 'mcpToolHost.hasDemoServer',
  /** A server the administrator's policy refused to run: "Open the Policy..." in the palette. */
  hasRefused: 'mcpToolHost.hasRefusedServers',
  /** The view has shown a configuration once: before, it says it is reading, not "no server" (ToolTreeProvider sets it). */
  ready: 'mcpToolHost.ready',
  /** A server is configured while a Welcome or walkthrough page is open (WalkthroughProgress sets it). */
  walkthroughSeesServers: 'mcpToolHost.walkthroughSeesServers',
} as const;

/** Keeps the context keys in step with the pool; sets a key only when its value changes. */
export class ViewContextKeys implements Disposable {
  private readonly _subscription: Disposable;
  private readonly _values = new Map<string, boolean>();

  constructor(private readonly _pool: ServerPool) {
    this._subscription = _pool.onDidChange(() => this.update());
    this.update();
  }

  update(): void {
    const s: ServerSummary = summarizeServers(this._pool);
    this._set(CONTEXT_KEYS.hasServers, s.total > 0);
    this._set(CONTEXT_KEYS.hasCallableTools, s.callable > 0);
    this._set(CONTEXT_KEYS.hasStartable, s.startable > 0);
    this._set(CONTEXT_KEYS.hasStoppable, s.stoppable > 0);
    this._set(CONTEXT_KEYS.hasRestartable, s.restartable > 0);
    this._set(CONTEXT_KEYS.hasDemo, s.hasDemo);
    this._set(CONTEXT_KEYS.hasRefused, this._pool.connections.some((c) => c.state.kind === 'error' && c.state.refusedBy !== undefined));
  }

  dispose(): void {
    this._subscription.dispose();
  }

  private _set(key: string, value: boolean): void {
    if (this._values.get(key) === value) return;
    this._values.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }
}
