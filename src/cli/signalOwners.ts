import * as os from 'node:os';

/**
 * The signals a part of a command handles itself while it runs (`call` cancels on Ctrl+C, `serve`
 * ends on SIGINT and SIGTERM): commands.ts's stop-the-servers handler leaves those to it. A set of
 * names, not a count of listeners: libraries listen too (signal-exit, for one).
 */
export const ownedSignals = new Set<NodeJS.Signals>();

/** The signals that end the CLI at a user's or a system's word. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Calls `stop` on Ctrl+C, SIGTERM or SIGHUP, then exits as the signal would have (128 + its
 * number); `stop` returns false to leave the signal to someone else. Returns the way to stop listening.
 */
export function exitOnStopSignals(stop: (signal: NodeJS.Signals) => Promise<void> | boolean | void): () => void {
  const offs = STOP_SIGNALS.map((signal) => {
    const handler = () => {
      const stopped = stop(signal);
      if (stopped === false) return;
      const exit = () => process.exit(128 + os.constants.signals[signal]);
      if (stopped instanceof Promise) void stopped.finally(exit);
      else exit();
    };
    process.on(signal, handler);
    return () => process.off(signal, handler);
  });
  return () => offs.forEach((off) => off());
}
