import type { DevSettings } from '../config/devConfig';
import type { ResolvedLaunch } from '../config/launch';
import type { ServerLog } from '../serverLog';
import type { DebugAttachment } from './devWatch';
import { freeLoopbackPort, inspectorPort, withInspector } from '../transport/inspector';

/** How long a stop waits for the debugger to let go of the server before it stops the server anyway. */
export const DETACH_WAIT_MS = 2000;

/**
 * A launch under dev mode's debugger: the launch with the inspector on, the log that hears where it
 * listens, the attach after the handshake (again when the user asks: the session may have been
 * ended), and the detach before the server stops.
 */
export interface Debugging {
  launch(launch: ResolvedLaunch): Promise<ResolvedLaunch>;
  readonly log: ServerLog;
  /** Whether the server's inspector announced its port (a debugger can attach). */
  readonly inspecting: boolean;
  attach(): void;
  detach(): Promise<void>;
}

/**
 * Dev mode's Node debugger for one launch, or undefined when the definition asks for another type
 * (the log says so, devNotes) or the host attaches none (an untrusted workspace, the CLI).
 */
export function debugging(server: string, dev: DevSettings, host: { attach(server: string, port: number): DebugAttachment } | object | undefined, log: ServerLog): Debugging | undefined {
  if (dev.debug?.type !== 'node' || !host || !('attach' in host)) return undefined;
  const announced: number[] = [];
  let attached: DebugAttachment | undefined;
  const detach = async () => {
    const session = attached;
    attached = undefined;
    // A debugger that does not let go in time does not hold up the stop.
    if (session) await Promise.race([session.detach().catch(() => undefined), new Promise((r) => setTimeout(r, DETACH_WAIT_MS).unref())]);
  };
  return {
    get inspecting() {
      return announced.length > 0;
    },
    launch: async (launch) => (launch.type === 'stdio' ? { ...launch, launch: withInspector(launch.launch, await freeLoopbackPort()) } : launch),
    log: {
      info: (m) => log.info(m),
      warn: (m) => log.warn(m),
      error: (m) => log.error(m),
      stderr: (line) => {
        const port = inspectorPort(line);
        if (port !== undefined) announced.push(port);
        log.stderr(line);
      },
    },
    // The Node process that answered the handshake started last (npx's own Node comes first).
    attach: () => {
      const port = announced.at(-1);
      if (port === undefined) return log.warn('Dev mode: no Node inspector announced itself on stderr, so no debugger is attached (is the server a Node program?).');
      log.info(`Dev mode: attaching the debugger to the Node inspector on 127.0.0.1:${port}.`);
      void detach();
      attached = host.attach(server, port);
    },
    detach,
  };
}
