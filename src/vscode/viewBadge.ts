import type * as vscode from 'vscode';
import type { ServerPool } from '../core/connection/serverPool';
import type { Disposable } from '../core/events';
import { summarizeServers } from './serverSummary';

/**
 * The number on the Tools view's icon: servers in error plus broken configuration entries,
 * so a problem shows even while the view is closed. No badge when all is well.
 */
export class ErrorBadge implements Disposable {
  private readonly _subscription: Disposable;

  constructor(private readonly _pool: ServerPool, private readonly _view: { badge?: vscode.ViewBadge }) {
    this._subscription = _pool.onDidChange(() => this.update());
    this.update();
  }

  update(): void {
    const s = summarizeServers(this._pool);
    const count = s.failed + s.broken;
    const what = [s.failed ? `${s.failed} server${s.failed === 1 ? '' : 's'} failed` : '', s.broken ? `${s.broken} configuration entr${s.broken === 1 ? 'y is' : 'ies are'} broken` : ''];
    this._view.badge = count ? { value: count, tooltip: what.filter(Boolean).join(', ') } : undefined;
  }

  dispose(): void {
    this._subscription.dispose();
  }
}
