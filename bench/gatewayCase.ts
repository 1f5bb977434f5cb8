// Case 12: the gateway (`mcp-tool-host serve`, issue 37). The same tools/call through the gateway and
// straight to the backend, both from the official SDK client over stdio, in one run: sequential
// latency and pipelined throughput (64 in flight) as ratios; the gateway's memory per connected
// HTTP client; and the tokens of tools/list in `--tools all` and `--tools search`.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { loadSearch } from '../src/core/search/load';
import { ECHO_SERVER, MANY_TOOLS_SERVER, ROOT, median, pipelined, time, type BenchOptions, type Report } from './harness';

const CLI = path.join(ROOT, 'dist/cli.js');
/** serve as the CLI runs it, with the rate limit raised (gatewayServe.ts). */
const SERVE = path.join(__dirname, 'gatewayServe.js');
/** The same gateway with its CallPipeline left out (gatewayPlumbing.ts): what the plumbing costs a call alone. */
const PLUMBING = path.join(__dirname, 'gatewayPlumbing.js');
const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const RULE_TOOLS = path.join(ROOT, 'test/fixtures/servers/rule-tools.cjs');
/** The two-hop floor: a relay that only parses and passes on each message (no policy, no SDK). */
const RELAY = path.join(ROOT, 'bench/stdio-relay.cjs');
/** The policy floor: each of a gateway's checks in its plainest form (ajv, a cached verdict, an audit line), no SDK, no layers. */
const POLICY_FLOOR = path.join(ROOT, 'bench/policy-floor.cjs');
/** The CPU the bare relay spends a call more in its second form (RELAY_BURN_US): with the first, it measures what a µs of a middle process's work costs. */
const BURN_US = 30;

/** A backend, and the call the case makes on it (the gateway's name for it is `<server>_<tool>`). */
interface Backend {
  readonly server: string;
  readonly label: string;
  readonly args: readonly string[];
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
}
const BACKENDS: readonly Backend[] = [
  { server: 'echo', label: 'raw echo server', args: [ECHO_SERVER], tool: 'echo', arguments: { text: 'hi' } },
  { server: 'everything', label: 'server-everything', args: [EVERYTHING, 'stdio'], tool: 'echo', arguments: { message: 'hi' } },
  // A tool whose own work takes a few milliseconds (a file read, a query): what a user waits for, where the echo measures only the hops.
  { server: 'everything', label: 'server-everything, a 5 ms tool', args: [EVERYTHING, 'stdio'], tool: 'trigger-long-running-operation', arguments: { duration: 0.005, steps: 1 } },
];

/** A folder of its own: the config, an allow-all rule (nothing asks: the calls measure the path, not a person) and the CLI's state (audit log, pins). */
function benchFolder(servers: Record<string, unknown>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-bench-gateway-'));
  const config = path.join(dir, 'servers.json');
  const rules = path.join(dir, 'rules.json');
  fs.writeFileSync(config, JSON.stringify({ servers }));
  fs.writeFileSync(rules, JSON.stringify([{ name: 'bench', server: '*', tool: '*', effect: 'allow' }]));
  const env = { PATH: process.env.PATH ?? '', HOME: dir, XDG_STATE_HOME: path.join(dir, 'state') };
  // A gateway stopped just before writes its last audit lines as it exits: a removal that meets them tries again.
  return { dir, config, rules, env, cleanup: () => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }) };
}

async function connect(command: string, args: readonly string[], env?: Record<string, string>): Promise<{ client: Client; pid: number }> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const transport = new StdioClientTransport({ command, args: [...args], env, stderr: 'ignore' });
  await client.connect(transport);
  return { client, pid: transport.pid! };
}

