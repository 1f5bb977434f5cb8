/**
 * The signals a part of a command handles itself while it runs (`call` cancels on Ctrl+C, `serve`
 * ends on SIGINT and SIGTERM): commands.ts's stop-the-servers handler leaves those to it. A set of
 * names, not a count of listeners: libraries listen too (signal-exit, for one).
 */
export const ownedSignals = new Set<NodeJS.Signals>();
