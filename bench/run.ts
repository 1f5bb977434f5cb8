// `npm run bench`: our core client beside the raw JSON-RPC baseline (../shared/reference), in the
// same run, several rounds, medians and ratios. `--smoke` runs every case tiny, without goals,
// so `npm test` keeps the scripts working. Results: bench-results/results.{json,md}.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseServers } from '../src/core/config/serverConfig';
import { ServerConnection } from '../src/core/connection/serverConnection';
import { SchemaValidator } from '../src/core/tools/schemaValidator';
import { renderResult } from '../src/core/render/renderResult';
import { sanitizeText } from '../src/core/render/sanitize';

const root = path.resolve(__dirname, '../..');
const reference = path.resolve(process.env.BENCH_REFERENCE ?? path.join(root, '../shared/reference'));
const echoServer = path.join(reference, 'raw-echo-server.cjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the baseline is plain CommonJS outside the project
const { RawClient } = require(path.join(reference, 'raw-client.cjs')) as { RawClient: RawClientCtor };
type RawClientCtor = new (command: string, args: string[], opts?: { env?: NodeJS.ProcessEnv; stderr?: string }) => RawClientLike;
interface RawClientLike {
  spawned: Promise<void>;
  initialize(): Promise<unknown>;
  request(method: string, params?: unknown): Promise<unknown>;
  close(): Promise<void>;
}

const smoke = process.argv.includes('--smoke');
const rounds = smoke ? 1 : 5;
const scale = (n: number) => (smoke ? Math.max(1, Math.ceil(n / 100)) : n);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined, stderr: () => undefined };
const callOptions = { timeoutMs: 600_000, maxTotalTimeoutMs: 600_000 };

async function ours(env: Record<string, string> = {}): Promise<ServerConnection> {
  const [def] = parseServers({ raw: { command: process.execPath, args: [echoServer], env } }, 'user').servers;
  const c = new ServerConnection(def, {
    log: quiet,
    validator: new SchemaValidator(),
    clientVersion: 'bench',
    maxMessageBytes: 256 * 1024 * 1024,
    resolveLaunch: async (d) => ({ type: 'stdio', launch: { command: process.execPath, args: [echoServer], env: { ...(process.env as Record<string, string>), ...(d.spec.type === 'stdio' ? (d.spec.env as Record<string, string>) : {}) } } }),
  });
  await c.start();
  if (c.state.kind !== 'running') throw new Error(`bench server did not start: ${JSON.stringify(c.state)}`);
  return c;
}

async function raw(env: Record<string, string> = {}): Promise<RawClientLike> {
  const c = new RawClient(process.execPath, [echoServer], { env: { ...process.env, ...env }, stderr: 'ignore' });
  await c.spawned;
  await c.initialize();
  return c;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

interface Row { case: string; ours: number; raw: number; unit: string; ratio: number; goal: string; ok: boolean; note?: string }
const rows: Row[] = [];
function record(name: string, o: number[], r: number[], unit: string, goal: { max?: number; min?: number }, note?: string) {
  const mo = median(o);
  const mr = median(r);
  const ratio = mo / mr;
  const ok = goal.max !== undefined ? ratio <= goal.max : ratio >= (goal.min ?? 0);
  rows.push({ case: name, ours: mo, raw: mr, unit, ratio, goal: goal.max !== undefined ? `<= ${goal.max}x` : `>= ${goal.min}x`, ok, note });
  console.log(`${name}: ours ${mo.toFixed(2)} ${unit}, raw ${mr.toFixed(2)} ${unit}, ratio ${ratio.toFixed(2)} ${ok ? 'ok' : 'MISSED'}${note ? ` (${note})` : ''}`);
}

async function sequential() {
  const n = scale(2000);
  const c = await ours();
  const r = await raw();
  const o: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    o.push((await time(async () => { for (let k = 0; k < n; k++) await c.callTool('echo', { text: 'hi' }, callOptions); })) * 1000 / n);
    b.push((await time(async () => { for (let k = 0; k < n; k++) await r.request('tools/call', { name: 'echo', arguments: { text: 'hi' } }); })) * 1000 / n);
  }
  record('1. sequential tools/call latency', o, b, 'µs/call', { max: 1.3 });
  // 2. pipelined throughput: 64 calls in flight (a ratio of rates: ours/raw >= 0.6)
  const m = scale(20000);
  const po: number[] = [];
  const pb: number[] = [];
  const pump = async (call: () => Promise<unknown>) => {
    let left = m;
    await Promise.all(Array.from({ length: 64 }, async () => { while (left-- > 0) await call(); }));
  };
  for (let i = 0; i < rounds; i++) {
    po.push(m / (await time(() => pump(() => c.callTool('echo', { text: 'hi' }, callOptions)))) * 1000);
    pb.push(m / (await time(() => pump(() => r.request('tools/call', { name: 'echo', arguments: { text: 'hi' } })))) * 1000);
  }
  record('2. pipelined throughput, 64 in flight', po, pb, 'calls/s', { min: 0.6 });
  await c.stop();
  await r.close();
}

