// `npm test`: typecheck, lint, then every layer of tests, ending with one line
// "N passed, N failed" that counts them all. Exits non-zero on any failure.
//   1. unit + integration (mocha in plain Node, two processes side by side over halves of the files
//      that take about as long: scripts/mochaParts.mjs; servers are real child processes)
//   2. the extension-host suite inside a real VS Code (code-server)
//   3. UI tests in Debian's Chromium, with screenshots under test-results/ (tasks and argument rules among them;
//      workspace trust in an instance of its own, the only one with trust on)
//   4. `npm start` as a user runs it, twice
//   and, once the e2e setup has Node 24, the official MCP conformance suite's client scenarios
//   against the CLI (scripts/conformance.mjs, test/conformance) and its server scenarios against the
//   gateway, `serve --http` (scripts/conformance-server.mjs)
// Layers 2-4 and the conformance suite run in two lanes side by side (e2e()): the product's
// code-server here; the conformance suite, then the chat, trust, administrator and `npm start`
// suites and a second product instance in a second process. The bench's smoke run goes in the
// background after layer 1.
// The e2e setup (scripts/e2e/setup.sh: Debian packages, Node 24, code-server, the conformance suite)
// runs in the background from the start, beside the typecheck, lint and layer 1: its first stage (the
// Debian packages and Node 24, which layer 1's sandbox and keychain tests need) is awaited before 1,
// the rest before 2. --skip-e2e stops after 1; --only-e2e builds and runs 2-4 only (no typecheck,
// lint, unit tests).
// A suite that crashes counts as one failure with its reason and the others still run; the summary
// line is printed last whatever happens (scripts/testTally.mjs). Each code-server, browser profile and
// socket lives in a short private temp folder, never under the checkout (a checkout at a long path
// would put socket paths past their 107-byte limit); results, logs and screenshots go to test-results/.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUN_MARKER, e2eEnv, prepare, processesOfRun, settled, shortTempDir, start } from './e2e/codeServer.mjs';
import { runConformance } from './conformance.mjs';
import { runServerConformance } from './conformance-server.mjs';
import { runHostTests } from './e2e/hostTests.mjs';
import { createTally, finishOnCrash, reasonOf, runAgainIfFailed } from './testTally.mjs';
import { dealFiles, specFiles, writePartConfig } from './mochaParts.mjs';
import { runUiTests } from '../test/ui/uiTests.mjs';
import { runArgumentsUiTests } from '../test/ui/argumentsUi.mjs';
import { runTreeUiTests } from '../test/ui/treeUi.mjs';
import { runChatUiTests } from '../test/ui/chatUi.mjs';
import { runChatPromptsUiTests } from '../test/ui/chatPromptsUi.mjs';
import { runBudgetUiTests } from '../test/ui/budgetUi.mjs';
import { runStartUiTests } from '../test/ui/startUi.mjs';
import { runFirstStartUiTests } from '../test/ui/firstStartUi.mjs';
import { runTasksUiTests } from '../test/ui/tasksUi.mjs';
import { runResourcesUiTests } from '../test/ui/resourcesUi.mjs';
import { runRulesUiTests } from '../test/ui/rulesUi.mjs';
import { runAppsUiTests } from '../test/ui/appsUi.mjs';
import { runTrustUiTests } from '../test/ui/trustUi.mjs';
import { runRegistryUiTests } from '../test/ui/registryUi.mjs';
import { runAdminUiTests } from '../test/ui/adminUi.mjs';
import { runGatewayUiTests } from '../test/ui/gatewayUi.mjs';
import { runTelemetryUiTests } from '../test/ui/telemetryUi.mjs';
import { runDevModeUiTests } from '../test/ui/devModeUi.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const results = path.join(root, 'test-results');
const shotsDir = path.join(results, 'screenshots');
/** Set in the e2e layer's second lane (a process `npm test` starts, see e2e()): where it writes what it counted. */
const laneFile = process.argv.find((a) => a.startsWith('--e2e-lane='))?.slice('--e2e-lane='.length);
// A lane counts from its parent's start, so the log's times read as one run.
const t0 = Number(laneFile && process.env.MTH_TEST_T0) || Date.now();
const say = (/** @type {string} */ m) => console.log(`[test +${((Date.now() - t0) / 1000).toFixed(0)}s]${laneFile ? ' [lane 2]' : ''} ${m}`);
const tally = createTally(say);
/** Ends the run: the summary line last, then the exit code (a lane writes its counts for its parent instead). */
const finish = () => {
  if (laneFile) {
    fs.writeFileSync(laneFile, JSON.stringify(tally.counts()));
    process.exit(0);
  }
  say(`done in ${((Date.now() - t0) / 1000).toFixed(0)}s; screenshots in test-results/screenshots`);
  process.exit(tally.finish());
};
finishOnCrash(tally, finish);

