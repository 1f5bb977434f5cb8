// Run by bench/memoryCases.ts in its own Node with --expose-gc, so heap numbers are this work's
// alone: `node --expose-gc out/bench/memoryProbe.js idle|soak N`; prints one JSON line.
import { CallPipeline } from '../src/core/calls/callPipeline';
import type { CallSink } from '../src/core/calls/ports';
import { parseServers } from '../src/core/config/serverConfig';
import type { ServerConnection } from '../src/core/connection/serverConnection';
import { ServerPool } from '../src/core/connection/serverPool';
import { RateLimiter } from '../src/core/policy/rateLimiter';
import { SchemaValidator } from '../src/core/tools/schemaValidator';
import { ECHO_SERVER, MANY_TOOLS_SERVER, pipelined, quietLog } from './harness';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Heap in use after full collections (heap + off-heap buffers), in bytes. */
async function settledHeap(): Promise<{ heap: number; external: number; rss: number }> {
  for (let i = 0; i < 4; i++) {
    gc!();
    await sleep(20);
  }
  const m = process.memoryUsage();
  return { heap: m.heapUsed, external: m.external, rss: m.rss };
}

/** Host-side memory of N idle connections, each with 200 tools listed. */
async function idle(n: number) {
  const before = await settledHeap();
  const validator = new SchemaValidator();
  const pool = new ServerPool(() => ({ log: quietLog, validator, clientVersion: 'bench', resolveLaunch: async () => ({ type: 'stdio', launch: { command: process.execPath, args: [MANY_TOOLS_SERVER], env: { ...(process.env as Record<string, string>), TOOLS: '200' } } }) }));
  const servers = Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, { command: process.execPath, args: [MANY_TOOLS_SERVER] }]));
  pool.apply(parseServers(servers, 'user'), { autoStart: false });
  await Promise.all(pool.connections.map((c) => c.start()));
  const tools = pool.connections.reduce((sum, c) => sum + c.tools.length, 0);
  await sleep(500);
  const after = await settledHeap();
  await pool.stopAll();
  pool.dispose();
  return { connections: n, tools, perConnection: { heap: (after.heap - before.heap) / n, external: (after.external - before.external) / n, rss: (after.rss - before.rss) / n } };
}

/** Everything that could pile up per call: listeners, pending requests, timers, handles. */
function accumulators(connection: ServerConnection, pipeline: CallPipeline): Record<string, number | string> {
  const client = Reflect.get(connection, '_client') as object | undefined;
  const transport = Reflect.get(connection, '_transport') as object | undefined;
  const child = transport && (Reflect.get(transport, '_child') as NodeJS.EventEmitter & { stdin: NodeJS.EventEmitter; stdout: NodeJS.EventEmitter; stderr: NodeJS.EventEmitter });
  const size = (o: object | undefined, field: string) => {
    const v = o && (Reflect.get(o, field) as { size?: number; length?: number } | undefined);
    return v?.size ?? v?.length ?? 'n/a';
  };
  const listeners = (e: NodeJS.EventEmitter | undefined) => (e ? e.eventNames().reduce((sum, name) => sum + e.listenerCount(name), 0) : 'n/a');
  return {
    'sdk response handlers': size(client, '_responseHandlers'),
    'sdk progress handlers': size(client, '_progressHandlers'),
    'sdk timeouts': size(client, '_timeoutInfo'),
    'sdk request abort controllers': size(client, '_requestHandlerAbortControllers'),
    'transport queue': size(transport, '_queue'),
    'child process listeners': listeners(child),
    'stdin listeners': listeners(child?.stdin),
    'stdout listeners': listeners(child?.stdout),
    'stderr listeners': listeners(child?.stderr),
    'process listeners': listeners(process),
    'calls in flight': Reflect.get(pipeline, '_callsInFlight') as number,
    'active handles': (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().length,
  };
}

/** N calls through the whole CallPipeline (validate, approve, call, render, sink), 16 in flight. */
async function soak(n: number) {
  const validator = new SchemaValidator();
  const pool = new ServerPool(() => ({ log: quietLog, validator, clientVersion: 'bench', resolveLaunch: async () => ({ type: 'stdio', launch: { command: process.execPath, args: [ECHO_SERVER], env: process.env as Record<string, string> } }) }));
  pool.apply(parseServers({ raw: { command: process.execPath, args: [ECHO_SERVER] } }, 'user'), { autoStart: false });
  const connection = pool.get('raw')!;
  await connection.start();
  const sink: CallSink = { begin: () => undefined, line: () => undefined, progress: () => undefined, end: () => undefined };
  const pipeline = new CallPipeline(pool, validator, { approve: async () => 'allow-tool-session' }, sink, { rateLimiter: new RateLimiter(() => ({ burst: 1e9, perSecond: 1e9 })) });
  let failures = 0;
  const call = async () => {
    const outcome = await pipeline.call({ server: 'raw', tool: 'echo', args: { text: 'soak' }, origin: 'api' });
    if (outcome.kind !== 'ok') failures++;
  };
  await pipelined(Math.min(5000, n), call, 16); // warm up: JIT, caches, grants
  const heapBefore = await settledHeap();
  const before = accumulators(connection, pipeline);
  const started = performance.now();
  await pipelined(n, call, 16);
  const seconds = (performance.now() - started) / 1000;
  await sleep(100);
  const heapAfter = await settledHeap();
  const after = accumulators(connection, pipeline);
  await connection.stop();
  pool.dispose();
  return { calls: n, failures, seconds, heapGrowth: heapAfter.heap - heapBefore.heap, externalGrowth: heapAfter.external - heapBefore.external, before, after };
}

const [mode, count] = [process.argv[2], Number(process.argv[3] ?? '10')];
(mode === 'idle' ? idle(count) : soak(count)).then(
  (result) => {
    console.log(JSON.stringify(result));
    process.exit(0);
  },
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