async function listing(tools: number, outputSchema: boolean) {
  const env = { RAW_TOOLS: String(smoke ? 10 : tools), OUTSCHEMA: outputSchema ? '1' : '0' };
  const c = await ours(env);
  const r = await raw(env);
  const o: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    o.push(await time(() => c.refreshTools()));
    b.push(await time(() => r.request('tools/list', {})));
  }
  record(`3. tools/list of ${tools} tools${outputSchema ? ' with outputSchema' : ''}`, o, b, 'ms', { max: 2 });
  await c.stop();
  await r.close();
}

async function bigResult(mib: number) {
  const size = smoke ? 64 * 1024 : mib * 1024 * 1024;
  const c = await ours();
  const r = await raw();
  const o: number[] = [];
  const b: number[] = [];
  const rendered: number[] = [];
  let maxDelay = 0;
  for (let i = 0; i < rounds; i++) {
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    o.push(await time(() => c.callTool('big', { size }, callOptions)));
    rendered.push(await time(async () => {
      const result = await c.callTool('big', { size }, callOptions);
      const text = (await renderResult(result)).text;
      // an output sink writes in chunks; measure the sanitising and chunking work it does
      for (let at = 0; at < text.length; at += 1 << 20) sanitizeText(text.slice(at, at + (1 << 20)));
    }));
    h.disable();
    maxDelay = Math.max(maxDelay, h.max / 1e6);
    b.push(await time(() => r.request('tools/call', { name: 'big', arguments: { size } })));
  }
  record(`4. ${mib} MiB text result, transfer`, o, b, 'ms', { max: 1.25 });
  record(`4. ${mib} MiB text result, transfer + render`, rendered, b, 'ms', { max: 2 }, `max event-loop delay ${maxDelay.toFixed(0)} ms (goal <= 50)`);
  await c.stop();
  await r.close();
}

async function spawnHandshake() {
  const o: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < (smoke ? 1 : 10); i++) {
    let c: ServerConnection | undefined;
    o.push(await time(async () => (c = await ours())));
    await c!.stop();
    let r: RawClientLike | undefined;
    b.push(await time(async () => { r = await raw(); await r.request('tools/list', {}); }));
    await r!.close();
  }
  const overhead = median(o) - median(b);
  rows.push({ case: '5. spawn + handshake + tools/list', ours: median(o), raw: median(b), unit: 'ms', ratio: median(o) / median(b), goal: 'overhead <= 10 ms', ok: overhead <= 10, note: `overhead ${overhead.toFixed(1)} ms` });
  console.log(`5. spawn + handshake: ours ${median(o).toFixed(1)} ms, raw ${median(b).toFixed(1)} ms, overhead ${overhead.toFixed(1)} ms`);
}

async function main() {
  if (!fs.existsSync(echoServer)) throw new Error(`The raw baseline is missing: ${echoServer} (set BENCH_REFERENCE).`);
  const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.arch()}`;
  console.log(`machine: ${machine}${smoke ? ' (smoke run: tiny sizes, no goals)' : ''}`);
  await sequential();
  for (const [n, s] of [[1000, false], [1000, true], [10000, false], [10000, true]] as const) await listing(n, s);
  await bigResult(10);
  await bigResult(50);
  await spawnHandshake();
  const outDir = path.join(root, 'bench-results');
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'results.json'), JSON.stringify({ machine, smoke, date: new Date().toISOString(), rows }, null, 2));
  const md = [`Machine: ${machine}. ${smoke ? 'Smoke run.' : `Medians of ${rounds} rounds.`}`, '', '| case | ours | raw | ratio | goal | met |', '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.case} | ${r.ours.toFixed(2)} ${r.unit} | ${r.raw.toFixed(2)} ${r.unit} | ${r.ratio.toFixed(2)}x | ${r.goal} | ${r.ok ? 'yes' : 'no'}${r.note ? ` (${r.note})` : ''} |`)].join('\n');
  fs.writeFileSync(path.join(outDir, 'results.md'), md + '\n');
  console.log('\n' + md);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error('bench failed:', err);
    process.exit(1);
  },
);
