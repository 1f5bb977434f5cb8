/** The life of one server connection, as the UI shows it. */
export type ServerState =
  | { readonly kind: 'stopped' }
  | { readonly kind: 'disabled' }
  | {
      readonly kind: 'starting';
      /** What the start is waiting for, when it waits on the user ("Waiting for you to sign in to …"). */
      readonly message?: string;
    }
  | {
      readonly kind: 'running';
      readonly serverName?: string;
      readonly serverVersion?: string;
      readonly protocolVersion?: string;
      readonly instructions?: string;
      /** The capabilities the server declared in `initialize` (tools, resources, logging...), as sent. */
      readonly capabilities?: Readonly<Record<string, unknown>>;
    }
  | {
      readonly kind: 'error';
      readonly message: string;
      readonly detail?: readonly string[];
      /** When an automatic restart is scheduled: in how long. */
      readonly restartInMs?: number;
    };

export namespace ServerState {
  export const stopped: ServerState = { kind: 'stopped' };
  export const disabled: ServerState = { kind: 'disabled' };
  export const starting: ServerState = { kind: 'starting' };

  export function label(state: ServerState): string {
    if (state.kind === 'starting' && state.message) return `starting: ${state.message}`;
    return state.kind === 'error' ? `error: ${state.message}` : state.kind;
  }
}

/** Where a connection writes what a user may need to diagnose it (the server's log channel). */
export interface ServerLog {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** Server stderr: a log, never an error signal. */
  stderr(line: string): void;
}
