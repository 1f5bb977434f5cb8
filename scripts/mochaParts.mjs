// The plain-Node layer in parts, each a mocha process of its own over some of the files (`npm test`
// runs them side by side: their tests mostly wait on child processes and timers, not on the CPU).
// Not mocha's --parallel: its workers are ended when their files are done, so a test that leaves a
// handle open would no longer keep its process alive, and .mocharc.json's `"exit": false` is there
// to make such a test hang the run (which then fails at its time bound) instead of passing.
import fs from 'node:fs';
import path from 'node:path';

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
 * Deals sorted files out to `n` parts in turn: neighbours (the slow CLI files, the gateway's) land
 * in different parts, so the parts take about as long.
 * @param {string[]} files
 * @param {number} n
 * @returns {string[][]}
 */
export function dealFiles(files, n) {
  return Array.from({ length: n }, (_, i) => files.filter((_, j) => j % n === i));
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
