import type { Disposable } from '../events';
import { PerSecondBudget } from '../perSecond';
import type { ServerLog } from '../serverLog';

/** How many log messages a server may write to its log per second; past it they are counted, not written. */
export const SERVER_LOG_LINES_PER_SECOND = 100;

/**
 * The log a server's own messages (`notifications/message`) go to: at most `perSecond` a second.
 * A server that sends 100,000 would otherwise write 100,000 lines; past the rate the rest of the
 * second is counted, and one line says how many were left out.
 */
export function floodGuardedLog(log: ServerLog, perSecond = SERVER_LOG_LINES_PER_SECOND): ServerLog & Disposable {
  const budget = new PerSecondBudget(perSecond);
  let dropped = 0;
  let timer: NodeJS.Timeout | undefined;
  const report = () => {
    timer = undefined;
    if (dropped > 0) log.warn(`${dropped} more messages from the server were not shown (at most ${perSecond} a second are).`);
    dropped = 0;
  };
  const guard = (write: (m: string) => void) => (message: string) => {
    if (budget.take()) return write(message);
    dropped++;
    timer ??= setTimeout(report, budget.msLeft);
  };
  return {
    info: guard((m) => log.info(m)),
    warn: guard((m) => log.warn(m)),
    error: guard((m) => log.error(m)),
    stderr: guard((m) => log.stderr(m)),
    dispose() {
      clearTimeout(timer);
      report();
    },
  };
}
