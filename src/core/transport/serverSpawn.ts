import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { needsShell, quoteForCmd, type StdioLaunch } from './commandLine';

// How a stdio server's process is made, shared by StdioTransport and the CLI's early launch (which
// spawns the server of `call` while the commands' code loads, then hands it to the transport).
// Small on purpose: dist/cli-launch.js holds it, and every millisecond there is before the spawn.

/** Every server's environment holds this variable, with a value of its own: the stop finds its descendants by it. */
export const SERVER_MARKER_VARIABLE = 'MCP_TOOL_HOST_SERVER_ID';

/** Spawns a server's process: its own process group (POSIX), three pipes, the marker in its environment. */
export function spawnServer(launch: Pick<StdioLaunch, 'command' | 'args' | 'env' | 'cwd'>, marker: string): ChildProcess {
  const shell = needsShell(launch.command);
  return spawn(shell ? `"${launch.command}"` : launch.command, shell ? launch.args.map(quoteForCmd) : [...launch.args], {
    cwd: launch.cwd,
    // The marker lets the stop find descendants that left the process group (processTree.ts).
    env: { ...launch.env, [SERVER_MARKER_VARIABLE]: marker },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
    windowsHide: true,
    shell,
    windowsVerbatimArguments: shell,
  });
}

/**
 * A server spawned before its connection existed, for the transport to adopt: what it runs
 * (`launch`, the executable resolved), and what happened to it meanwhile (its output waits unread
 * in the pipes; an exit or an error is kept here so that none is missed).
 */
export interface EarlyServer {
  readonly launch: StdioLaunch;
  readonly child: ChildProcess;
  readonly marker: string;
  /** Settles when the process came to be, or failed to (the error). */
  readonly spawned: Promise<void>;
  /** How it exited, if it already did. */
  readonly exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Whether its pipes are closed already (it exited and they ended). */
  readonly closed: boolean;
}

/** Spawns `launch` now for a transport to adopt later (`adoptEarly` of StdioTransportOptions). */
export function spawnEarly(launch: StdioLaunch, marker: string): EarlyServer {
  const child = spawnServer(launch, marker);
  let exit: EarlyServer['exit'];
  let closed = false;
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  spawned.catch(() => undefined); // said by the transport that adopts it
  child.on('error', () => undefined); // an error before the transport listens: never an uncaught one
  child.once('exit', (code, signal) => (exit = { code, signal }));
  child.once('close', () => (closed = true));
  return {
    launch,
    child,
    marker,
    spawned,
    get exit() {
      return exit;
    },
    get closed() {
      return closed;
    },
  };
}

/** Whether two launches run the same thing: command, arguments, folder and every variable. */
export function sameLaunch(a: StdioLaunch, b: StdioLaunch): boolean {
  const keys = Object.keys(a.env);
  return a.command === b.command && a.cwd === b.cwd && a.args.length === b.args.length && a.args.every((x, i) => x === b.args[i]) && keys.length === Object.keys(b.env).length && keys.every((k) => Object.hasOwn(b.env, k) && a.env[k] === b.env[k]);
}

/**
 * Ends an early server nobody adopted with the stop every server gets, in the detached watcher a
 * command's stop is handed to (stopWatcher.ts): stdin closed, SIGTERM after a grace, SIGKILL after
 * another, to its whole tree; the command need not wait for it. Without a watcher (Windows, a
 * missing file), its process group is sent SIGTERM.
 */
export function discardEarly(early: EarlyServer): void {
  const child = early.child;
  const pid = child.pid;
  const running = pid !== undefined && early.exit === undefined;
  // One that exited already may have left children in its group or under its marker: the watcher stops those too.
  if (pid === undefined || !handOffStop(child, early.marker)) {
    child.stdin?.destroy();
    if (running) {
      try {
        process.kill(process.platform === 'win32' ? pid : -pid, 'SIGTERM');
      } catch {
        // gone already
      }
    }
  }
  child.stdout?.destroy();
  child.stderr?.destroy();
  child.unref();
}

/**
 * Starts the detached stop watcher (stopWatcher.ts) of a server, holding its stdin (the watcher's
 * fd 3) until it has scanned the tree; undefined where none can run (Windows, a missing file, a
 * spawn refused at once). The caller lets go of its own handles once the watcher is there.
 */
export function spawnStopWatcher(child: ChildProcess, markerEntry: string): ChildProcess | undefined {
  const watcherFile = path.join(__dirname, 'stopWatcher.js');
  if (process.platform === 'win32' || child.pid === undefined || !child.stdin || !existsSync(watcherFile)) return undefined;
  // A server that exited has no stdin left to hold (Node closed it): the watcher still stops what it left.
  const stdin = child.stdin.destroyed ? 'ignore' : child.stdin;
  try {
    // Nothing of the caller's: a pipe or terminal it holds would keep a reader of the CLI waiting.
    const watcher = spawn(process.execPath, [watcherFile, String(child.pid), markerEntry], { detached: true, stdio: ['ignore', 'ignore', 'ignore', stdin], windowsHide: true });
    watcher.on('error', () => undefined);
    return watcher;
  } catch {
    return undefined;
  }
}

/** Hands the early server's stop to the watcher, then lets go of its stdin here; false if none could start. */
function handOffStop(child: ChildProcess, marker: string): boolean {
  const watcher = spawnStopWatcher(child, `${SERVER_MARKER_VARIABLE}=${marker}`);
  // The spawn is done when it returns: a watcher that was made holds the stdin already; without a pid none was.
  if (watcher?.pid === undefined) return false;
  watcher.unref();
  child.stdin?.destroy();
  return true;
}
