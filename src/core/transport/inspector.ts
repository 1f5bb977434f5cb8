/**
 * The Node inspector of a server in dev mode (a `dev.debug` of type node): always on 127.0.0.1,
 * never another interface, since whoever reaches the port can run code in the server.
 */
import * as net from 'node:net';
import * as path from 'node:path';
import type { StdioLaunch } from './commandLine';

/** Where the inspector listens: loopback only. */
export const INSPECTOR_HOST = '127.0.0.1';

/** A port on 127.0.0.1 that is free now (the OS picks it). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, INSPECTOR_HOST, () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The launch with the inspector on: `--inspect=127.0.0.1:PORT` right after the executable when
 * the command is Node itself; otherwise (npx, a script run by Node) through NODE_OPTIONS, at a
 * port each Node process of the tree picks for itself (npx is a Node process too: one fixed port
 * would go to npx, not to the server). Each Node process says its port on stderr (inspectorPort).
 */
export function withInspector(launch: StdioLaunch, port: number): StdioLaunch {
  if (isNode(launch.command)) return { ...launch, args: [`--inspect=${INSPECTOR_HOST}:${port}`, ...launch.args] };
  const options = [launch.env.NODE_OPTIONS, `--inspect=${INSPECTOR_HOST}:0`].filter(Boolean).join(' ');
  return { ...launch, env: { ...launch.env, NODE_OPTIONS: options } };
}

/** Whether the command runs Node directly (`node`, `node.exe`, a path to one, or the host's own). */
function isNode(command: string): boolean {
  return command === process.execPath || /^node(\.exe)?$/i.test(path.win32.basename(command));
}

/** The port of Node's "Debugger listening on ws://127.0.0.1:PORT/…" stderr line; undefined for any other line (or another host). */
export function inspectorPort(line: string): number | undefined {
  const m = /^Debugger listening on ws:\/\/127\.0\.0\.1:(\d{1,5})\//.exec(line);
  return m ? Number(m[1]) : undefined;
}