if (laneFile) {
  await otherLane(process.argv.includes('--packaged'));
  finish();
}
fs.rmSync(results, { recursive: true, force: true });
fs.mkdirSync(shotsDir, { recursive: true });
const onlyE2e = process.argv.includes('--only-e2e');
/** Unit + integration take ~7-14 min here (a busy machine): more than 20 min is a hang. */
const MOCHA_LIMIT_MS = 20 * 60_000;
/** Mocha processes side by side over the plain-Node test files (scripts/mochaParts.mjs). */
const MOCHA_PARTS = 2;
/** The e2e layer's second lane takes ~10-12 min on a busy machine: more than 40 min is a hang. */
const E2E_LANE_LIMIT_MS = 40 * 60_000;
/**
 * Runs a command beside others; resolves to true when it exits 0.
 * @param {string} command
 * @param {string[]} args
 * @returns {Promise<boolean>}
 */
const runAsync = (command, args) => new Promise((resolve) => {
  const child = spawn(command, args, { stdio: 'inherit' });
  child.once('error', () => resolve(false));
  child.once('exit', (code) => resolve(code === 0));
});

// Network and disk (minutes on a machine that has never seen the project): it runs while the CPU
// typechecks, lints and runs layer 1.
const setup = startSetup(path.join(results, 'e2e-setup.log'));