/** Sequential and pipelined calls through the gateway, through the bare relay and direct, interleaved round by round. */
async function callRatios(o: BenchOptions, report: Report, backend: Backend): Promise<void> {
  const folder = benchFolder({ [backend.server]: { command: process.execPath, args: backend.args } });
  const gateway = await connect(process.execPath, [SERVE, folder.config, folder.rules], folder.env);
  // A folder of its own: its audit log and pins are not the gateway's.
  const plumbingFolder = benchFolder({ [backend.server]: { command: process.execPath, args: backend.args } });
  const plumbing = await connect(process.execPath, [PLUMBING, plumbingFolder.config, plumbingFolder.rules], plumbingFolder.env);
  const direct = await connect(process.execPath, [...backend.args]);
  const relay = await connect(process.execPath, [RELAY, process.execPath, ...backend.args]);
  const floor = await connect(process.execPath, [POLICY_FLOOR, backend.server, process.execPath, ...backend.args], folder.env);
  const burned = await connect(process.execPath, [RELAY, process.execPath, ...backend.args], { ...folder.env, RELAY_BURN_US: String(BURN_US) });
  const viaGateway = { name: `${backend.server}_${backend.tool}`, arguments: backend.arguments };
  const straight = { name: backend.tool, arguments: backend.arguments };
  const check = (r: Awaited<ReturnType<Client['callTool']>>) => {
    if (r.isError) throw new Error(`the call failed: ${JSON.stringify(r.content).slice(0, 300)}`);
  };
  try {
    await gateway.client.listTools();
    await plumbing.client.listTools();
    for (let i = 0; i < 50; i++) {
      check(await gateway.client.callTool(viaGateway));
      check(await plumbing.client.callTool(viaGateway));
      check(await direct.client.callTool(straight));
      check(await relay.client.callTool(straight));
      check(await floor.client.callTool(viaGateway));
      check(await burned.client.callTool(straight));
    }
    const n = o.smoke ? 20 : 500;
    const m = o.smoke ? 128 : 4_000;
    const seq = { gateway: [] as number[], direct: [] as number[], relay: [] as number[] };
    const rate = { gateway: [] as number[], direct: [] as number[], relay: [] as number[], floor: [] as number[], burned: [] as number[], plumbing: [] as number[] };
    // CPU time of the middle process (gateway or relay) per pipelined call: what caps throughput on a busy machine, where wall time is noise.
    const cpu = { gateway: [] as number[], relay: [] as number[], floor: [] as number[], burned: [] as number[], plumbing: [] as number[] };
    // Write system calls of the middle process per pipelined call (a count: the load does not move it): its pipes and its audit log.
    const writes = { gateway: [] as number[], relay: [] as number[] };
    const cpuPerCall = async (pid: number, into: number[], run: () => Promise<number>, writesInto?: number[]) => {
      const before = cpuMicros(pid);
      const written = writeCalls(pid);
      const ms = await run();
      into.push((cpuMicros(pid) - before) / m);
      writesInto?.push((writeCalls(pid) - written) / m);
      return ms;
    };
    for (let round = 0; round < o.rounds; round++) {
      seq.gateway.push(((await time(async () => { for (let k = 0; k < n; k++) check(await gateway.client.callTool(viaGateway)); })) * 1000) / n);
      seq.direct.push(((await time(async () => { for (let k = 0; k < n; k++) check(await direct.client.callTool(straight)); })) * 1000) / n);
      rate.gateway.push((m / (await cpuPerCall(gateway.pid, cpu.gateway, () => time(() => pipelined(m, async () => check(await gateway.client.callTool(viaGateway)))), writes.gateway))) * 1000);
      rate.direct.push((m / (await time(() => pipelined(m, async () => check(await direct.client.callTool(straight)))))) * 1000);
      rate.plumbing.push((m / (await cpuPerCall(plumbing.pid, cpu.plumbing, () => time(() => pipelined(m, async () => check(await plumbing.client.callTool(viaGateway))))))) * 1000);
      seq.relay.push(((await time(async () => { for (let k = 0; k < n; k++) check(await relay.client.callTool(straight)); })) * 1000) / n);
      rate.relay.push((m / (await cpuPerCall(relay.pid, cpu.relay, () => time(() => pipelined(m, async () => check(await relay.client.callTool(straight)))), writes.relay))) * 1000);
      rate.floor.push((m / (await cpuPerCall(floor.pid, cpu.floor, () => time(() => pipelined(m, async () => check(await floor.client.callTool(viaGateway))))))) * 1000);
      rate.burned.push((m / (await cpuPerCall(burned.pid, cpu.burned, () => time(() => pipelined(m, async () => check(await burned.client.callTool(straight))))))) * 1000);
    }
    const added = (median(seq.gateway) - median(seq.relay)).toFixed(0);
    report.ratio(`12. one tools/call through the gateway vs direct, sequential (${backend.label}, SDK client, stdio)`, seq.gateway, seq.direct, 'µs', { max: 1.2 }, `${n} calls a round; the gateway's path: validation, rules, audit line, masking; ${added} µs a call more than the bare relay`);
    report.ratio(`12. pipelined tools/call throughput, 64 in flight, gateway vs direct (${backend.label})`, rate.gateway, rate.direct, 'calls/s', { min: 0.8 }, `${m} calls a round`);
    report.ratio(`12. floor: the same call through a bare stdio relay vs direct, sequential (${backend.label})`, seq.relay, seq.direct, 'µs', undefined, 'bench/stdio-relay.cjs: parses and passes on each message, nothing else: the least a second hop costs');
    report.ratio(`12. floor: pipelined throughput through a bare stdio relay vs direct, 64 in flight (${backend.label})`, rate.relay, rate.direct, 'calls/s', undefined, `${m} calls a round`);
    report.ratio(`12. floor: pipelined throughput through the policy floor vs direct, 64 in flight (${backend.label})`, rate.floor, rate.direct, 'calls/s', undefined, `bench/policy-floor.cjs: each of the gateway's checks in its plainest form (schema, verdict, rate slot, cancel flag, result shape, invisible characters, audit line), no SDK or layers: what a complete path could reach; ${m} calls a round`);
    if (cpu.floor.every(Number.isFinite)) report.ratio(`12. CPU per pipelined call of the middle process, gateway vs the policy floor (${backend.label})`, cpu.gateway, cpu.floor, 'µs', undefined, `/proc utime+stime of the gateway and of bench/policy-floor.cjs over each pipelined round, / ${m} calls`);
    report.ratio(`12. pipelined throughput through the gateway with its CallPipeline left out vs direct, 64 in flight (${backend.label})`, rate.plumbing, rate.direct, 'calls/s', undefined, `bench/gatewayPlumbing.ts: the gateway's wire, raw path, handler, connection and transport, each call sent on with no validation, rules, approval, rendering, masking or audit line; ${m} calls a round`);
    if (cpu.plumbing.every(Number.isFinite)) {
      const pipelineShare = (median(cpu.gateway) - median(cpu.plumbing)).toFixed(1);
      report.ratio(`12. CPU per pipelined call of the middle process, gateway vs its plumbing alone (${backend.label})`, cpu.gateway, cpu.plumbing, 'µs', undefined, `/proc utime+stime over each pipelined round, / ${m} calls: the CallPipeline's share of a gateway call is ${pipelineShare} µs`);
    }
    if (cpu.gateway.every(Number.isFinite)) report.ratio(`12. CPU per pipelined call of the middle process, gateway vs bare relay (${backend.label})`, cpu.gateway, cpu.relay, 'µs', undefined, `/proc utime+stime of the gateway and of the relay process over each pipelined round, / ${m} calls`);
    report.ratio(`12. the machine's measure: pipelined throughput through the bare relay spending ${BURN_US} µs more CPU a call, vs direct (${backend.label})`, rate.burned, rate.direct, 'calls/s', undefined, `bench/stdio-relay.cjs with RELAY_BURN_US=${BURN_US}: the relay and a busy wait a call, a middle process's own work without the work; ${m} calls a round`);
    if (cpu.relay.every(Number.isFinite)) reportBudget(report, backend.label, rate, cpu);
    if (writes.gateway.every(Number.isFinite)) report.ratio(`12. write system calls per pipelined call of the middle process, gateway vs bare relay (${backend.label})`, writes.gateway, writes.relay, 'writes', undefined, `/proc syscw of each process over each pipelined round, / ${m} calls: pipe writes to the client and the backend, and the audit log's appends`);
  } finally {
    await gateway.client.close();
    await plumbing.client.close();
    await direct.client.close();
    await relay.client.close();
    await floor.client.close();
    await burned.client.close();
    folder.cleanup();
    plumbingFolder.cleanup();
  }
}

