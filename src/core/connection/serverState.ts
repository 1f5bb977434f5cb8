/** The life of one server connection, as the UI shows it. */
export type ServerState =
  | {
      readonly kind: 'stopped';
      /** Why it was not started, when it was not the user's own stop ("not started: you chose …"). */
      readonly message?: string;
    }
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
      /** An HTTP server's `Mcp-Session-Id`, as it sent it (unchecked). */
      readonly sessionId?: string;
    }
  | {
      readonly kind: 'error';
      readonly message: string;
      readonly detail?: readonly string[];
      /** When an automatic restart is scheduled: in how long. */
      readonly restartInMs?: number;
      /** The administrator's policy file that refused to run it (the message says why). */
      readonly refusedBy?: string;
    };

export namespace ServerState {
  export const stopped: ServerState = { kind: 'stopped' };
  export const disabled: ServerState = { kind: 'disabled' };
  export const starting: ServerState = { kind: 'starting' };

  export function label(state: ServerState): string {
    if ((state.kind === 'starting' || state.kind === 'stopped') && state.message) return `${state.kind}: ${state.message}`;
    return state.kind === 'error' ? `error: ${state.message}` : state.kind;
  }

  /**
   * What each state allows, in one table so a new kind cannot compile without an answer. The
   * tree's menus (package.json `viewItem` clauses) and the `has*Servers` context keys say the same.
   */
  const ALLOWS: Readonly<Record<Phase, { readonly start: boolean; readonly stop: boolean; readonly restart: boolean; readonly active: boolean }>> = {
    stopped: { start: true, stop: false, restart: true, active: false },
    disabled: { start: false, stop: false, restart: false, active: false },
    starting: { start: false, stop: true, restart: true, active: true },
    running: { start: false, stop: true, restart: true, active: true },
    // A failure with a restart scheduled can be stopped (the restart is cancelled); one that gave up has nothing to stop.
    restarting: { start: true, stop: true, restart: true, active: false },
    error: { start: true, stop: false, restart: true, active: false },
  };

  /** The state as the menus tell it apart: a failure waiting to restart is not one that gave up. */
  export type Phase = ServerState['kind'] | 'restarting';

  export function phase(state: ServerState): Phase {
    return state.kind === 'error' && state.restartInMs !== undefined ? 'restarting' : state.kind;
  }

  /** Has a live, initialized session: its tools can be listed and called. Narrows to the running state. */
  export function isRunning(state: ServerState): state is Extract<ServerState, { kind: 'running' }> {
    return state.kind === 'running';
  }

  /** A session is up or being set up (running or starting): a start does nothing, a sign-out must stop it. */
  export function isActive(state: ServerState): boolean {
    return ALLOWS[phase(state)].active;
  }

  /** Stopped or failed: Start (and Refresh) launch it. A disabled server never starts; an active one is already up. */
  export function canStart(state: ServerState): boolean {
    return ALLOWS[phase(state)].start;
  }

  /** There is something to stop: a session, a start under way, or a failure that may be waiting to restart. */
  export function canStop(state: ServerState): boolean {
    return ALLOWS[phase(state)].stop;
  }

  /**
   * Anything but a disabled server (a restart of a stopped one starts it). Doctor, which
   * launches its own copy of the server, offers the same servers.
   */
  export function canRestart(state: ServerState): boolean {
    return ALLOWS[phase(state)].restart;
  }
}
