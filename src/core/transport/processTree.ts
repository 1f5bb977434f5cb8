import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/** How long each shutdown step waits before the next, harsher one. */
export const STDIN_GRACE_MS = 1000;
export const TERM_GRACE_MS = 1500;
const KILL_WAIT_MS = 500;
const POLL_MS = 50;
/** `ps` (macOS and other non-Linux POSIX) answers in milliseconds; a hung one must not hang the stop. */
const PS_TIMEOUT_MS = 2000;

/** One process: its parent and group, and when it started (a pid reused by another process differs). */
interface ProcessRow {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly started: string;
}

/** The parts of a server's process tree the shutdown sequence needs. */
interface Tree {
  /** Finds descendants (a no-op where the OS walks the tree itself). */
  scan(): Promise<void>;
  signal(signal: NodeJS.Signals): void;
  alive(): boolean;
}

/** The process a server was started as: ours (a ChildProcess), or one a watcher was handed by pid. */
export interface Leader {
  readonly pid: number;
  /** Whether it is still running (not exited; not a zombie where that can be told). */
  running(): boolean;
  signal(signal: NodeJS.Signals): void;
  /** Closes its stdin, the first step of the shutdown. */
  closeStdin(): void;
  /** Settles once it has exited. */
  readonly exited: Promise<void>;
}

/**
 * The MCP shutdown sequence: close stdin, wait; SIGTERM the tree, wait; SIGKILL the tree.
 * Resolves once nothing of the tree is left (or after the kill, which cannot be refused).
 * The tree is scanned before stdin closes: once a middle process exits, its children are
 * re-parented to init and no parent pid leads to them any more.
 *
 * `marker` is a `NAME=value` entry of the server's environment that no other process has: its
 * descendants inherit it, so on Linux they are found even after they left the process group and
 * the processes between died (a crash, then a stop), when no parent pid leads to them any more.
 */
export async function stopTree(child: ChildProcess, exited: Promise<void>, marker?: string): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform === 'win32') return stopSequence(new WindowsTree(child, pid), () => child.stdin?.end(), exited);
  return stopLeader(childLeader(child, pid, exited), marker);
}

/** The shutdown sequence for a leader on POSIX (the watcher's, for a process it did not start). */
export async function stopLeader(leader: Leader, marker?: string): Promise<void> {
  return stopSequence(new PosixTree(leader, marker), () => leader.closeStdin(), leader.exited);
}

async function stopSequence(tree: Tree, closeStdin: () => void, exited: Promise<void>): Promise<void> {
  await tree.scan();
  closeStdin();
  await settlesWithin(exited, STDIN_GRACE_MS);
  await tree.scan();
  if (!tree.alive()) return;
  tree.signal('SIGTERM');
  const deadline = Date.now() + TERM_GRACE_MS;
  while (Date.now() < deadline) {
    if (!tree.alive()) return;
    await sleep(POLL_MS);
  }
  await tree.scan(); // children started during the grace
  tree.signal('SIGKILL');
  await settlesWithin(exited, KILL_WAIT_MS);
  // A killed descendant is gone a moment after the signal, not at once: the stop ends when the tree has (bounded).
  for (const deadline = Date.now() + KILL_WAIT_MS; tree.alive() && Date.now() < deadline; ) await sleep(POLL_MS);
}

function childLeader(child: ChildProcess, pid: number, exited: Promise<void>): Leader {
  return {
    pid,
    running: () => child.exitCode === null && child.signalCode === null,
    signal: (signal) => kill(child, signal),
    closeStdin: () => child.stdin?.end(),
    exited,
  };
}

/**
 * A process we did not start, by pid (the watcher's): running while its pid names the same process
 * (on Linux the start time tells a reused pid apart) and it is not a zombie.
 */
