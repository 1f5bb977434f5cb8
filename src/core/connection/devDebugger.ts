import type { DevSettings } from '../config/devConfig';
import type { ResolvedLaunch } from '../config/launch';
import type { ServerLog } from '../serverLog';
import { freeLoopbackPort, inspectorPort, withInspector } from '../transport/inspector';

/** A launch under dev mode's debugger: the launch with the inspector on, the log that hears where it listens, and the attach after the handshake. */
export interface Debugging {
  launch(launch: ResolvedLaunch): Promise<ResolvedLaunch>;
  readonly log: ServerLog;
  attach(): void;
}

/**
 * Dev mode's Node debugger for one launch, or undefined when the definition asks for another type
 * (the log says so, devNotes) or the host attaches none (an untrusted workspace, the CLI).
 */
export function debugging(server: string, dev: DevSettings, host: { attach(server: string, port: number): void } | object | undefined, log: ServerLog): Debugging | undefined {
  if (dev.debug?.type !== 'node' || !host || !('attach' in host)) return undefined;
  const announced: number[] = [];
  return {
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
      host.attach(server, port);
    },
  };
}
