import * as vscode from 'vscode';
import type { ServerPool } from '../../core/connection/serverPool';
import { ServerState } from '../../core/connection/serverState';
import type { Disposable } from '../../core/events';
import { LOG_LEVELS, type LogLevel } from '../../core/offers/offerTypes';
import { SECTION } from '../shared/section';
import type { ServerLogs } from '../shared/serverLogs';
import type { SharedOffers } from '../shared/sharedOffers';

const SETTING = 'serverLogLevel';

/** The level `mcpToolHost.serverLogLevel` gives a server: its own entry, else `"*"`, else none (the server's default). */
export function configuredLogLevel(server: string): LogLevel | undefined {
  const value = vscode.workspace.getConfiguration(SECTION).get<unknown>(SETTING);
  if (typeof value !== 'object' || value === null) return undefined;
  const levels = value as Record<string, unknown>;
  const level = Object.hasOwn(levels, server) ? levels[server] : levels['*'];
  return LOG_LEVELS.find((l) => l === level);
}

/**
 * Applies `mcpToolHost.serverLogLevel` to each server as it starts, and to the running ones when
 * the setting changes. A server with no level set is left at its own default, and the offers'
 * code (dist/offers.js) loads only when some level is set.
 */
export class LogLevelSetting implements Disposable {
  private readonly _applied = new Map<string, LogLevel>();
  private readonly _subscriptions: vscode.Disposable[];

  constructor(
    _pool: ServerPool,
    private readonly _offers: SharedOffers,
    private readonly _logs: ServerLogs,
  ) {
    const pool = _pool.onDidChange((c) => {
      if (!c) return;
      if (!ServerState.isRunning(c.state)) return void this._applied.delete(c.name);
      this._apply(c.name);
    });
    this._subscriptions = [
      { dispose: () => pool.dispose() },
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(`${SECTION}.${SETTING}`)) return;
        this._applied.clear();
        for (const c of _pool.connections) if (ServerState.isRunning(c.state)) this._apply(c.name);
      }),
    ];
  }

  dispose(): void {
    this._subscriptions.forEach((s) => s.dispose());
  }

  private _apply(server: string): void {
    const level = configuredLogLevel(server);
    if (!level || this._applied.get(server) === level) return;
    this._applied.set(server, level);
    const log = this._logs.logFor(server);
    this._offers
      .prompts()
      .setLogLevel(server, level)
      .then(
        () => log.info(vscode.l10n.t('Log level set to {0} (mcpToolHost.serverLogLevel).', level)),
        (err: unknown) => log.warn(vscode.l10n.t('Could not set the log level to {0}: {1}', level, err instanceof Error ? err.message : String(err))),
      );
  }
}
