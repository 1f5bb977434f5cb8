// `npm run bench`: issue 7's eight cases, our path beside the raw JSON-RPC baseline
// (../shared/reference) in the same run, several rounds, medians and ratios; case 9 is issue 16's
// approval fatigue (prompts and overreach, bench/fatigue); case 10 is issue 19's tool search (bench/search); case 11 issue 34's resources (bench/offerCases.ts); case 12 issue 37's gateway (bench/gatewayCase.ts); case 14 issue 40's cold CLI run (bench/coldCliCase.ts). `--smoke` runs
// every case tiny and states no goals, so `npm test` keeps the scripts working.
// Results: bench-results/results.json and results.md; BENCHMARKS.md holds the latest full table.
import { offerCases } from './offerCases';
import { gatewayCase } from './gatewayCase';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { activation } from './activationCase';
import { fatigue } from './fatigue/fatigueCase';
import { ECHO_SERVER, ROOT, Report, benchOptions, machine, mainThreadClock } from './harness';
import { idleMemory, soak, treeCore } from './memoryCases';
import { bigResult, ERAS, listing, sequentialAndPipelined, spawnHandshake } from './protocolCases';
import { searchCase } from './search/searchCase';
import { budgetCase } from './budgetCase';
import { coldCliCase } from './coldCliCase';
import { startSpinners } from './busyMachine';

async function main(): Promise<void> {
  if (!fs.existsSync(ECHO_SERVER)) throw new Error(`The raw baseline is missing: ${ECHO_SERVER} (set BENCH_REFERENCE).`);
  const o = benchOptions(process.argv);
  const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
  const want = (n: number) => !only || only.includes(String(n));
  const report = new Report(o.smoke);
  const started = Date.now();
  const spinners = process.argv.includes('--busy') ? startSpinners() : undefined;
  const clock = mainThreadClock();
  console.log(`machine: ${machine()}${o.smoke ? ' (smoke run: tiny sizes, no goals)' : ''}`);
  // Cases 1-3 in each protocol era: the 2025 era (classic initialize), then 2026-07-28.
  for (const era of ERAS) {
    if (want(1) || want(2)) await sequentialAndPipelined(o, report, era);
    if (want(3)) for (const [n, withSchema] of [[1000, false], [1000, true], [10000, false], [10000, true]] as const) await listing(o, report, n, withSchema, era);
  }
  if (want(4)) for (const mib of [10, 50]) await bigResult(o, report, mib);
  if (want(5)) await spawnHandshake(o, report);
  if (want(6) || want(7)) await activation(o, report);
  if (want(7)) {
    await treeCore(o, report);
    idleMemory(o, report);
  }
  if (want(8)) soak(o, report);
  if (want(9)) await fatigue(o, report);
  if (want(10)) await searchCase(o, report);
  if (want(11)) await offerCases(o, report);
  if (want(12)) await gatewayCase(o, report);
  if (want(13)) await budgetCase(o, report);
  if (want(14)) await coldCliCase(o, report);

  spinners?.stop();
  const seconds = (Date.now() - started) / 1000;
  const clockAfter = mainThreadClock();
  const spinning = spinners ? `; made busy on purpose (--busy): ${spinners.count} processes spinning beside it, one per core` : '';
  // How busy the machine was: the share of the time our main thread was ready to run but had no CPU.
  const busy = clock && clockAfter ? `${spinning}; the bench's main thread waited for a CPU ${(((clockAfter.waitMs - clock.waitMs) / (clockAfter.runMs - clock.runMs + clockAfter.waitMs - clock.waitMs)) * 100).toFixed(0)}% of its runnable time` : '';
  const outDir = path.join(ROOT, 'bench-results');
  fs.mkdirSync(outDir, { recursive: true });
  const command = `node out/bench/run.js ${process.argv.slice(2).join(' ')}`.trim();
  fs.writeFileSync(path.join(outDir, 'results.json'), JSON.stringify({ machine: machine(), smoke: o.smoke, date: new Date().toISOString(), command, seconds, load: busy.slice(2), busy: spinners !== undefined, rows: report.rows }, null, 2));
  const header = `Machine: ${machine()}. ${o.smoke ? 'Smoke run (tiny sizes, no goals).' : `Medians of ${o.rounds}+ rounds, ours and raw interleaved.`} \`${command}\`, ${new Date().toISOString().slice(0, 16)}Z, ${seconds.toFixed(0)} s${busy}.`;
  const md = report.markdown(header);
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
