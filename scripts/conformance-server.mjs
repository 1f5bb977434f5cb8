// The official MCP conformance suite's SERVER scenarios against the gateway (`mcp-tool-host serve
// --http`), as a user runs it: a config file naming one server (test/fixtures/servers/conformance-target.cjs,
// which offers what the scenarios ask for by name), the URL read from the gateway's stderr (the token
// as its first path segment: the suite cannot send a header). Every scenario of both requirement sets
// (2025-11-25 and 2026-07-28, each at its own wire) runs as a suite process of its own, one at a time.
// Then the gateway is stopped and nothing it started may be left. A scenario passes when the suite
// says so (exit 0) with at least one successful check and no failing or warning one. The `server`
// section of test/conformance/expected-failures.json lists what fails today, with why: a listed
// failure is expected, an unlisted one fails the run, and so does a listed scenario that passes.
//
// Standalone: `node scripts/conformance-server.mjs` (through the gateway) or `--direct` (the fixture
// served over HTTP by the SDK itself, without the gateway: what the scenarios make of the backing
// server alone); both print a table of every scenario and era. `--only a,b` runs the scenarios whose
// name contains a or b.
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUN_MARKER, e2eEnv, processesOfRun, settled } from './e2e/codeServer.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURE = path.join(root, 'test/fixtures/servers/conformance-target.cjs');
const BASELINE = path.join(root, 'test/conformance/expected-failures.json');
/** The requirement sets of the suite, one per protocol era the gateway speaks to its clients. */
export const ERAS = ['2025-11-25', '2026-07-28'];
/** How long the gateway (or the fixture) may take to print its URL. */
const START_MS = 30_000;

/**
 * @typedef {{ scenario: string, ok: boolean, why: string }} ScenarioRun
 * @typedef {{ passed: string[], expected: string[], failed: { scenario: string, why: string }[], runs: ScenarioRun[] }} ServerConformanceResults
 */

/**
 * The server scenarios against the gateway, compared with the baseline.
 * @param {{ node: string, outDir: string, log?: (line: string) => void, direct?: boolean, only?: string[] }} options `node` runs the
 *   suite and must be Node >= 22 (its engines); the gateway runs on this process's Node, as `npm test` does;
 *   `only`: run just the scenarios whose name contains one of these (a look at a few while working on them)
 * @returns {Promise<ServerConformanceResults>}
 */
export async function runServerConformance({ node, outDir, log = console.log, direct = false, only }) {
  const SUITE = e2eEnv().CONFORMANCE;
  const baseline = /** @type {{ server?: Record<string, string> }} */ (JSON.parse(fs.readFileSync(BASELINE, 'utf8'))).server ?? {};
  /** @type {ServerConformanceResults} */
  const results = { passed: [], expected: [], failed: [], runs: [] };
  /** @type {{ scenario: string, name: string, era: string }[]} */
  const scenarios = [];
  for (const era of ERAS) {
    const names = requiredServerScenarios(node, SUITE, era);
    if (names.length === 0) results.failed.push({ scenario: `(list ${era})`, why: `the suite listed no server scenarios required for ${era}` });
    scenarios.push(...names.filter((name) => !only || only.some((o) => name.includes(o))).map((name) => ({ scenario: `${name}@${era}`, name, era })));
  }
  for (const name of only ? [] : Object.keys(baseline)) {
    if (!scenarios.some((s) => s.scenario === name)) results.failed.push({ scenario: name, why: 'listed in the server section of expected-failures.json but not a required server scenario of the suite: take it off' });
  }
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-conf-'));
  fs.rmSync(outDir, { recursive: true, force: true }); // the suite adds a folder per run: only this run's stay
  fs.mkdirSync(outDir, { recursive: true });
  const server = await (direct ? startFixture(runDir, outDir) : startGateway(runDir, outDir));
  try {
    if ('error' in server) {
      results.failed.push({ scenario: direct ? '(fixture start)' : '(gateway start)', why: server.error });
      return results;
    }
    for (const { scenario, name, era } of scenarios) {
      const run = runScenario(node, SUITE, server.url, name, era, outDir);
      results.runs.push({ scenario, ...run });
      const listed = scenario in baseline;
      if (direct) results[run.ok ? 'passed' : 'expected'].push(scenario);
      else if (run.ok && listed) results.failed.push({ scenario, why: 'passes now: take it off the server section of test/conformance/expected-failures.json' });
      else if (run.ok) results.passed.push(scenario);
      else if (listed) results.expected.push(scenario);
      else results.failed.push({ scenario, why: run.why });
      log(`conformance (server) ${run.ok ? 'ok' : listed ? 'expected failure' : 'FAILED'}: ${scenario}${run.ok ? '' : ` (${run.why.slice(0, 160)})`}`);
    }
  } finally {
    if (!('error' in server)) {
      const left = await server.stop();
      if (left.length > 0) results.failed.push({ scenario: '(stop)', why: `left running after ${direct ? 'the fixture' : 'the gateway'} stopped:\n${left.join('\n')}` });
    }
    fs.rmSync(runDir, { recursive: true, force: true });
  }
  return results;
}

