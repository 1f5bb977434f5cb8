import { spawn, type ChildProcess } from 'node:child_process';

/** How long each shutdown step waits before the next, harsher one. */
export const STDIN_GRACE_MS = 1000;
export const TERM_GRACE_MS = 1500;

/**
 * Sends a signal to the process and all of its descendants. On POSIX every server runs in its
 * own process group (spawned detached), so the group id reaches grandchildren that npx or a
 * shell started; on Windows `taskkill /T` walks the tree.
 */
export function signalTree(child: ChildProcess, signal: NodeJS.Signals): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => undefined);
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

/** Whether the process group still has a member (POSIX); the child's own exit otherwise. */
export function treeAlive(child: ChildProcess): boolean {
  const pid = child.pid;
  if (pid === undefined) return false;
  if (process.platform === 'win32') return child.exitCode === null && child.signalCode === null;
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * The MCP shutdown sequence: close stdin, wait; SIGTERM the tree, wait; SIGKILL the tree.
 * Resolves once nothing of the tree is left (or after the kill, which cannot be refused).
 */
export async function stopTree(child: ChildProcess, exited: Promise<void>): Promise<void> {
  child.stdin?.end();
  if (await settlesWithin(exited, STDIN_GRACE_MS) && !treeAlive(child)) return;
  signalTree(child, 'SIGTERM');
  const deadline = Date.now() + TERM_GRACE_MS;
  while (Date.now() < deadline) {
    if (!treeAlive(child)) return;
    await sleep(50);
  }
  signalTree(child, 'SIGKILL');
  await settlesWithin(exited, 500);
}

async function settlesWithin(p: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([p.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
