// `npm test`: typecheck, lint, then every layer of tests, ending with one line
// "N passed, N failed" that counts them all. Exits non-zero on any failure.
//   1. unit + integration (mocha in plain Node; servers are real child processes)
//   2. the extension-host suite inside a real VS Code (code-server)
//   3. UI tests in Debian's Chromium, with screenshots under test-results/ (tasks and argument rules among them)
//   4. `npm start` as a user runs it, twice
//   and, once the e2e setup has Node 24, the official MCP conformance suite's client scenarios
//   against the CLI (scripts/conformance.mjs, test/conformance)
// --skip-e2e stops after 1; --only-e2e builds and runs 2-4 only (no typecheck, lint, unit tests).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { e2eEnv, prepare, start } from './e2e/codeServer.mjs';
import { runConformance } from './conformance.mjs';
import { runHostTests } from './e2e/hostTests.mjs';
import { runUiTests } from '../test/ui/uiTests.mjs';
import { runArgumentsUiTests } from '../test/ui/argumentsUi.mjs';
import { runTreeUiTests } from '../test/ui/treeUi.mjs';
import { runChatUiTests } from '../test/ui/chatUi.mjs';
import { runStartUiTests } from '../test/ui/startUi.mjs';
import { runTasksUiTests } from '../test/ui/tasksUi.mjs';
import { runRulesUiTests } from '../test/ui/rulesUi.mjs';
import { runAppsUiTests } from '../test/ui/appsUi.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
process.chdir(root);
const results = path.join(root, 'test-results');
fs.rmSync(results, { recursive: true, force: true });
fs.mkdirSync(path.join(results, 'screenshots'), { recursive: true });
const t0 = Date.now();
const say = (/** @type {string} */ m) => console.log(`[test +${((Date.now() - t0) / 1000).toFixed(0)}s] ${m}`);
const counts = { passed: 0, failed: 0 };
/** @type {string[]} */
const failures = [];
const onlyE2e = process.argv.includes('--only-e2e');
/**
 * Runs a locally installed tool; true when it exits 0.
 * @param {string[]} args
 * @param {import('node:child_process').SpawnSyncOptions} [opts]
 */
const npx = (args, opts = {}) => spawnSync('npx', ['--no-install', ...args], { stdio: 'inherit', ...opts }).status === 0;

/**
 * Counts one pass or failure that is not a single test (a build, a check).
 * @param {string} name
 * @param {boolean} ok
 */
function step(name, ok) {
  if (ok) counts.passed++;
  else {
    counts.failed++;
    failures.push(name);
  }
  say(`${ok ? 'ok' : 'FAILED'}: ${name}`);
}

let fatal = false;
if (!onlyE2e) {
  say('typecheck');
  step('typecheck (tsc --noEmit)', npx(['tsc', '--noEmit', '-p', '.']));
  step('typecheck of the scripts and UI suites (tsc -p tsconfig.scripts.json)', npx(['tsc', '-p', 'tsconfig.scripts.json']));
  say('lint');
  step('lint (eslint)', npx(['eslint', '.']));
}