/**
 * The CPU a pipelined call may cost the middle process for 0.8x of the direct rate, measured: each
 * round, the bare relay at its own CPU and with BURN_US more give two points of a call's period
 * (1 / rate) against the middle process's CPU; the line through them is where 1.25x the direct
 * period falls. No model of how the processes share the cores: on a machine where they overlap
 * well, a µs of the middle's work costs the period little; where they take turns, a whole µs.
 */
function reportBudget(report: Report, label: string, rate: Record<'direct' | 'relay' | 'burned', number[]>, cpu: Record<'relay' | 'burned' | 'floor' | 'gateway' | 'plumbing', number[]>): void {
  const slopes: number[] = [];
  const budgets: number[] = [];
  rate.direct.forEach((direct, r) => {
    const [p0, p1, goal] = [1e6 / rate.relay[r], 1e6 / rate.burned[r], 1e6 / (0.8 * direct)];
    const slope = (p1 - p0) / (cpu.burned[r] - cpu.relay[r]);
    // Noise can put the burned round ahead of the plain one: that round measures nothing.
    if (!(slope > 0) || !Number.isFinite(slope)) return;
    slopes.push(slope);
    budgets.push(cpu.relay[r] + (goal - p0) / slope);
  });
  if (budgets.length === 0) return;
  const us = (v: number[]) => `${median(v).toFixed(1)} µs`;
  const budget = median(budgets);
  const relayMisses = budget < median(cpu.relay) ? ': less than the bare relay itself spends, by this measure' : '';
  report.add({ case: `12. CPU a pipelined call may cost the middle process for 0.8x, measured (${label})`, ours: budget, unit: 'µs', note: `the bare relay at its own CPU and ${BURN_US} µs more, ${budgets.length} rounds: each µs of the middle process's CPU adds ${median(slopes).toFixed(2)} µs to a call's period here${relayMisses}; the bare relay spends ${us(cpu.relay)}, the policy floor ${us(cpu.floor)}, the gateway's plumbing alone ${us(cpu.plumbing)}, the gateway ${us(cpu.gateway)}` });
}

