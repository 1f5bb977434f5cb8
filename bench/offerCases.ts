// Case 11: what a server offers besides tools, beside the raw client on the same server
// (bench/resource-echo-server.cjs): listing 10,000 resources and reading a 50 MiB one, through the
// ResourceOffers every surface uses (src/core/offers), and how long the event loop stands still
// while the large one is read and made ready to open.
import path from 'node:path';
import { CallPipeline } from '../src/core/calls/callPipeline';
import type { CallSink } from '../src/core/calls/ports';
import { parseServers } from '../src/core/config/serverConfig';
import { ServerPool } from '../src/core/connection/serverPool';
import { loadOffers } from '../src/core/offers/load';
import { SchemaValidator } from '../src/core/tools/schemaValidator';
import { ROOT, median, quietLog, startRaw, time, withLoopBlock, type BenchOptions, type Report } from './harness';

const RESOURCE_SERVER = path.join(ROOT, 'bench/resource-echo-server.cjs');
const sink: CallSink = { begin: () => undefined, line: () => undefined, progress: () => undefined, end: () => undefined };

/** A pool with the resource server as "raw", started, and a pipeline over it (the offers' host). */
async function startOffersHost(env: Record<string, string>) {
  const validator = new SchemaValidator();
  const launchEnv = { ...(process.env as Record<string, string>), ...env };
  const pool = new ServerPool(() => ({ log: quietLog, validator, clientVersion: 'bench', maxMessageBytes: 256 * 1024 * 1024, resolveLaunch: async () => ({ type: 'stdio', launch: { command: process.execPath, args: [RESOURCE_SERVER], env: launchEnv } }) }));
  pool.apply(parseServers({ raw: { command: process.execPath, args: [RESOURCE_SERVER] } }, 'user'), { autoStart: false });
  await pool.get('raw')!.start();
  const pipeline = new CallPipeline(pool, validator, { approve: async () => 'allow-once' }, sink);
  return { pool, pipeline };
}

export async function offerCases(o: BenchOptions, report: Report): Promise<void> {
  const count = o.smoke ? 20 : 10_000;
  const mib = o.smoke ? 0.0625 : 50;
  const size = Math.round(mib * 1024 * 1024);
  const env = { RAW_RESOURCES: String(count), PAGE: '1000' };
  const host = await startOffersHost(env);
  const raw = await startRaw(env, RESOURCE_SERVER);
  const t = { listOurs: [] as number[], listRaw: [] as number[], readOurs: [] as number[], readRaw: [] as number[] };
  const block = { read: 0, open: 0, raw: 0 };
  // One untimed round first: loading the offers' bundle and warming the JIT happen once a window, not per listing.
  const warm = loadOffers().newResourceOffers({ pool: host.pool, pipeline: host.pipeline });
  await warm.resources('raw');
  warm.dispose();
  for (let i = 0; i < o.rounds; i++) {
    // A fresh ResourceOffers each round: its listing is cached until the server says it changed.
    const offers = loadOffers().newResourceOffers({ pool: host.pool, pipeline: host.pipeline });
    let listed = 0;
    t.listOurs.push(await time(async () => void (listed = (await offers.resources('raw')).items.length)));
    if (listed !== count) throw new Error(`listed ${listed} resources of ${count}`);
    t.listRaw.push(await time(async () => {
      for (let cursor: string | undefined = '0'; cursor !== undefined; ) cursor = ((await raw.request('resources/list', cursor === '0' ? {} : { cursor })) as { nextCursor?: string }).nextCursor;
    }));
    offers.dispose();
  }
  // The reads after the listings: the garbage of three 50 MiB reads a round would be collected in the listings' time.
  for (let i = 0; i < o.rounds; i++) {
    const offers = loadOffers().newResourceOffers({ pool: host.pool, pipeline: host.pipeline });
    const read = await withLoopBlock(() => time(async () => {
      const outcome = await offers.read({ server: 'raw', uri: `bench://big/${size}`, origin: 'api', maxBytes: 256 * 1024 * 1024 });
      if (outcome.kind !== 'ok') throw new Error(`read failed: ${outcome.message}`);
    }));
    t.readOurs.push(read.value);
    block.read = Math.max(block.read, read.maxBlockMs);
    // What opening it in an editor adds: the text as bytes for the read-only file system.
    const open = await withLoopBlock(async () => {
      const outcome = await offers.read({ server: 'raw', uri: `bench://big/${size}`, origin: 'api', maxBytes: 256 * 1024 * 1024 });
      if (outcome.kind === 'ok') await loadOffers().documentBytes(outcome.parts);
    });
    block.open = Math.max(block.open, open.maxBlockMs);
    const rawRead = await withLoopBlock(() => time(() => raw.request('resources/read', { uri: `bench://big/${size}` })));
    t.readRaw.push(rawRead.value);
    block.raw = Math.max(block.raw, rawRead.maxBlockMs);
    offers.dispose();
  }
  report.ratio(`11. resources/list of ${count} resources (pages of 1000)`, t.listOurs, t.listRaw, 'ms', { max: 2 });
  report.ratio(`11. resources/read of a ${mib} MiB text resource`, t.readOurs, t.readRaw, 'ms', { max: 2 });
  const worst = Math.max(block.read, block.open);
  report.add({ case: `11. ${mib} MiB resource read and made ready to open, longest event-loop block`, ours: worst, raw: block.raw, unit: 'ms', ratio: worst / block.raw, goal: '<= 50 ms', ok: o.smoke || worst <= 50, note: `read ${block.read.toFixed(0)} ms, as bytes for the editor ${block.open.toFixed(0)} ms; raw column: the raw client, blocked by its own JSON.parse; median read ${median(t.readOurs).toFixed(0)} ms` });
  await host.pool.stopAll();
  host.pool.dispose();
  await raw.close();
}
