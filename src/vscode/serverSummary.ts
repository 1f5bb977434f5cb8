import type { ServerPool } from '../core/connection/serverPool';

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
  const count = (kinds: readonly string[]) => all.filter((c) => kinds.includes(c.state.kind)).length;
  return {
    total: all.length,
    running: count(['running']),
    failed: count(['error']),
    broken: pool.configErrors.length,
    startable: count(['stopped', 'error']),
    stoppable: count(['running', 'starting', 'error']),
    restartable: all.length - count(['disabled']),
    callable: all.filter((c) => c.state.kind === 'running' && c.tools.length > 0).length,
    hasDemo: all.some((c) => c.name === 'demo'),
  };
}
