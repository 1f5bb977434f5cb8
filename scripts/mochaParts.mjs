// The plain-Node layer in parts, each a mocha process of its own over some of the files (`npm test`
// runs them side by side: their tests mostly wait on child processes and timers, not on the CPU).
// The parts are balanced by each file's seconds in an earlier run (scripts/mochaWeights.json).
// Not mocha's --parallel: its workers are ended when their files are done, so a test that leaves a
// handle open would no longer keep its process alive, and .mocharc.json's `"exit": false` is there
// to make such a test hang the run (which then fails at its time bound) instead of passing.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The files a mocha config's `spec` names, in its order (each pattern's sorted). Only the form
 * `folder/**\/*.suffix` is read.
 * @param {string[]} spec
 * @param {string} root
 * @returns {string[]} paths relative to root
 */
export function specFiles(spec, root) {
  return spec.flatMap((pattern) => {
    const m = /^(.+)\/\*\*\/\*(\.[\w.]+)$/.exec(pattern);
    if (!m) throw new Error(`.mocharc.json: spec "${pattern}" is not of the form folder/**/*.suffix`);
    const [, folder, suffix] = m;
    const dir = path.join(root, folder);
    if (!fs.existsSync(dir)) return [];
    return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(suffix)).map((f) => path.posix.join(folder, f.split(path.sep).join('/'))).sort();
  });
}

/**
 * Shares files out to `n` parts that take about as long: the longest first, each to the part with
 * the least so far (seconds from `weights`, a file not in it counted at their median). The weights
 * only balance the parts; every file runs whatever they say.
 * @param {string[]} files
 * @param {number} n
 * @param {Record<string, number>} [weights] seconds per file, from an earlier run (scripts/mochaWeights.json)
 * @returns {string[][]} each part in the files' own order
 */
export function dealFiles(files, n, weights = {}) {
  const known = Object.values(weights).sort((a, b) => a - b);
  const typical = known.length ? known[Math.floor(known.length / 2)] : 1;
  const weight = (/** @type {string} */ f) => weights[f] ?? typical;
  const parts = Array.from({ length: n }, () => ({ files: /** @type {string[]} */ ([]), total: 0 }));
  for (const f of [...files].sort((a, b) => weight(b) - weight(a))) {
    const lightest = parts.reduce((least, p) => (p.total < least.total ? p : least));
    lightest.files.push(f);
    lightest.total += weight(f);
  }
  return parts.map((p) => files.filter((f) => p.files.includes(f)));
}

/**
 * Seconds per test file from mocha JSON reports (test-results/mocha-*.json after `npm test`): what
 * scripts/mochaWeights.json holds. `node scripts/mochaParts.mjs test-results/mocha-*.json` prints it.
 * @param {string[]} reports
 * @param {string} root
 * @returns {Record<string, number>}
 */
export function weightsOf(reports, root) {
  /** @type {Record<string, number>} */
  const seconds = {};
  for (const report of reports) {
    /** @type {{ tests: { file?: string, duration?: number }[] }} */
    const { tests } = JSON.parse(fs.readFileSync(report, 'utf8'));
    for (const t of tests) {
      if (!t.file) continue;
      const f = path.relative(root, t.file).split(path.sep).join('/');
      seconds[f] = (seconds[f] ?? 0) + (t.duration ?? 0) / 1000;
    }
  }
  return Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => a.localeCompare(b)).map(([f, s]) => [f, Math.round(s * 10) / 10]));
}

/**
 * Writes one part's mocha config beside `baseConfig`'s other options (mocha adds files named on its
 * command line to the config's spec, so a part needs a config of its own).
 * @param {Record<string, unknown>} baseConfig .mocharc.json's contents
 * @param {string[]} files
 * @param {string} file where to write it
 */
export function writePartConfig(baseConfig, files, file) {
  fs.writeFileSync(file, JSON.stringify({ ...baseConfig, spec: files }, null, 2));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(weightsOf(process.argv.slice(2), process.cwd()), null, 2));
}