/** User + system CPU time a process has used, in µs (Linux /proc, at the clock tick's 10 ms grain); NaN elsewhere. */
function cpuMicros(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are the 14th and 15th fields of the line, the 12th and 13th after the command name.
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}

/** Write system calls a process has made (Linux /proc/PID/io); NaN elsewhere. */
function writeCalls(pid: number): number {
  try {
    return Number(/^syscw: (\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/io`, 'utf8'))![1]);
  } catch {
    return Number.NaN;
  }
}

/** Resident memory of a process in KiB (Linux /proc; `ps` elsewhere). */
function rssKiB(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
  } catch {
    return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim());
  }
}

/** RSS growth of `serve --http` with N more clients connected (each listed the tools and made a call), divided by N. */
async function memoryPerClient(o: BenchOptions, report: Report): Promise<void> {
  const folder = benchFolder({ echo: { command: process.execPath, args: [ECHO_SERVER] } });
  const child = spawn(process.execPath, [CLI, 'serve', '--config', folder.config, '--rules', folder.rules, '--http'], { env: folder.env, stdio: ['ignore', 'ignore', 'pipe'] });
  const clients: Client[] = [];
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (t: string) => {
        err += t;
        const found = /(http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]+\/mcp)/.exec(err);
        if (found) resolve(found[1]);
      });
      child.once('exit', () => reject(new Error(`serve --http ended: ${err}`)));
    });
    const join = async () => {
      const client = new Client({ name: 'bench', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      await client.listTools();
      await client.callTool({ name: 'echo_echo', arguments: { text: 'hi' } });
      clients.push(client);
    };
    // The first client starts the backend and loads the gateway's code: not a client's share.
    for (let i = 0; i < 4; i++) await join();
    await new Promise((r) => setTimeout(r, 300));
    const before = rssKiB(child.pid!);
    const n = o.smoke ? 4 : 48;
    for (let i = 0; i < n; i++) await join();
    await new Promise((r) => setTimeout(r, 300));
    const after = rssKiB(child.pid!);
    report.add({ case: `12. gateway memory per connected HTTP client (${n} clients, 2025-era sessions)`, ours: Math.round((after - before) / n), unit: 'KiB', note: `RSS of serve --http ${Math.round(before / 1024)} MiB with 4 clients, ${Math.round(after / 1024)} MiB with ${n + 4}` });
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    folder.cleanup();
  }
}

/** Tokens of the gateway's tools/list (name, description, input schema of each, o200k_base), every tool vs --tools search. */
async function tokenSaving(report: Report): Promise<void> {
  const folder = benchFolder({
    everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
    rules: { command: process.execPath, args: [RULE_TOOLS] },
    many: { command: process.execPath, args: [MANY_TOOLS_SERVER] },
  });
  const { toolsTokens } = loadSearch();
  const listed = async (mode: 'all' | 'search') => {
    const { client } = await connect(process.execPath, [CLI, 'serve', '--config', folder.config, '--tools', mode], folder.env);
    try {
      return (await client.listTools()).tools;
    } finally {
      await client.close();
    }
  };
  try {
    const all = await listed('all');
    const search = await listed('search');
    const [a, s] = [toolsTokens(all), toolsTokens(search)];
    report.add({ case: `12. tokens of the gateway's tools/list, --tools search vs all (${all.length} tools: server-everything, rule-tools, many-tools)`, ours: s, raw: a, unit: 'tokens', ratio: s / a, note: `o200k_base; all ${a}, search ${s} (${search.length} tools): ${(100 * (1 - s / a)).toFixed(1)}% fewer` });
  } finally {
    folder.cleanup();
  }
}

export async function gatewayCase(o: BenchOptions, report: Report): Promise<void> {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run node esbuild.mjs first.`);
  for (const backend of BACKENDS) await callRatios(o, report, backend);
  await memoryPerClient(o, report);
  await tokenSaving(report);
}
