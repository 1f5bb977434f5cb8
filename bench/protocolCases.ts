// Cases 1-5 of issue 7: our core client beside the raw client, against the same raw echo server,
// rounds interleaved so both see the same machine.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sandboxCheck, type SandboxSettings } from '../src/core/transport/sandbox';
import { summaryParts } from '../src/core/calls/callPipeline';
import type { CallSink } from '../src/core/calls/ports';
import { renderResult } from '../src/core/render/renderResult';
import { showSummary, writeTextFile } from '../src/core/render/longText';
import { MinimalClient, rawServerToolsJson, sdkCpuPerCall, sdkListCost } from './decomposition';
import { callOptions, ECHO_SERVER, median, MODERN_ECHO_SERVER, pipelined, startOurs, startRaw, time, withLoopBlock, type BenchOptions, type Report, type RawClientLike } from './harness';

const echo = { name: 'echo', arguments: { text: 'hi' } };

/**
 * A protocol era the cases run in: its server, what the raw client sends (in 2026-07-28 each
 * request carries the `_meta` envelope, as ours does), and the suffix of its rows. The rows
 * that split where the time goes (1a, 2a-2c, 3a-3c) run in the 2025 era only.
 */
export interface BenchEra {
  readonly server: string;
  readonly suffix: string;
  readonly params: (params: Record<string, unknown>) => Record<string, unknown>;
  readonly split: boolean;
}

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
export const ERAS: readonly BenchEra[] = [
  { server: ECHO_SERVER, suffix: '', params: (p) => p, split: true },
  { server: MODERN_ECHO_SERVER, suffix: ' (2026-07-28)', params: (p) => ({ ...p, _meta: ENVELOPE }), split: false },
];

export async function sequentialAndPipelined(o: BenchOptions, report: Report, era: BenchEra = ERAS[0]): Promise<void> {
  const n = o.scale(3000);
  const ours = await startOurs({}, era.server);
  const raw = await startRaw({}, era.server);
  const spoken = ours.state.kind === 'running' ? ours.state.protocolVersion : undefined;
  if ((spoken === '2026-07-28') === era.split) throw new Error(`bench: the session speaks protocol ${spoken}, not the era asked for`);
  const minimal = era.split ? await MinimalClient.start() : undefined;
  const rawEcho = era.params(echo);
  const seq = { ours: [] as number[], raw: [] as number[], minimal: [] as number[] };
  const rounds = o.smoke ? 1 : 7;
  for (let i = 0; i < rounds; i++) {
    seq.ours.push(((await time(async () => { for (let k = 0; k < n; k++) await ours.callTool('echo', echo.arguments, callOptions); })) * 1000) / n);
    seq.raw.push(((await time(async () => { for (let k = 0; k < n; k++) await raw.request('tools/call', rawEcho); })) * 1000) / n);
    if (minimal) seq.minimal.push(((await time(async () => { for (let k = 0; k < n; k++) await minimal.request('tools/call', echo); })) * 1000) / n);
  }
  report.ratio(`1. sequential tools/call latency${era.suffix}`, seq.ours, seq.raw, 'µs/call', { max: 1.3 });
  if (minimal) report.ratio('1a. (where it goes) our transport alone, minimal dispatcher, no SDK', seq.minimal, seq.raw, 'µs/call', undefined);

  const m = o.scale(30000);
  const rate = { ours: [] as number[], raw: [] as number[], minimal: [] as number[] };
  for (let i = 0; i < rounds; i++) {
    rate.ours.push((m / (await time(() => pipelined(m, () => ours.callTool('echo', echo.arguments, callOptions))))) * 1000);
    rate.raw.push((m / (await time(() => pipelined(m, () => raw.request('tools/call', rawEcho))))) * 1000);
    if (minimal) rate.minimal.push((m / (await time(() => pipelined(m, () => minimal.request('tools/call', echo))))) * 1000);
  }
  report.ratio(`2. pipelined throughput, 64 in flight${era.suffix}`, rate.ours, rate.raw, 'calls/s', { min: 0.6 });
  if (!minimal) return void (await Promise.all([ours.stop(), raw.close()]));
  report.ratio('2a. (where it goes) our transport alone, minimal dispatcher, no SDK', rate.minimal, rate.raw, 'calls/s', undefined);
  const cpu = await sdkCpuPerCall(o.scale(50000));
  report.add({ case: '2b. (where it goes) CPU per call in the SDK Client, in-process, no I/O', ours: cpu.sdkUs, raw: cpu.bareUs, unit: 'µs', ratio: cpu.sdkUs / cpu.bareUs, note: 'raw column: a bare id map over the same loopback' });
  report.add({ case: '2c. (where it goes) CPU per call in our own path past the SDK Client, in-process, no I/O', ours: cpu.oursUs, raw: cpu.bareUs, unit: 'µs', ratio: cpu.oursUs / cpu.bareUs, note: 'what every 2025-era tools/call runs (RawRequests); raw column: the same bare id map' });
  await Promise.all([ours.stop(), raw.close(), minimal.close()]);
}