/**
 * The server scenarios a requirement set requires (`list --requirements ERA --server`, its first block).
 * @param {string} node @param {string} suite @param {string} era
 */
function requiredServerScenarios(node, suite, era) {
  const listed = spawnSync(node, [suite, 'list', '--requirements', era, '--server'], { encoding: 'utf8' });
  const block = listed.stdout.split(/\n\s*\n/).find((b) => b.startsWith('Server scenarios')) ?? '';
  return [...block.matchAll(/^\s+- (\S+)$/gm)].map((m) => m[1]);
}

/**
 * One scenario at one era's wire, in a suite process of its own.
 * @param {string} node @param {string} suite @param {string} url @param {string} name @param {string} era @param {string} outDir
 * @returns {{ ok: boolean, why: string }}
 */
function runScenario(node, suite, url, name, era, outDir) {
  const run = spawnSync(node, [suite, 'server', '--url', url, '--scenario', name, '--spec-version', era, '--verbose', '-o', outDir], { encoding: 'utf8', timeout: 90_000 });
  const checks = parseChecks(run.stdout);
  const failing = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  const ok = run.status === 0 && failing.length === 0 && checks.some((c) => c.status === 'SUCCESS');
  const why = ok ? '' : failing.map((c) => `${c.name ?? c.id}: ${c.errorMessage ?? c.status}`).join('; ').slice(0, 600)
    || `the suite exited ${run.status ?? run.signal} with ${checks.length} checks${run.stderr ? `: ${run.stderr.trim().slice(0, 300)}` : ''}`;
  return { ok, why };
}

/**
 * `mcp-tool-host serve --http` with a config naming the fixture, as a user starts it.
 * @param {string} runDir a private folder for the config; its path marks the run's processes
 * @param {string} outDir the results folder, which keeps the gateway's stderr
 */
function startGateway(runDir, outDir) {
  const config = path.join(runDir, 'servers.json');
  // The gateway offers a tool as `<server>_<tool>`: a server named `test` offering `simple_text`
  // reaches the suite as `test_simple_text`, the name it calls.
  fs.writeFileSync(config, JSON.stringify({ servers: { test: { command: 'node', args: [FIXTURE] } } }, null, 2));
  return startListening(runDir, path.join(outDir, 'gateway-stderr.log'), process.execPath, [path.join(root, 'dist/cli.js'), 'serve', '--http', '--config', config]);
}

/** The fixture served over HTTP by the SDK, without the gateway. @param {string} runDir @param {string} outDir */
function startFixture(runDir, outDir) {
  return startListening(runDir, path.join(outDir, 'fixture-stderr.log'), process.execPath, [FIXTURE, '--http']);
}

/**
 * Starts a process that prints the URL it listens on to stderr; resolves once it did.
 * `stop()` sends SIGTERM, waits for the exit and resolves with what the process started
 * that is still running (its descendants seen while it ran, and anything carrying the run's marker).
 * @param {string} runDir @param {string} logFile where its stderr goes @param {string} command @param {string[]} args
 * @returns {Promise<{ error: string } | { url: string, stop: () => Promise<string[]> }>}
 */