// One tsc run both typechecks and compiles the tests to out/ (a --noEmit pass first checked the same program twice).
say('typecheck and compile');
// Not spawnSync: the setup's stages must be able to end and start the next meanwhile.
const compiled = await runAsync('npx', ['--no-install', 'tsc', '-p', '.']);
if (!onlyE2e) tally.step('typecheck (tsc -p .)', compiled);
// Each of these is one process on one core and none reads what another writes: side by side.
// The production build, the one the .vsix ships: the CLI and servers the plain-Node tests start are
// what users run, and each CLI run compiles half the code (dist/cli-commands.js 2.8 MB, not 5.7).
say(onlyE2e ? 'build' : 'build, typecheck of the scripts, lint (side by side)');
const [bundled, scriptsChecked, linted] = await Promise.all([
  compiled ? runAsync('node', ['esbuild.mjs', '--production']) : false,
  onlyE2e || runAsync('npx', ['--no-install', 'tsc', '-p', 'tsconfig.scripts.json']),
  onlyE2e || runAsync('npx', ['--no-install', 'eslint', '.']),
]);
if (!onlyE2e) {
  tally.step('typecheck of the scripts and UI suites (tsc -p tsconfig.scripts.json)', scriptsChecked);
  tally.step('lint (eslint)', linted);
}
const built = compiled && bundled;
/** @type {ReturnType<typeof runBounded> | undefined} the bench's smoke run, once started */
let bench;
if (!built) tally.step('build', false);
if (built && !onlyE2e) {
  // Not just before the e2e layer: the sandbox tests of the integration layer need bubblewrap, socat
  // and ripgrep, the keychain tests a Secret Service, and a fresh machine has none of them.
  say('waiting for the e2e setup\'s first stage (Debian packages, Node 24)');
  await setup.base;
  say(`unit and integration tests (${MOCHA_PARTS} mocha processes side by side)`);
  const mochaConfig = JSON.parse(fs.readFileSync(path.join(root, '.mocharc.json'), 'utf8'));
  const weights = JSON.parse(fs.readFileSync(path.join(root, 'scripts/mochaWeights.json'), 'utf8'));
  const parts = dealFiles(specFiles(mochaConfig.spec, root), MOCHA_PARTS, weights);
  const mochaRuns = await Promise.all(parts.map(async (files, i) => {
    const config = path.join(results, `mocharc-${i + 1}.json`);
    const report = path.join(results, `mocha-${i + 1}.json`);
    writePartConfig(mochaConfig, files, config);
    const run = await runBounded('npx', ['--no-install', 'mocha', '--config', config, '--reporter', 'json', '--reporter-option', `output=${report}`], MOCHA_LIMIT_MS);
    return { ...run, report, part: `part ${i + 1} of ${parts.length}, ${files.length} files` };
  }));
  const hung = mochaRuns.filter((r) => r.timedOut).map((r) => r.part);
  if (hung.length) tally.step('unit + integration', false, `still running after ${MOCHA_LIMIT_MS / 60_000} min (${hung.join('; ')}): ended, with every process it started (a test hung, or a child it started kept mocha alive)`);
  else tally.step('no process left behind by the unit and integration tests', mochaRuns.every((r) => r.leftovers.length === 0), mochaRuns.flatMap((r) => r.leftovers).join('\n'));
  let mochaPassed = 0;
  let mochaFailed = 0;
  for (const { report, part } of mochaRuns) {
    try {
      /** @type {{ stats: { passes: number, failures: number }, failures: { fullTitle: string, err?: { message?: string } }[] }} */
      const mocha = JSON.parse(fs.readFileSync(report, 'utf8'));
      tally.add('unit/integration', mocha.stats.passes, mocha.failures.map((f) => `${f.fullTitle}: ${reasonOf(f.err?.message ?? '')}`));
      mochaPassed += mocha.stats.passes;
      mochaFailed += mocha.stats.failures;
    } catch (err) {
      tally.step(`unit + integration (${part})`, false, `no report: ${reasonOf(err)}`);
    }
  }
  say(`unit + integration: ${mochaPassed} passed, ${mochaFailed} failed`);
  // No timing goals, so it runs beside what follows (the .vsix and the e2e layer), counted at the end.
  say('benchmark smoke run (tiny sizes, no timing goals), in the background');
  bench = runBounded('node', ['out/bench/run.js', '--smoke'], 300_000, { stdio: ['ignore', 'ignore', 'inherit'] });
}

say('waiting for the e2e setup (cached per user, keyed by pinned versions)');
const setupOk = await setup.all;
tally.step('e2e setup', setupOk, setupOk ? undefined : `see test-results/e2e-setup.log`);
if (built && !process.argv.includes('--skip-e2e')) await e2e(setupOk);
if (bench) tally.step('bench --smoke', (await bench).status === 0);
finish();

/**
 * Starts scripts/e2e/setup.sh in the background, its output in `log` (printed here too if it fails):
 * `base` resolves when its first stage (`--base`: what layer 1 needs) has ended, `all` when the whole
 * setup has; each to true if it succeeded.
 * @param {string} log
 */
function startSetup(log) {
  say(`e2e setup in the background: its log in ${path.relative(root, log)}`);
  const run = (/** @type {string[]} */ args) => new Promise((resolve) => {
    const fd = fs.openSync(log, 'a');
    // Niced: its compiles (code-server's native modules, minutes from a cold cache) take only the CPU
    // the tests leave, so the timing-sensitive tests beside it see the machine they would see alone.
    const child = spawn('nice', ['-n', '15', 'bash', 'scripts/e2e/setup.sh', ...args], { stdio: ['ignore', fd, fd] });
    fs.closeSync(fd);
    child.once('error', () => resolve(false));
    child.once('exit', (code) => {
      say(`e2e setup${args.length ? ` ${args.join(' ')}` : ''}: ${code === 0 ? 'done' : `FAILED (exit ${code}):\n${fs.readFileSync(log, 'utf8').trimEnd().split('\n').slice(-20).join('\n')}`}`);
      resolve(code === 0);
    });
  });
  /** @type {Promise<boolean>} */
  const base = run(['--base']);
  /** @type {Promise<boolean>} */
  const all = base.then((ok) => ok && run([]));
  return { base, all };
}

