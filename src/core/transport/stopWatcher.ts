// The shutdown of one server, run in a detached process of its own so that a command of the CLI
// exits as soon as its answer is out: started by StdioTransport.handOffStop() with the server's
// pid and marker as arguments and the server's stdin as fd 3, it runs the same sequence a stop in
// process runs (scan the tree, close stdin, SIGTERM, SIGKILL) and exits.
// usage: node stopWatcher.js PID MARKER
import { closeSync } from 'node:fs';
// A process and a bundle of its own (dist/stopWatcher.js): there is no activation here to keep it out of.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import { pidLeader, stopLeader } from './processTree';

/** The descriptor the server's stdin arrives on. */
const SERVER_STDIN_FD = 3;

async function main(): Promise<void> {
  const pid = Number(process.argv[2]);
  const marker = process.argv[3] || undefined;
  if (!Number.isInteger(pid) || pid <= 0) return;
  const closeStdin = () => {
    try {
      closeSync(SERVER_STDIN_FD);
    } catch {
      // not handed to us (already closed): the server has seen the end of its input either way
    }
  };
  await stopLeader(pidLeader(pid, closeStdin), marker);
}

// The sequence waits on unref'd timers: hold the loop until it is done.
const keepAlive = setInterval(() => undefined, 60_000);
void main().catch(() => undefined).finally(() => clearInterval(keepAlive));
