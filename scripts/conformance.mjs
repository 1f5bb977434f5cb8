// The official MCP conformance suite (@modelcontextprotocol/conformance) against our client: every
// client scenario at each spec version it lists (`name@version` when it lists several; by default
// the suite would run one), one at a time (all at once, a 2-core machine misses the suite's
// timing), each driving dist/cli.js through test/conformance/adapter.mjs. A scenario passes when the suite says
// so (exit 0) and it recorded at least one successful check (a client that never connected records
// none). test/conformance/expected-failures.json lists what fails today, with why: a listed failure
// is expected, an unlisted one fails the run, and so does a listed scenario that passes.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { e2eEnv } from './e2e/codeServer.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ADAPTER = path.join(root, 'test/conformance/adapter.mjs');

/**
 * @typedef {{ passed: string[], expected: string[], failed: { scenario: string, why: string }[] }} ConformanceResults
 * @param {{ node: string, outDir: string, log?: (line: string) => void }} options `node` must be Node >= 22 (the suite's engines)
 * @returns {ConformanceResults}
 */
export function runConformance({ node, outDir, log = console.log }) {
  // Installed by scripts/e2e/setup.sh with Node 24, pinned by test/conformance/suite/package-lock.json.
  const SUITE = e2eEnv().CONFORMANCE;
  const baseline = /** @type {{ client: Record<string, string> }} */ (JSON.parse(fs.readFileSync(path.join(root, 'test/conformance/expected-failures.json'), 'utf8')));
  const listed = spawnSync(node, [SUITE, 'list', '--client'], { encoding: 'utf8' });
  const scenarios = [...listed.stdout.matchAll(/^\s+- (\S+)(?: \[([^\]]*)\])?/gm)].flatMap((m) => runsOf(m[1], m[2]));
  /** @type {ConformanceResults} */
  const results = { passed: [], expected: [], failed: [] };
  if (scenarios.length === 0) {
    results.failed.push({ scenario: '(list)', why: `the suite listed no client scenarios: ${listed.stderr.trim().slice(0, 300)}` });
    return results;
  }
  for (const name of Object.keys(baseline.client)) {
    if (!scenarios.some((s) => s.scenario === name)) results.failed.push({ scenario: name, why: 'listed in expected-failures.json but not a scenario of the suite: take it off' });
  }
  fs.mkdirSync(outDir, { recursive: true });
  for (const { scenario, name, version } of scenarios) {
    // The suite splits --command at spaces, appends the server URL and runs it through a shell, which
    // joins the words again: a path with a space (a checkout under "My Projects") holds as shell-quoted.
    const at = version ? ['--spec-version', version] : [];
    const command = `${shellQuote(node)} ${shellQuote(ADAPTER)}`;
    const run = spawnSync(node, [SUITE, 'client', '--command', command, '--scenario', name, ...at, '--verbose', '-o', outDir], { encoding: 'utf8', timeout: 120_000 });
    const checks = parseChecks(run.stdout);
    const failing = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
    const ok = run.status === 0 && failing.length === 0 && checks.some((c) => c.status === 'SUCCESS');
    const why = ok ? '' : failing.map((c) => `${c.name ?? c.id}: ${c.errorMessage ?? c.status}`).join('; ').slice(0, 400) || `the suite exited ${run.status ?? run.signal} with ${checks.length} checks`;
    if (ok && scenario in baseline.client) results.failed.push({ scenario, why: 'passes now: take it off test/conformance/expected-failures.json' });
    else if (ok) results.passed.push(scenario);
    else if (scenario in baseline.client) results.expected.push(scenario);
    else results.failed.push({ scenario, why });
    log(`conformance ${ok ? 'ok' : scenario in baseline.client ? 'expected failure' : 'FAILED'}: ${scenario}${ok ? '' : ` (${why.slice(0, 160)})`}`);
  }
  return results;
}

/**
 * One word for a POSIX shell, quoted: a path with spaces or quotes in it stays one word.
 * @param {string} word
 */
function shellQuote(word) {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The runs of one listed scenario: one at each spec version it lists (`name@version` when it
 * lists several), and one as the suite chooses for an extension (`[extension]`).
 * @param {string} name @param {string | undefined} versions the list after the name, e.g. `2025-06-18,2025-11-25`
 * @returns {{ scenario: string, name: string, version?: string }[]}
 */
function runsOf(name, versions) {
  const dated = (versions ?? '').split(',').filter((v) => /^\d{4}-\d{2}-\d{2}$/.test(v));
  if (dated.length === 0) return [{ scenario: name, name }];
  if (dated.length === 1) return [{ scenario: name, name, version: dated[0] }];
  return dated.map((version) => ({ scenario: `${name}@${version}`, name, version }));
}

/**
 * The checks the suite prints as JSON on stdout with --verbose (the human-readable report is on stderr).
 * @param {string} stdout
 * @returns {{ id?: string, name?: string, status?: string, errorMessage?: string }[]}
 */
function parseChecks(stdout) {
  const start = stdout.indexOf('[');
  if (start < 0) return [];
  try {
    const parsed = JSON.parse(stdout.slice(start));
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}