/**
 * Layers 2-4 and the conformance suite, in two lanes side by side: each lane mostly waits (on a
 * browser, an extension host, a suite's server) and takes about one core, so on 2 cores two take
 * about half the time of one after the other. This process runs the first lane, the product's
 * code-server (its extension-host suite, then most of its UI suites); a second process (`--e2e-lane`:
 * its own event loop, so neither lane's blocking steps stall the other's timers) runs the conformance
 * suite, then the chat, trust, administrator and `npm start` suites, and the product's last UI suites
 * in an instance of their own. Each suite on its own, so one that crashes stops none of the others.
 * @param {boolean} setup the e2e setup succeeded
 */
async function e2e(setup) {
  say('package the .vsix (production build)');
  const packaged = spawnSync('npm', ['run', '--silent', 'package'], { stdio: 'inherit' }).status === 0;
  tally.step('package .vsix', packaged);
  if (!setup) return;
  const second = secondLane(packaged);
  if (packaged) await productLane();
  await second;
}

/**
 * Starts the second lane in a process of its own and adds what it counted; a lane that ends
 * without its counts is one failure.
 * @param {boolean} packaged the .vsix was built (else the lane runs only the conformance suite)
 */
async function secondLane(packaged) {
  const file = path.join(results, 'e2e-lane-2.json');
  say('e2e lane 2 (a process of its own, beside this one): conformance suite, then the chat, trust, administrator, npm start, telemetry and dev mode suites');
  const run = await runBounded(process.execPath, [fileURLToPath(import.meta.url), `--e2e-lane=${file}`, ...(packaged ? ['--packaged'] : [])], E2E_LANE_LIMIT_MS, { env: { MTH_TEST_T0: String(t0) } });
  /** @type {{ passed: number, failures: string[] } | undefined} */
  let counts;
  try {
    counts = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch { /* counted below */ }
  if (counts) tally.merge(counts);
  else tally.step('e2e lane 2', false, run.timedOut ? `still running after ${E2E_LANE_LIMIT_MS / 60_000} min: ended` : `ended (exit ${run.status}) without its counts`);
  if (run.leftovers.length) say(`e2e lane 2 left processes running (ended now):\n${run.leftovers.join('\n')}`);
}

/**
 * The test files of the extension-host suite (out/test/host/*.test.js) for one instance: those that
 * need the test language model (chat*.test.js, lmTools.test.js) run in the chat instance, which has it.
 * @param {boolean} chat
 */
function hostFiles(chat) {
  return fs.readdirSync(path.join(root, 'out/test/host')).filter((f) => f.endsWith('.test.js') && /^(chat.*|lmTools)\.test\.js$/.test(f) === chat);
}

/** The production .vsix (`npm run package`). */
function ours() {
  return path.join(root, 'dist-vsix/mcp-tool-host.vsix');
}

/**
 * The extension-host suite over `files` in `cs`.
 * @param {import('./e2e/codeServer.mjs').CodeServer} cs
 * @param {string} runDir
 * @param {string} label names the results file and the summary line
 * @param {string[]} files the test files to run (out/test/host/*.test.js)
 */
function runHost(cs, runDir, label, files) {
  return tally.suite(`extension host (${label})`, async () => {
    const hostWs = path.join(runDir, 'host-ws');
    fs.mkdirSync(hostWs, { recursive: true });
    const host = await runHostTests(cs, {
      devPath: root,
      testsPath: path.join(root, 'out/test/host/index.js'),
      folder: hostWs,
      resultsFile: path.join(results, `host-tests-${label}.json`),
      shotsDir,
      shotName: `host-tests-${label}-final.png`,
      env: { HOST_TEST_FILES: files.join(',') },
    });
    for (const r of host.retried ?? []) flaky(`extension host (${label})`, `${r.title}: ran again (mocha's retries: the second run counts); first run: ${r.error}`);
    tally.add('host', host.passes.length, host.failures.map((f) => `${f.title}: ${f.error}`));
    say(`extension host (${label}): ${host.passes.length} passed, ${host.failures.length} failed`);
  });
}

/**
 * A check that failed once and ran again: logged, and kept in test-results/flaky.txt to be read and fixed.
 * @param {string} label
 * @param {string} line
 */
function flaky(label, line) {
  say(`FLAKY: ${label}: ${line}`);
  fs.appendFileSync(path.join(results, 'flaky.txt'), `${label}: ${line}\n`);
}

/**
 * One UI suite in Chromium. A suite with a failed check runs once more, whole, in a code-server of
 * its own (`again`): two lanes share 2 cores, and a check that waits on a loaded workbench can miss
 * its bound by chance. The second run's result is the one counted, so a check that fails twice
 * fails the run; a first run's failures are logged as FLAKY and kept in test-results/flaky.txt, to
 * be read and fixed rather than hidden.
 * @param {string} label
 * @param {() => Promise<import('../test/ui/workbenchPage.mjs').UiResults>} run
 * @param {() => Promise<import('../test/ui/workbenchPage.mjs').UiResults | undefined>} [again]
 */
function ui(label, run, again) {
  return tally.suite(label, async () => {
    say(`${label} in Chromium`);
    const r = await runAgainIfFailed(run, again && (async () => {
      say(`${label}: a check failed; the suite runs once more, in a code-server of its own`);
      return again();
    }), (line) => flaky(label, line));
    tally.add(label, r.passed, r.failed);
    say(`${label}: ${r.passed} passed, ${r.failed.length} failed`);
  });
}

/**
 * Runs UI suites in `cs`, each run once more (see ui()) in an instance of its own with the same
 * extensions and options.
 * @param {import('./e2e/codeServer.mjs').CodeServer} cs
 * @param {import('../test/ui/workbenchPage.mjs').UiSuiteOptions} opts
 * @param {string} name
 * @param {string[]} vsix
 * @param {string[]} extraArgs
 * @param {{ workspaceTrust?: boolean }} [options]
 * @returns {(label: string, suite: (cs: import('./e2e/codeServer.mjs').CodeServer, opts: import('../test/ui/workbenchPage.mjs').UiSuiteOptions) => Promise<import('../test/ui/workbenchPage.mjs').UiResults>) => Promise<void>}
 */
function suiteIn(cs, opts, name, vsix, extraArgs, options) {
  return (label, suite) =>
    ui(label, () => suite(cs, opts), async () => {
      /** @type {import('../test/ui/workbenchPage.mjs').UiResults | undefined} */
      let r;
      await instance(`${name} (second run)`, vsix, extraArgs, async (again, runDir) => {
        r = await suite(again, { runDir, shotsDir, root, log: say });
      }, options);
      return r;
    });
}

/** Lane 1: the product alone, as a user has it: the extension-host suite and the UI suites. */
async function productLane() {
  await instance('code-server', [ours()], [], async (cs, runDir) => {
    say(`code-server on 127.0.0.1:${cs.port}: extension-host suite`);
    await runHost(cs, runDir, 'product', hostFiles(false));
    // The test window closed, so its extension host deactivated: every server it ran must be gone.
    // Only this run's servers count (by its marker): another checkout's `npm start` may be serving a demo.
    const left = await settled(() => processesOfRun(runDir, /demo-server\.js|fixtures\/servers\//));
    tally.step('no MCP server process remains after the extension host deactivated', left.length === 0, left.join('\n'));
    const opts = { runDir, shotsDir, root, log: say };
    const product = suiteIn(cs, opts, 'code-server', [ours()], []);
    await product('UI tests', runUiTests);
    await product('UI tests of the argument prompts', runArgumentsUiTests);
    await product('Tools view UI tests', runTreeUiTests);
    await product('task UI tests', runTasksUiTests);
    await product('resources UI tests', runResourcesUiTests);
    await product('argument rules UI tests', runRulesUiTests);
    await product('tool interface (MCP Apps) UI tests', runAppsUiTests);
    await product('walkthrough UI tests', runFirstStartUiTests);
    await product('Add Server from Registry UI tests', runRegistryUiTests);
  });
}

/**
 * Lane 2 (this process is `--e2e-lane`): the conformance suite, then, when the .vsix was built, the
 * chat instance, the trust instance, the administrator's, `npm start`, and a second product instance.
 * @param {boolean} packaged
 */
async function otherLane(packaged) {
  // The official conformance suite (its engines ask for Node >= 22: the setup's Node 24) against dist/cli.js.
  say('MCP conformance suite: client scenarios at each of their spec versions, one at a time');
  await tally.suite('conformance', async () => {
    const conformance = runConformance({ node: e2eEnv().NODE24, outDir: path.join(results, 'conformance'), log: (line) => void (line.includes('FAILED') && say(line)) });
    tally.add('conformance', conformance.passed.length, conformance.failed.map((f) => `${f.scenario}: ${f.why}`));
    say(`conformance: ${conformance.passed.length} passed, ${conformance.expected.length} expected failures (test/conformance/expected-failures.json), ${conformance.failed.length} failed`);
  });
  say('MCP conformance suite: server scenarios against the gateway (serve --http), both requirement sets, one at a time');
  await tally.suite('conformance (server)', async () => {
    const conformance = await runServerConformance({ node: e2eEnv().NODE24, outDir: path.join(results, 'conformance-server'), log: (line) => void (line.includes('FAILED') && say(line)) });
    tally.add('conformance (server)', conformance.passed.length, conformance.failed.map((f) => `${f.scenario}: ${f.why}`));
    say(`conformance (server): ${conformance.passed.length} passed, ${conformance.expected.length} expected failures (test/conformance/expected-failures.json), ${conformance.failed.length} failed`);
  });
  if (!packaged) return;

  // 2. With the test-only language model for @mcp (test/fakelm; the proposed API makes it the
  //    Chat view's default model). Its own instance: a chat model turns on VS Code's AI features.
  //    The gateway UI tests run here too: fakelm's command calls language-model tools.
  const fakeLm = path.join(results, 'fakelm.vsix');
  const fakeLmPacked = spawnSync(path.join(root, 'node_modules/.bin/vsce'), ['package', '--allow-missing-repository', '--no-dependencies', '--skip-license', '-o', fakeLm], { cwd: path.join(root, 'test/fakelm'), stdio: ['ignore', 'ignore', 'inherit'] }).status === 0;
  tally.step('package the test language model .vsix (test/fakelm)', fakeLmPacked);
  if (fakeLmPacked) {
    const [chatVsix, chatArgs] = [[ours(), fakeLm], ['--enable-proposed-api', 'mcp-tool-host-tests.fakelm']];
    await instance('code-server-chat', chatVsix, chatArgs, async (cs, runDir) => {
      await runHost(cs, runDir, 'chat', hostFiles(true));
      const chat = suiteIn(cs, { runDir, shotsDir, root, log: say }, 'code-server-chat', chatVsix, chatArgs);
      await chat('@mcp chat UI tests', runChatUiTests);
      await chat('@mcp prompts UI tests', runChatPromptsUiTests);
      await chat('result budget UI tests', runBudgetUiTests);
      // The gateway's tools called as agent mode calls them, through the test model's "Invoke Tool..." command.
      await chat('gateway UI tests', runGatewayUiTests);
    });
  }

  // 3. With workspace trust on (the others run without it): a folder not trusted yet, then trusted.
  await instance('code-server-trust', [ours()], [], async (cs, runDir) => {
    await suiteIn(cs, { runDir, shotsDir, root, log: say }, 'code-server-trust', [ours()], [], { workspaceTrust: true })('workspace trust UI tests', runTrustUiTests);
  }, { workspaceTrust: true });

  // 3b. Under an administrator's policy (its own code-server: the host reads the policy file's path at start).
  const admin = () => runAdminUiTests(undefined, { shotsDir, root, log: say });
  await ui('administrator UI tests', admin, admin);

  // 4. `npm start` itself, run twice on a profile of its own: the demo is served, and what the
  //    user did in the first session is still there in the second.
  const npmStart = async () => {
    const startDir = shortTempDir('mth-start-');
    try {
      return await runStartUiTests({ runDir: startDir, shotsDir, root, log: say });
    } finally {
      keepLog(path.join(startDir, 'profile', 'server.log'), 'npm-start-server.log');
      fs.rmSync(startDir, { recursive: true, force: true });
    }
  };
  await ui('npm start UI tests', npmStart, npmStart);

  // 5. The last of the product's UI suites, in a product instance of their own (each suite stands
  //    alone): here they even out the two lanes' times.
  await instance('code-server-2', [ours()], [], async (cs, runDir) => {
    const lastSuites = suiteIn(cs, { runDir, shotsDir, root, log: say }, 'code-server-2', [ours()], []);
    await lastSuites('telemetry settings UI tests', runTelemetryUiTests);
    await lastSuites('dev mode UI tests', runDevModeUiTests);
  });
}

/**
 * Runs a command that must end, marked so that everything it starts can be found: after `limitMs`
 * every process of the run is killed, so a test that hangs fails its layer instead of holding
 * `npm test` forever (a hung CLI test once did). Resolves with what the run left running when it
 * ended (settled for up to 5 s; killed, so the next layer starts clean).
 * @param {string} command
 * @param {string[]} args
 * @param {number} limitMs
 * @param {{ env?: Record<string, string>, stdio?: import('node:child_process').StdioOptions }} [options] added to the environment; stdio (inherited by default)
 * @returns {Promise<{ status: number | null, timedOut: boolean, leftovers: string[] }>}
 */
async function runBounded(command, args, limitMs, { env = {}, stdio = 'inherit' } = {}) {
  const run = `run-${randomUUID()}`;
  const child = spawn(command, args, { stdio, env: { ...process.env, ...env, [RUN_MARKER]: run } });
  const killAll = () => {
    for (const row of processesOfRun(run)) {
      try { process.kill(Number(row.split(' ', 1)[0]), 'SIGKILL'); } catch { /* gone */ }
    }
  };
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killAll();
  }, limitMs);
  /** @type {number | null} */
  const status = await new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  clearTimeout(timer);
  const leftovers = await settled(() => processesOfRun(run));
  killAll();
  return { status, timedOut, leftovers };
}

/**
 * One isolated code-server with the given .vsix files, in a short temp folder of its own; stopped
 * after `body`, checked for leftovers, its log kept in test-results/, its folder removed. A start
 * that fails is one failure; the suites it would have run do not run.
 * @param {string} name
 * @param {string[]} vsix
 * @param {string[]} extraArgs
 * @param {(cs: import('./e2e/codeServer.mjs').CodeServer, runDir: string) => Promise<void>} body
 * @param {{ workspaceTrust?: boolean }} [options] workspace trust on (off by default, see codeServer.mjs)
 */
async function instance(name, vsix, extraArgs, body, { workspaceTrust = false } = {}) {
  const runDir = shortTempDir('mth-cs-');
  say(`${name}: run folder ${runDir}`);
  try {
    const cs = await tally.suite(`${name} start`, async () => {
      prepare(runDir, { vsix, workspaceTrust });
      return start(runDir, { workspaceTrust, extraArgs: ['--vscode-option', 'enable-smoke-test-driver', ...extraArgs] });
    });
    if (!cs) return;
    try {
      await body(cs, runDir);
    } finally {
      await cs.stop();
    }
    const leftovers = await settled(() => processesOfRun(runDir));
    tally.step(`no process left behind after code-server (${name}) stopped`, leftovers.length === 0, leftovers.join('\n'));
  } finally {
    keepLog(path.join(runDir, 'server.log'), `${name}-server.log`);
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}


/**
 * Copies a log out of a temp folder into test-results/ before the folder goes.
 * @param {string} file
 * @param {string} name
 */
function keepLog(file, name) {
  if (fs.existsSync(file)) fs.copyFileSync(file, path.join(results, name));
}