export async function listing(o: BenchOptions, report: Report, tools: number, outputSchema: boolean, era: BenchEra = ERAS[0]): Promise<void> {
  const env = { RAW_TOOLS: String(o.smoke ? 10 : tools), OUTSCHEMA: outputSchema ? '1' : '0' };
  const ours = await startOurs(env, era.server);
  const raw = await startRaw(env, era.server);
  const minimal = era.split ? await MinimalClient.start(env) : undefined;
  const rawList = era.params({});
  const t = { ours: [] as number[], raw: [] as number[], minimal: [] as number[], firstCall: [] as number[] };
  for (let i = 0; i < o.rounds; i++) {
    t.ours.push(await time(() => ours.refreshTools()));
    // the SDK prepares output validation for the whole listing at the first call after it
    t.firstCall.push(await time(() => ours.callTool('echo', echo.arguments, callOptions)));
    t.raw.push(await time(() => raw.request('tools/list', rawList)));
    if (minimal) t.minimal.push(await time(() => minimal.request('tools/list', {})));
  }
  const name = `3. tools/list of ${tools} tools${outputSchema ? ' with outputSchema' : ''}${era.suffix}`;
  report.ratio(name, t.ours, t.raw, 'ms', { max: 2 });
  if (!minimal) return void (await Promise.all([ours.stop(), raw.close()]));
  report.ratio(`3a. (where it goes) ${tools}${outputSchema ? ' with outputSchema' : ''}: our transport alone, no SDK`, t.minimal, t.raw, 'ms', undefined);
  const sdk = await sdkListCost(rawServerToolsJson(o.smoke ? 10 : tools, outputSchema), o.rounds);
  report.add({ case: `3c. (where it goes) ${tools}${outputSchema ? ' with outputSchema' : ''}: the SDK's listTools() in-process, no I/O`, ours: sdk.sdkMs, raw: sdk.parseMs, unit: 'ms', ratio: sdk.sdkMs / sdk.parseMs, note: 'raw column: JSON.parse of the same message' });
  if (outputSchema) report.add({ case: `3b. first tools/call after listing ${tools} tools with outputSchema`, ours: median(t.firstCall), unit: 'ms', note: 'was ~0.5 s (1,000) and ~4 s (10,000) before output validators compiled lazily' });
  await Promise.all([ours.stop(), raw.close(), minimal.close()]);
}

/**
 * What the output channel's sink does with a result (vscode/outputSink.ts, the same showSummary):
 * past the default cap of 200,000 characters, the whole result is saved to a file and the head
 * appended in 64 KiB slices.
 */
function outputLikeSink(dir: string): CallSink & { written: number } {
  const sink = {
    written: 0,
    begin: () => undefined,
    line: () => undefined,
    progress: () => undefined,
    async end(callId: string, summary: readonly string[]) {
      const file = path.join(dir, `result-${callId}.txt`);
      await showSummary(callId, summary, { cap: 200_000, sliceChars: 64 * 1024, append: (text) => void (sink.written += text.length), save: (pieces) => writeTextFile(file, pieces).then(() => file) });
    },
  };
  return sink;
}