function startListening(runDir, logFile, command, args) {
  const child = spawn(command, args, { cwd: runDir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, [RUN_MARKER]: runDir } });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let stderr = '';
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish({ error: `printed no URL within ${START_MS / 1000} s: ${stderr.trim().slice(-500)}` }), START_MS);
    /** @param {{ error: string } | { url: string }} outcome */
    const finish = (outcome) => {
      clearTimeout(timer);
      child.stderr.removeListener('data', onData);
      if ('error' in outcome) {
        child.kill('SIGKILL');
        resolve(outcome);
        return;
      }
      // Keep draining (a full pipe would block the gateway's logging) into a log beside the results.
      const log = fs.createWriteStream(logFile);
      log.write(stderr);
      child.stderr.pipe(log);
      resolve({
        url: outcome.url,
        stop: async () => {
          const seen = descendants(/** @type {number} */ (child.pid));
          child.kill('SIGTERM');
          const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 10_000))]);
          if (code === 'timeout') child.kill('SIGKILL');
          return settled(() => [...new Set([...seen.filter(alive), ...processesOfRun(runDir)])]);
        },
      });
    };
    /** @param {Buffer} chunk */
    const onData = (chunk) => {
      stderr += chunk.toString('utf8');
      const url = /https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+\/\S*mcp\b/.exec(stderr)?.[0];
      if (url) finish({ url });
    };
    child.stderr.on('data', onData);
    child.once('exit', (code, signal) => finish({ error: `exited (${code ?? signal}) before printing a URL: ${stderr.trim().slice(-500)}` }));
  });
}

/** `pid args` rows of every process below `pid`. @param {number} pid */
function descendants(pid) {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' }).split('\n').map((l) => l.trim().split(/\s+/)).filter((r) => r.length >= 3);
  const found = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [p, pp] of rows) {
      if (found.has(Number(pp)) && !found.has(Number(p))) {
        found.add(Number(p));
        grew = true;
      }
    }
  }
  return rows.filter(([p]) => found.has(Number(p)) && Number(p) !== pid).map((r) => `${r[0]} ${r.slice(2).join(' ')}`);
}

/** Whether the process of a `pid args` row still runs (and is not a zombie). @param {string} row */
function alive(row) {
  const pid = Number(row.split(' ', 1)[0]);
  try {
    return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}


/**
 * The checks the suite prints as JSON on stdout with --verbose, after a line that names the scenario.
 * @param {string} stdout
 * @returns {{ id?: string, name?: string, status?: string, errorMessage?: string }[]}
 */
function parseChecks(stdout) {
  const start = stdout.indexOf('\n[');
  const end = stdout.lastIndexOf('\n]');
  if (start < 0 || end < start) return [];
  try {
    const parsed = JSON.parse(stdout.slice(start + 1, end + 2));
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** The table a person reads: one row per scenario, one column per era. @param {ScenarioRun[]} runs */
export function scenarioTable(runs) {
  const names = [...new Set(runs.map((r) => r.scenario.slice(0, r.scenario.lastIndexOf('@'))))];
  const cell = (/** @type {string} */ name, /** @type {string} */ era) => {
    const run = runs.find((r) => r.scenario === `${name}@${era}`);
    return run ? (run.ok ? 'pass' : 'FAIL') : '-';
  };
  const width = Math.max(...names.map((n) => n.length));
  return [`${'scenario'.padEnd(width)}  ${ERAS.join('  ')}`, ...names.map((n) => `${n.padEnd(width)}  ${ERAS.map((e) => cell(n, e).padEnd(e.length)).join('  ')}`)].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const direct = process.argv.includes('--direct');
  const outDir = path.join(root, 'test-results', direct ? 'conformance-server-direct' : 'conformance-server');
  const started = Date.now();
  const only = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--only' ? a.split(',') : []));
  const results = await runServerConformance({ node: e2eEnv().NODE24, outDir, direct, only: only.length ? only : undefined, log: () => {} });
  console.log(scenarioTable(results.runs));
  // Listed in the baseline or not, the reason of every failing run, as the suite gave it.
  for (const run of results.runs.filter((r) => !r.ok)) console.log(`\n${run.scenario}: ${run.why}`);
  for (const f of results.failed) console.log(`\nFAILED ${f.scenario}: ${f.why}`);
  console.log(`\n${results.passed.length} passed, ${results.expected.length} ${direct ? 'failed' : 'expected failures'}, ${results.failed.length} failed, in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exitCode = results.failed.length === 0 ? 0 : 1;
}