say(onlyE2e ? 'build' : 'build + unit and integration tests');
const built = npx(['tsc', '-p', '.']) && spawnSync('node', ['esbuild.mjs'], { stdio: 'inherit' }).status === 0;
if (!built) {
  step('build', false);
  fatal = true;
} else if (!onlyE2e) {
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

if (!fatal && !onlyE2e) {
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
  if (setup) {
    // The official conformance suite (its engines ask for Node >= 22: the setup's Node 24) against dist/cli.js.
    say('MCP conformance suite: client scenarios at each of their spec versions, one at a time');
    const conformance = runConformance({ node: e2eEnv().NODE24, outDir: path.join(results, 'conformance'), log: (line) => void (line.includes('FAILED') && say(line)) });
    counts.passed += conformance.passed.length;
    counts.failed += conformance.failed.length;
    for (const f of conformance.failed) failures.push(`conformance: ${f.scenario}: ${f.why}`);
    say(`conformance: ${conformance.passed.length} passed, ${conformance.expected.length} expected failures (test/conformance/expected-failures.json), ${conformance.failed.length} failed`);
  }
  if (packaged && setup) {
    const ours = path.join(root, 'dist-vsix/mcp-tool-host.vsix');
    const hostFiles = fs.readdirSync(path.join(root, 'out/test/host')).filter((f) => f.endsWith('.test.js'));
    // These need the test language model (chat*.test.js, lmTools.test.js): they run in the second instance, which has it.
    const CHAT_FILE = /^(chat.*|lmTools)\.test\.js$/;
    /**
     * @param {import('./e2e/codeServer.mjs').CodeServer} cs
     * @param {string} runDir
     * @param {string} label names the results file and the summary line
     * @param {string[]} files the test files to run (out/test/host/*.test.js)
     */
    const runHost = async (cs, runDir, label, files) => {
      const hostWs = path.join(runDir, 'host-ws');
      fs.mkdirSync(hostWs, { recursive: true });
      const host = await runHostTests(cs, {
        devPath: root,
        testsPath: path.join(root, 'out/test/host/index.js'),
        folder: hostWs,
        resultsFile: path.join(results, `host-tests-${label}.json`),
        shotsDir: path.join(results, 'screenshots'),
        env: { HOST_TEST_FILES: files.join(',') },
      });
      counts.passed += host.passes.length;
      counts.failed += host.failures.length;
      for (const f of host.failures) failures.push(`host: ${f.title}: ${f.error}`);
      say(`extension host (${label}): ${host.passes.length} passed, ${host.failures.length} failed`);
    };
    /**
     * @param {string} label
     * @param {() => Promise<import('../test/ui/workbenchPage.mjs').UiResults>} run
     */
    const ui = async (label, run) => {
      say(`${label} in Chromium`);
      const r = await run();
      counts.passed += r.passed;
      counts.failed += r.failed.length;
      for (const f of r.failed) failures.push(`${label}: ${f}`);
      say(`${label}: ${r.passed} passed, ${r.failed.length} failed`);
    };

    // 1. The product alone, as a user has it: extension-host suite and the UI suites.
    await instance('code-server', [ours], [], async (cs, runDir) => {
      say(`code-server on 127.0.0.1:${cs.port}: extension-host suite`);
      await runHost(cs, runDir, 'product', hostFiles.filter((f) => !CHAT_FILE.test(f)));
      // The test window closed, so its extension host deactivated: every server it ran must be gone.
      const serverProcesses = () => execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n').filter((l) => /demo-server\.js|fixtures\/servers\//.test(l) && !l.includes('ps -eo'));
      let left = serverProcesses();
      for (let i = 0; i < 50 && left.length; i++) {
        await new Promise((r) => setTimeout(r, 100));
        left = serverProcesses();
      }
      step('no MCP server process remains after the extension host deactivated', left.length === 0);
      if (left.length) console.log(left.join('\n'));
      const opts = { runDir, shotsDir: path.join(results, 'screenshots'), root, log: say };
      await ui('UI tests', () => runUiTests(cs, opts));
      await ui('UI tests of the argument prompts', () => runArgumentsUiTests(cs, opts));
      await ui('Tools view UI tests', () => runTreeUiTests(cs, opts));
      await ui('task UI tests', () => runTasksUiTests(cs, opts));
      await ui('argument rules UI tests', () => runRulesUiTests(cs, opts));
      await ui('tool interface (MCP Apps) UI tests', () => runAppsUiTests(cs, opts));
    });

    // 2. With the test-only language model for @mcp (test/fakelm; the proposed API makes it the
    //    Chat view's default model). Its own instance: a chat model turns on VS Code's AI features.
    const fakeLm = path.join(results, 'fakelm.vsix');
    const fakeLmPacked = spawnSync(path.join(root, 'node_modules/.bin/vsce'), ['package', '--allow-missing-repository', '--no-dependencies', '--skip-license', '-o', fakeLm], { cwd: path.join(root, 'test/fakelm'), stdio: ['ignore', 'ignore', 'inherit'] }).status === 0;
    step('package the test language model .vsix (test/fakelm)', fakeLmPacked);
    if (fakeLmPacked) {
      await instance('code-server-chat', [ours, fakeLm], ['--enable-proposed-api', 'mcp-tool-host-tests.fakelm'], async (cs, runDir) => {
        await runHost(cs, runDir, 'chat', hostFiles.filter((f) => CHAT_FILE.test(f)));
        await ui('@mcp chat UI tests', () => runChatUiTests(cs, { runDir, shotsDir: path.join(results, 'screenshots'), root, log: say }));
      });
    }

    // 3. `npm start` itself, run twice on a profile of its own: the demo is served, and what the
    //    user did in the first session is still there in the second.
    await ui('npm start UI tests', () => runStartUiTests({ runDir: path.join(results, 'npm-start'), shotsDir: path.join(results, 'screenshots'), root, log: say }));
  }
}

/**
 * One isolated code-server with the given .vsix files; stopped after `body`, and checked for leftovers.
 * @param {string} name
 * @param {string[]} vsix
 * @param {string[]} extraArgs
 * @param {(cs: import('./e2e/codeServer.mjs').CodeServer, runDir: string) => Promise<void>} body
 */
async function instance(name, vsix, extraArgs, body) {
  const runDir = path.join(results, name);
  prepare(runDir, { vsix });
  const cs = await start(runDir, { extraArgs: ['--vscode-option', 'enable-smoke-test-driver', ...extraArgs] });
  try {
    await body(cs, runDir);
  } finally {
    await cs.stop();
  }
  const leftovers = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' }).split('\n').filter((l) => l.includes(runDir) && !l.includes('ps -eo'));
  step(`no process left behind after code-server (${name}) stopped`, leftovers.length === 0);
  if (leftovers.length) console.log(leftovers.join('\n'));
}

say(`done in ${((Date.now() - t0) / 1000).toFixed(0)}s; screenshots in test-results/screenshots`);
if (failures.length) console.log(`failures:\n  ${failures.join('\n  ')}`);
console.log(`${counts.passed} passed, ${counts.failed} failed`);
process.exit(counts.failed === 0 && !fatal ? 0 : 1);