export async function bigResult(o: BenchOptions, report: Report, mib: number): Promise<void> {
  const size = o.smoke ? 64 * 1024 : mib * 1024 * 1024;
  const connection = await startOurs();
  const saved = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-bench-results-'));
  const sink = outputLikeSink(saved);
  const raw: RawClientLike = await startRaw();
  const t = { transfer: [] as number[], rendered: [] as number[], raw: [] as number[] };
  const block = { transfer: 0, rendered: 0, raw: 0, wall: 0 };
  for (let i = 0; i < o.rounds; i++) {
    const transfer = await withLoopBlock(() => time(() => connection.callTool('big', { size }, callOptions)));
    t.transfer.push(transfer.value);
    // what CallPipeline does after the call returns: render, then hand the summary to the sink
    const rendered = await withLoopBlock(() => time(async () => {
      const started = performance.now();
      const result = await renderResult(await connection.callTool('big', { size }, callOptions));
      await sink.end('bench', summaryParts({ kind: 'ok', result, durationMs: performance.now() - started }));
    }));
    t.rendered.push(rendered.value);
    const rawRun = await withLoopBlock(() => time(() => raw.request('tools/call', { name: 'big', arguments: { size } })));
    t.raw.push(rawRun.value);
    block.wall = Math.max(block.wall, transfer.maxWallGapMs, rendered.maxWallGapMs);
    block.transfer = Math.max(block.transfer, transfer.maxBlockMs);
    block.rendered = Math.max(block.rendered, rendered.maxBlockMs);
    block.raw = Math.max(block.raw, rawRun.maxBlockMs);
  }
  report.ratio(`4. ${mib} MiB text result, transfer`, t.transfer, t.raw, 'ms', { max: 1.25 });
  report.ratio(`4. ${mib} MiB text result, transfer + render into the output sink`, t.rendered, t.raw, 'ms', { max: 2 });
  report.add({ case: `4. ${mib} MiB text result, longest event-loop block (transfer + render)`, ours: Math.max(block.transfer, block.rendered), raw: block.raw, unit: 'ms', ratio: Math.max(block.transfer, block.rendered) / block.raw, goal: '<= 50 ms', ok: Math.max(block.transfer, block.rendered) <= 50, note: `main-thread CPU without a break; raw column: the raw client, blocked by its own JSON.parse; longest wall-clock gap (ours, other processes included) ${block.wall.toFixed(0)} ms` });
  await connection.stop();
  await raw.close();
  fs.rmSync(saved, { recursive: true, force: true });
}

export async function spawnHandshake(o: BenchOptions, report: Report): Promise<void> {
  const t = { ours: [] as number[], raw: [] as number[] };
  for (let i = 0; i < (o.smoke ? 1 : 11); i++) {
    let c: Awaited<ReturnType<typeof startOurs>> | undefined;
    t.ours.push(await time(async () => (c = await startOurs())));
    await c?.stop();
    let r: RawClientLike | undefined;
    t.raw.push(await time(async () => {
      r = await startRaw();
      await r.request('tools/list', {});
    }));
    await r?.close();
  }
  const overhead = median(t.ours) - median(t.raw);
  report.add({ case: '5. spawn + handshake + tools/list', ours: median(t.ours), raw: median(t.raw), unit: 'ms', ratio: median(t.ours) / median(t.raw), goal: 'overhead <= 10 ms', ok: overhead <= 10, note: `overhead ${overhead.toFixed(1)} ms` });
  await sandboxedStart(o, report);
}

/** Issue 17: the same start in the sandbox (no writes, no network), as a ratio to our unsandboxed start, interleaved. */
async function sandboxedStart(o: BenchOptions, report: Report): Promise<void> {
  const name = '5a. spawn + handshake + tools/list in the sandbox (raw column: ours unsandboxed)';
  const check = await sandboxCheck();
  if (!check.ok) return report.add({ case: name, ours: Number.NaN, unit: 'ms', note: `not measured: ${check.reason}` });
  const box: SandboxSettings = { filesystem: { denyRead: [], allowWrite: [], denyWrite: [] }, network: { allowedDomains: [], deniedDomains: [] }, allowUnsandboxed: false };
  const t = { boxed: [] as number[], plain: [] as number[] };
  for (let i = 0; i < (o.smoke ? 1 : 11); i++) {
    let c: Awaited<ReturnType<typeof startOurs>> | undefined;
    t.boxed.push(await time(async () => (c = await startOurs({}, undefined, box))));
    await c?.stop();
    t.plain.push(await time(async () => (c = await startOurs())));
    await c?.stop();
  }
  const cost = median(t.boxed) - median(t.plain);
  report.add({ case: name, ours: median(t.boxed), raw: median(t.plain), unit: 'ms', ratio: median(t.boxed) / median(t.plain), note: `the sandbox costs ${cost.toFixed(1)} ms per start (its proxies start with the first sandboxed server and stop with the last; each start here is a first)` });
}
