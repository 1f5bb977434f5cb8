'use strict';
// A/B of gateway builds: the CPU a pipelined call costs the gateway, for two or more checkouts at once.
//   node bench/ab-gateway.cjs <checkout A> <checkout B> [more...]   (each built: `npx tsc -p .`)
//   env: N (calls a round, 8000), ROUNDS (30), BENCH_REFERENCE (the raw echo server and client)
// Each checkout's out/bench/gatewayServe.js serves the raw echo server to a raw client of its own, 64
// calls in flight. The rounds take turns, in reverse order every other round, so a slow minute of
// this machine falls on all of them. Two runs of separate drivers, one after the other, differed by
// 9 µs a call for the same build (4 of 5 pairs): a cut of a few µs shows only in turns like these.
// Prints each checkout's median CPU a call, and against the first one round by round: the median
// difference and in how many rounds it was lower. Give the first checkout twice to see the noise.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const REFERENCE = path.resolve(process.env.BENCH_REFERENCE || path.join(__dirname, '../../shared/reference'));
const { RawClient } = require(path.join(REFERENCE, 'raw-client.cjs'));
const ECHO = path.join(REFERENCE, 'raw-echo-server.cjs');
const N = Number(process.env.N || 8000);
const ROUNDS = Number(process.env.ROUNDS || 30);
const IN_FLIGHT = 64;

/** User + system CPU time of a process in µs (Linux /proc, at the clock tick's 10 ms grain). */
function cpuMicros(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** One checkout's gateway, its own folder (config, allow-all rule, audit log) and a raw client. */
async function start(checkout) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-ab-'));
  const config = path.join(dir, 'servers.json');
  const rules = path.join(dir, 'rules.json');
  fs.writeFileSync(config, JSON.stringify({ servers: { echo: { command: process.execPath, args: [ECHO] } } }));
  fs.writeFileSync(rules, JSON.stringify([{ name: 'bench', server: '*', tool: '*', effect: 'allow' }]));
  const env = { PATH: process.env.PATH, HOME: dir, XDG_STATE_HOME: path.join(dir, 'state') };
  const client = new RawClient(process.execPath, [path.join(path.resolve(checkout), 'out/bench/gatewayServe.js'), config, rules], { env, stderr: 'inherit' });
  await client.spawned;
  await client.initialize();
  await client.request('tools/list', {});
  return { checkout, client, dir, cpu: [] };
}

async function pipelined(client, total) {
  let left = total;
  const one = async () => {
    while (left-- > 0) {
      const result = await client.request('tools/call', { name: 'echo_echo', arguments: { text: 'hi' } });
      if (result.isError) throw new Error(`the call failed: ${JSON.stringify(result).slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, one));
}

async function main() {
  const checkouts = process.argv.slice(2);
  if (checkouts.length < 2) throw new Error('usage: node bench/ab-gateway.cjs <checkout A> <checkout B> [more...]');
  const gateways = [];
  try {
    for (const checkout of checkouts) gateways.push(await start(checkout));
    for (const g of gateways) await pipelined(g.client, 3000);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [...gateways].reverse() : gateways;
      for (const g of order) {
        const before = cpuMicros(g.client.child.pid);
        await pipelined(g.client, N);
        g.cpu.push((cpuMicros(g.client.child.pid) - before) / N);
      }
    }
    const first = gateways[0];
    for (const g of gateways) {
      const diff = g.cpu.map((v, r) => v - first.cpu[r]);
      const against = g === first ? '' : `; against the first: ${median(diff) > 0 ? '+' : ''}${median(diff).toFixed(1)} µs, lower in ${diff.filter((d) => d < 0).length} of ${ROUNDS} rounds`;
      console.log(`${g.checkout}: ${median(g.cpu).toFixed(1)} µs a call${against}`);
    }
  } finally {
    for (const g of gateways) {
      await g.client.close();
      fs.rmSync(g.dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
