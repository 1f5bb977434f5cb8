// What every benchmark case shares: where things are, how ours and the raw baseline start, how
// time and event-loop blocking are measured, and the rows of the report.
import type { SandboxSettings } from '../src/core/transport/sandbox';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseServers } from '../src/core/config/serverConfig';
import { ServerConnection } from '../src/core/connection/serverConnection';
import { SchemaValidator } from '../src/core/tools/schemaValidator';

export const ROOT = path.resolve(__dirname, '../..');
export const REFERENCE = path.resolve(process.env.BENCH_REFERENCE ?? path.join(ROOT, '../shared/reference'));
export const ECHO_SERVER = path.join(REFERENCE, 'raw-echo-server.cjs');
/** The same echo server in the 2026-07-28 revision (server/discover, resultType): cases 1-3 in that era. */
export const MODERN_ECHO_SERVER = path.join(ROOT, 'bench/modern-echo-server.cjs');
export const MANY_TOOLS_SERVER = path.join(ROOT, 'test/fixtures/servers/many-tools.cjs');

export interface RawClientLike {
  spawned: Promise<void>;
  initialize(): Promise<unknown>;
  request(method: string, params?: unknown): Promise<unknown>;
  close(): Promise<void>;
}
type RawClientCtor = new (command: string, args: string[], opts?: { env?: NodeJS.ProcessEnv; stderr?: string }) => RawClientLike;

/** The bench's settings: `--smoke` runs every case tiny, with no goals, for `npm test`. */
export interface BenchOptions {
  readonly smoke: boolean;
  readonly rounds: number;
  /** n at full size, or a hundredth of it (at least 1) in a smoke run. */
  scale(n: number): number;
}

export function benchOptions(argv: readonly string[]): BenchOptions {
  const smoke = argv.includes('--smoke');
  return { smoke, rounds: smoke ? 1 : 5, scale: (n) => (smoke ? Math.max(1, Math.ceil(n / 100)) : n) };
}

export const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined, stderr: () => undefined };
export const callOptions = { timeoutMs: 600_000, maxTotalTimeoutMs: 600_000 };

/** Our core client (the SDK Client over our StdioTransport) connected to the raw echo server. */
export async function startOurs(env: Record<string, string> = {}, server = ECHO_SERVER, sandbox?: SandboxSettings): Promise<ServerConnection> {
  const [def] = parseServers({ raw: { command: process.execPath, args: [server], env } }, 'user').servers;
  const c = new ServerConnection(def, {
    log: quietLog,
    validator: new SchemaValidator(),
    clientVersion: 'bench',
    maxMessageBytes: 256 * 1024 * 1024,
    resolveLaunch: async () => ({ type: 'stdio', launch: { command: process.execPath, args: [server], env: { ...(process.env as Record<string, string>), ...env } }, ...(sandbox && { sandbox }) }),
  });
  await c.start();
  if (c.state.kind !== 'running') throw new Error(`bench server did not start: ${JSON.stringify(c.state)}`);
  return c;
}

/** The hand-written raw client of ../shared/reference against the same server. */
export async function startRaw(env: Record<string, string> = {}, server = ECHO_SERVER): Promise<RawClientLike> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the baseline is plain CommonJS outside the project
  const { RawClient } = require(path.join(REFERENCE, 'raw-client.cjs')) as { RawClient: RawClientCtor };
  const c = new RawClient(process.execPath, [server], { env: { ...process.env, ...env }, stderr: 'ignore' });
  await c.spawned;
  await c.initialize();
  return c;
}

export async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs `fn` with 64 (or `depth`) calls in flight until `total` calls are done. */
export async function pipelined(total: number, call: () => Promise<unknown>, depth = 64): Promise<void> {
  let left = total;
  await Promise.all(Array.from({ length: depth }, async () => {
    while (left-- > 0) await call();
  }));
}

const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

/**
 * The main thread's time on a CPU and waiting for one, in ms (Linux; undefined elsewhere). On a
 * shared machine a timer can fire late because the OS ran someone else: only time on the CPU
 * is time our code kept the event loop busy.
 */
export function mainThreadClock(): { runMs: number; waitMs: number } | undefined {
  try {
    const [run, wait] = fs.readFileSync(SCHEDSTAT, 'utf8').split(' ').map(Number);
    return { runMs: run / 1e6, waitMs: wait / 1e6 };
  } catch {
    return undefined;
  }
}

