import * as vscode from 'vscode';
import type { ServerPool } from '../../core/connection/serverPool';
import type { Disposable } from '../../core/events';
import { summarizeServers } from '../config/serverSummary';

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
    const what = [
      s.failed === 0 ? '' : s.failed === 1 ? vscode.l10n.t('1 server failed') : vscode.l10n.t('{0} servers failed', s.failed),
      s.broken === 0 ? '' : s.broken === 1 ? vscode.l10n.t('1 configuration entry is broken') : vscode.l10n.t('{0} configuration entries are broken', s.broken),
    ];
    this._view.badge = count ? { value: count, tooltip: what.filter(Boolean).join(', ') } : undefined;
  }

  dispose(): void {
    this._subscription.dispose();
  }
}