export function pidLeader(pid: number, closeStdin: () => void): Leader {
  const first = process.platform === 'linux' ? readStat(pid)?.started : undefined;
  const running = (): boolean => {
    if (process.platform === 'linux') {
      const now = readStat(pid);
      return now !== undefined && now.started === first;
    }
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const exited = (async () => {
    while (running()) await sleep(POLL_MS);
  })();
  return {
    pid,
    running,
    signal: (signal) => {
      try {
        if (running()) process.kill(pid, signal);
      } catch {
        // already gone
      }
    },
    closeStdin,
    exited,
  };
}

/**
 * POSIX: every server runs in its own process group (spawned detached), and the group id reaches
 * the grandchildren npx or a shell started. A descendant can leave the group (setsid, setpgid),
 * so each descendant found by parent pid is signalled too, and remembered across scans.
 */
class PosixTree implements Tree {
  /** Every descendant seen during this stop, as it was when seen. */
  private readonly _known = new Map<number, ProcessRow>();

  private readonly _root: number;

  constructor(private readonly _leader: Leader, private readonly _marker?: string) {
    this._root = _leader.pid;
  }

  async scan(): Promise<void> {
    for (const pid of [...this._known.keys()]) if (!this._current(pid)) this._known.delete(pid);
    const rows = await processTable();
    // Seeds: the leader, its group (the leader may be gone, its group not), and those seen before,
    // whose children still name them as parent even after they were re-parented themselves.
    const found = new Set<number>(this._known.keys());
    if (this._leader.running()) found.add(this._root);
    for (const row of rows) if (row.pgid === this._root) found.add(row.pid);
    if (this._marker) for (const pid of await pidsWithMarker(rows, this._marker)) found.add(pid);
    const children = new Map<number, number[]>();
    for (const row of rows) {
      const siblings = children.get(row.ppid);
      if (siblings) siblings.push(row.pid);
      else children.set(row.ppid, [row.pid]);
    }
    const queue = [...found];
    for (let i = 0; i < queue.length; i++) {
      for (const pid of children.get(queue[i]) ?? []) {
        if (found.has(pid)) continue;
        found.add(pid);
        queue.push(pid);
      }
    }
    for (const row of rows) if (found.has(row.pid) && !this._known.has(row.pid)) this._known.set(row.pid, row);
  }

  signal(signal: NodeJS.Signals): void {
    let grouped = false;
    try {
      process.kill(-this._root, signal);
      grouped = true;
    } catch {
      if (this._leader.running()) this._leader.signal(signal);
    }
    for (const pid of this._known.keys()) {
      const row = this._current(pid);
      if (!row || (grouped && row.pgid === this._root)) continue; // gone, or the group signal reached it
      try {
        process.kill(pid, signal);
      } catch {
        // already gone
      }
    }
  }

  /** Whether the group or any descendant seen is still running (zombies do not count on Linux). */
  alive(): boolean {
    try {
      process.kill(-this._root, 0);
      return true;
    } catch {
      return [...this._known.keys()].some((pid) => this._current(pid));
    }
  }

  /** The process as it is now, if it is still the one we saw (not exited, its pid not reused). */
  private _current(pid: number): ProcessRow | undefined {
    const seen = this._known.get(pid);
    if (!seen) return undefined;
    if (process.platform === 'linux') {
      const now = readStat(pid);
      return now?.started === seen.started ? now : undefined;
    }
    try {
      process.kill(pid, 0);
      return seen;
    } catch {
      return undefined;
    }
  }
}

/** Windows: `taskkill /T` walks the tree; we can only see the child's own exit. */
class WindowsTree implements Tree {
  constructor(private readonly _child: ChildProcess, private readonly _pid: number) {}

  async scan(): Promise<void> {}

  signal(): void {
    spawn('taskkill', ['/pid', String(this._pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => undefined);
  }

  alive(): boolean {
    return this._child.exitCode === null && this._child.signalCode === null;
  }
}

/** Every live process (zombies left out): /proc on Linux, `ps` elsewhere. Empty if unreadable. */
async function processTable(): Promise<ProcessRow[]> {
  if (process.platform !== 'linux') return psTable();
  let names: string[];
  try {
    names = await readdir('/proc');
  } catch {
    return [];
  }
  const rows = await Promise.all(names.filter((name) => /^\d+$/.test(name)).map(async (name) => {
    try {
      return parseStat(await readFile(`/proc/${name}/stat`, 'utf8'));
    } catch {
      return undefined; // exited meanwhile
    }
  }));
  return rows.filter((row): row is ProcessRow => row !== undefined);
}

/** The processes whose environment holds the entry `marker` (Linux: /proc/<pid>/environ; elsewhere none). */
async function pidsWithMarker(rows: readonly ProcessRow[], marker: string): Promise<number[]> {
  if (process.platform !== 'linux') return [];
  const entry = marker;
  const own = process.pid;
  const hits = await Promise.all(rows.map(async (row) => {
    if (row.pid === own) return undefined;
    try {
      return (await readFile(`/proc/${row.pid}/environ`, 'latin1')).split('\0').includes(entry) ? row.pid : undefined;
    } catch {
      return undefined; // another user's process, or gone
    }
  }));
  return hits.filter((pid): pid is number => pid !== undefined);
}

function readStat(pid: number): ProcessRow | undefined {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** A /proc/<pid>/stat line: "pid (comm) state ppid pgrp ..."; comm may hold spaces and parentheses. */
function parseStat(text: string): ProcessRow | undefined {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields.length < 20) return undefined;
  return { pid: parseInt(text, 10), ppid: Number(fields[1]), pgid: Number(fields[2]), started: fields[19] };
}

function psTable(): Promise<ProcessRow[]> {
  return new Promise((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat=,lstart='], { timeout: PS_TIMEOUT_MS }, (error, stdout) => {
      if (error) return resolve([]);
      const rows: ProcessRow[] = [];
      for (const line of stdout.split('\n')) {
        const [pid, ppid, pgid, stat, ...started] = line.trim().split(/\s+/);
        if (!stat || stat.startsWith('Z')) continue;
        rows.push({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), started: started.join(' ') });
      }
      resolve(rows);
    });
  });
}

function kill(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    child.kill(signal);
  } catch {
    // already gone
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

async function settlesWithin(p: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([p.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