/**
 * The longest the event loop was kept from running a 1 ms timer while `fn` ran (one more tick is
 * awaited after it, so a block at the very end counts too). Each gap counts only the main
 * thread's own CPU time in it where the OS tells us (see mainThreadClock): the wall-clock gap
 * is in `maxWallGapMs`.
 */
export async function withLoopBlock<T>(fn: () => Promise<T>): Promise<{ value: T; maxBlockMs: number; maxWallGapMs: number }> {
  let last = performance.now();
  let lastCpu = mainThreadClock()?.runMs;
  let max = 0;
  let maxWall = 0;
  let running = true;
  const tick = () => {
    const now = performance.now();
    const cpu = mainThreadClock()?.runMs;
    const gap = now - last;
    max = Math.max(max, cpu !== undefined && lastCpu !== undefined ? Math.min(gap, cpu - lastCpu) : gap);
    maxWall = Math.max(maxWall, gap);
    last = now;
    lastCpu = cpu;
    if (running) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  try {
    const value = await fn();
    await new Promise((resolve) => setTimeout(resolve, 2));
    return { value, maxBlockMs: max, maxWallGapMs: maxWall };
  } finally {
    running = false;
  }
}

export function machine(): string {
  const cpu = os.cpus();
  return `${cpu.length} cores (${cpu[0]?.model ?? '?'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.arch()}`;
}

/** One line of the report. `raw` and `ratio` are absent where a case has no baseline (budgets). */
export interface Row {
  readonly case: string;
  readonly ours: number;
  readonly raw?: number;
  readonly unit: string;
  readonly ratio?: number;
  readonly goal?: string;
  /** undefined: informational (no goal), or not measured in this run. */
  readonly ok?: boolean;
  readonly note?: string;
}

/** Collects rows and prints each as it lands. */
export class Report {
  readonly rows: Row[] = [];

  constructor(private readonly _smoke: boolean) {}

  add(row: Row): void {
    const ok = this._smoke ? undefined : row.ok;
    this.rows.push({ ...row, ok });
    const raw = row.raw === undefined ? '' : `, raw ${fmt(row.raw)} ${row.unit}, ratio ${fmt(row.ratio ?? 0)}`;
    console.log(`${row.case}: ours ${fmt(row.ours)} ${row.unit}${raw}${row.goal && ok !== undefined ? ` (goal ${row.goal}: ${ok ? 'met' : 'MISSED'})` : ''}${row.note ? ` [${row.note}]` : ''}`);
  }

  /** A ratio row: ours over raw for times (`max` goal), or rates (`min` goal). */
  ratio(name: string, ours: readonly number[], raw: readonly number[], unit: string, goal: { max?: number; min?: number } | undefined, note?: string): void {
    const o = median(ours);
    const r = median(raw);
    const ratio = o / r;
    const ok = goal === undefined ? undefined : goal.max !== undefined ? ratio <= goal.max : ratio >= (goal.min ?? 0);
    const goalText = goal === undefined ? undefined : goal.max !== undefined ? `<= ${goal.max}x raw` : `>= ${goal.min}x raw`;
    this.add({ case: name, ours: o, raw: r, unit, ratio, goal: goalText, ok, note });
  }

  markdown(header: string): string {
    const lines = [header, '', '| case | ours | raw | ratio | goal | met |', '| --- | --- | --- | --- | --- | --- |'];
    for (const r of this.rows) {
      const met = r.ok === undefined ? (r.goal ? '—' : '') : r.ok ? 'yes' : '**no**';
      const unit = (n: number) => `${fmt(n)}${r.unit ? ` ${r.unit}` : ''}`;
      const note = r.note ? (met ? ` (${r.note})` : r.note) : '';
      lines.push(`| ${r.case} | ${unit(r.ours)} | ${r.raw === undefined ? '' : unit(r.raw)} | ${r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}x`} | ${r.goal ?? ''} | ${met}${note} |`);
    }
    return lines.join('\n');
  }
}

export function fmt(n: number): string {
  const a = Math.abs(n);
  if (Number.isInteger(n)) return String(n);
  return a >= 1000 ? n.toFixed(0) : a >= 100 ? n.toFixed(1) : n.toFixed(2);
}
