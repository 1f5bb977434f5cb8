// `npm test`: typecheck, lint, then every layer of tests, ending with one line
// "N passed, N failed" that counts them all. Exits non-zero on any failure.
//   1. unit + integration (mocha in plain Node; servers are real child processes)
//   2. the extension-host suite inside a real VS Code (code-server)
//   3. UI tests in Debian's Chromium, with screenshots under test-results/
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { prepare, start } from './e2e/codeServer.mjs';
import { runHostTests } from './e2e/hostTests.mjs';
import { runUiTests } from '../test/ui/uiTests.mjs';
import { runArgumentsUiTests } from '../test/ui/argumentsUi.mjs';
import { runTreeUiTests } from '../test/ui/treeUi.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);
const results = path.join(root, 'test-results');
fs.rmSync(results, { recursive: true, force: true });
fs.mkdirSync(path.join(results, 'screenshots'), { recursive: true });
const t0 = Date.now();
const say = (m) => console.log(`[test +${((Date.now() - t0) / 1000).toFixed(0)}s] ${m}`);
const counts = { passed: 0, failed: 0 };
const failures = [];
const npx = (args, opts = {}) => spawnSync('npx', ['--no-install', ...args], { stdio: 'inherit', ...opts }).status === 0;

function step(name, ok) {
  if (ok) counts.passed++;
  else {
    counts.failed++;
    failures.push(name);
  }
  say(`${ok ? 'ok' : 'FAILED'}: ${name}`);
}

let fatal = false;
say('typecheck');
step('typecheck (tsc --noEmit)', npx(['tsc', '--noEmit', '-p', '.']));
say('lint');
step('lint (eslint)', npx(['eslint', '.']));

say('build + unit and integration tests');
const built = npx(['tsc', '-p', '.']) && spawnSync('node', ['esbuild.mjs'], { stdio: 'inherit' }).status === 0;
if (!built) {
  step('build', false);
  fatal = true;
} else {
  const report = path.join(results, 'mocha.json');
  const r = spawnSync('npx', ['--no-install', 'mocha', '--config', '.mocharc.json', '--reporter', 'spec', '--reporter', 'json', '--reporter-option', `output=${report}`], { stdio: 'inherit' });
  void r;
  try {
    const stats = JSON.parse(fs.readFileSync(report, 'utf8')).stats;
    counts.passed += stats.passes;
    counts.failed += stats.failures;
    if (stats.failures) failures.push(`${stats.failures} unit/integration test(s)`);
    say(`unit + integration: ${stats.passes} passed, ${stats.failures} failed`);
  } catch {
    step('unit + integration (no report)', false);
  }
}

if (!fatal) {
  say('benchmark smoke run (tiny sizes, no timing goals)');
  step('bench --smoke', spawnSync('node', ['out/bench/run.js', '--smoke'], { stdio: ['ignore', 'ignore', 'inherit'] }).status === 0);
}

if (!fatal && !process.argv.includes('--skip-e2e')) {
  say('package the .vsix (production build)');
  const packaged = spawnSync('npm', ['run', '--silent', 'package'], { stdio: 'inherit' }).status === 0;
  step('package .vsix', packaged);
  say('e2e setup (cached per user, keyed by pinned versions)');
  const setup = spawnSync('bash', ['scripts/e2e/setup.sh'], { stdio: 'inherit' }).status === 0;
  step('e2e setup', setup);
  if (packaged && setup) {
    const runDir = path.join(results, 'code-server');
    prepare(runDir, { vsix: [path.join(root, 'dist-vsix/mcp-tool-host.vsix')] });
    const cs = await start(runDir, { extraArgs: ['--vscode-option', 'enable-smoke-test-driver'] });
    try {
      say(`code-server on 127.0.0.1:${cs.port}: extension-host suite`);
      const hostWs = path.join(runDir, 'host-ws');
      fs.mkdirSync(hostWs, { recursive: true });
      const host = await runHostTests(cs, {
        devPath: root,
        testsPath: path.join(root, 'out/test/host/index.js'),
        folder: hostWs,
        resultsFile: path.join(results, 'host-tests.json'),
        shotsDir: path.join(results, 'screenshots'),
      });
      counts.passed += host.passes.length;
      counts.failed += host.failures.length;
      for (const f of host.failures) failures.push(`host: ${f.title}: ${f.error}`);
      say(`extension host: ${host.passes.length} passed, ${host.failures.length} failed`);
      // The test window closed, so its extension host deactivated: every server it ran must be gone.
      const serverProcesses = () => execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n').filter((l) => /demo-server\.js|fixtures\/servers\//.test(l) && !l.includes('ps -eo'));
      let left = serverProcesses();
      for (let i = 0; i < 50 && left.length; i++) {
        await new Promise((r) => setTimeout(r, 100));
        left = serverProcesses();
      }
      step('no MCP server process remains after the extension host deactivated', left.length === 0);
      if (left.length) console.log(left.join('\n'));

      say('UI tests in Chromium');
      const ui = await runUiTests(cs, { runDir, shotsDir: path.join(results, 'screenshots'), root, log: say });
      counts.passed += ui.passed;
      counts.failed += ui.failed.length;
      for (const f of ui.failed) failures.push(`ui: ${f}`);
      say(`UI: ${ui.passed} passed, ${ui.failed.length} failed`);

      say('UI tests of the argument prompts');
      const argsUi = await runArgumentsUiTests(cs, { runDir, shotsDir: path.join(results, 'screenshots'), root, log: say });
      counts.passed += argsUi.passed;
      counts.failed += argsUi.failed.length;
      for (const f of argsUi.failed) failures.push(`ui (arguments): ${f}`);
      say(`UI (arguments): ${argsUi.passed} passed, ${argsUi.failed.length} failed`);

      say('Tools view UI tests in Chromium');
      const tree = await runTreeUiTests(cs, { runDir, shotsDir: path.join(results, 'screenshots'), root, log: say });
      counts.passed += tree.passed;
      counts.failed += tree.failed.length;
      for (const f of tree.failed) failures.push(`tree ui: ${f}`);
      say(`Tools view UI: ${tree.passed} passed, ${tree.failed.length} failed`);
    } finally {
      await cs.stop();
    }
    const leftovers = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).split('\n').filter((l) => l.includes(runDir) && !l.includes('ps -eo'));
    step('no process left behind after code-server stopped', leftovers.length === 0);
    if (leftovers.length) console.log(leftovers.join('\n'));
  }
}

say(`done in ${((Date.now() - t0) / 1000).toFixed(0)}s; screenshots in test-results/screenshots`);
if (failures.length) console.log(`failures:\n  ${failures.join('\n  ')}`);
console.log(`${counts.passed} passed, ${counts.failed} failed`);
process.exit(counts.failed === 0 && !fatal ? 0 : 1);
