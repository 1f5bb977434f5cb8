/**
 * Where a connection writes what a user may need to diagnose it (the server's log channel).
 * A port every core folder may use (connection, auth, render's masking), so it lives at the
 * bottom of the layers beside events.ts and errors.ts (ARCHITECTURE.md, "Layers").
 */
export interface ServerLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** Server stderr: a log, never an error signal. */
  stderr(line: string): void;
}

/** A log that drops everything: a connection whose log nobody reads (Run Doctor's own copy). */
export const silentLog: ServerLog = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  stderr: () => undefined,
};
