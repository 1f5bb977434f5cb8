import type { ServerPool } from '../../core/connection/serverPool';
import { ServerState } from '../../core/connection/serverState';

/** Counts over every configured server, for the status bar, the view's badge and `when` clauses. */
export interface ServerSummary {
  readonly total: number;
  readonly running: number;
  /** Servers in error (failed, crashed, or waiting to restart). */
  readonly failed: number;
  /** Configuration entries too broken to become servers. */
  readonly broken: number;
  readonly startable: number;
  readonly stoppable: number;
  readonly restartable: number;
  /** Running servers with at least one tool: something to call. */
  readonly callable: number;
  readonly hasDemo: boolean;
}

/** Reads the pool; no vscode, so plain tests can use it. */
export function summarizeServers(pool: ServerPool): ServerSummary {
  const all = pool.connections;
  const count = (is: (state: ServerState) => boolean) => all.filter((c) => is(c.state)).length;
  return {
    total: all.length,
    running: count(ServerState.isRunning),
    failed: count((s) => s.kind === 'error'),
    broken: pool.configErrors.length,
    startable: count(ServerState.canStart),
    stoppable: count(ServerState.canStop),
    restartable: count(ServerState.canRestart),
    callable: all.filter((c) => ServerState.isRunning(c.state) && c.tools.length > 0).length,
    hasDemo: all.some((c) => c.name === 'demo'),
  };
}
