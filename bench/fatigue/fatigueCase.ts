// Approval fatigue (issue 16): the mix (mix.json) replayed with no rules, with grants only and
// with the rule set (rules.json); prompts and silent overreach per setup. A case of `npm run bench`
// (`--only=9`), or alone: `node out/bench/fatigue/fatigueCase.js [--smoke]` prints the table.
import { Report, benchOptions, type BenchOptions } from '../harness';
import { readMix, sampleCalls } from './mix';
import { FATIGUE_MODES, overreachLines, replay, type FatigueResult } from './replay';

/** A smoke run replays this many calls of the mix. */
const SMOKE_CALLS = 30;

export async function fatigue(o: BenchOptions, report: Report): Promise<FatigueResult[]> {
  const mix = readMix();
  const calls = o.smoke ? sampleCalls(mix.calls, SMOKE_CALLS) : mix.calls;
  const results: FatigueResult[] = [];
  for (const mode of FATIGUE_MODES) {
    const r = await replay(mix, calls, mode);
    results.push(r);
    const label = `fatigue, ${setupName(r)} (${calls.length} calls)`;
    report.add({ case: `${label}: prompts`, ours: r.prompts, unit: 'prompts', note: `${r.needlessPrompts} for allowed calls; ${r.ran} calls ran` });
    // With rules, nothing the user did not allow may run without asking: the goal.
    const goal = r.rules > 0;
    report.add({ case: `${label}: silent overreach`, ours: r.silentOverreach.length, unit: 'calls', goal: goal ? '0' : undefined, ok: goal ? r.silentOverreach.length === 0 : undefined });
    for (const line of overreachLines(r)) console.log(`  overreach ${line}`);
    const failed = r.calls.filter((c) => c.call.allowed && c.ran && c.outcome !== 'ok');
    if (failed.length > 0) console.log(`  ${failed.length} allowed calls ended in an error (check the mix): ${failed.map((c) => `#${c.index} ${c.call.tool}`).join(', ')}`);
    if (r.allowedRefused.length > 0) console.log(`  ${r.allowedRefused.length} allowed calls did not run: ${r.allowedRefused.map((c) => `#${c.index} ${c.call.tool}`).join(', ')}`);
  }
  return results;
}

/** The table BENCHMARKS.md shows. */
export function fatigueTable(results: readonly FatigueResult[]): string {
  const lines = [
    '| setup | calls | prompts | of them for allowed calls | calls that ran | silent overreach | of which the server refused | requests to other hosts | allowed calls refused |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    const refused = r.silentOverreach.filter((c) => c.outcome !== 'ok').length;
    lines.push(`| ${setupName(r)} | ${r.calls.length} | ${r.prompts} | ${r.needlessPrompts} | ${r.ran} | ${r.silentOverreach.length} | ${refused} | ${r.otherHostRequests} | ${r.allowedRefused.length} |`);
  }
  return lines.join('\n');
}

function setupName(r: FatigueResult): string {
  return r.mode === 'rules' ? `${r.rules} rules` : r.mode === 'rules and grants' ? `${r.rules} rules, user clicks "Always Allow"` : r.mode;
}

if (require.main === module) {
  const o = benchOptions(process.argv);
  fatigue(o, new Report(o.smoke)).then(
    (results) => {
      console.log(`\n${fatigueTable(results)}`);
      process.exit(0);
    },
    (err: unknown) => {
      console.error('fatigue bench failed:', err);
      process.exit(1);
    },
  );
}
