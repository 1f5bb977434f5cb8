// `npm test` where users clone (issue 30): the runner's summary survives a crashed suite, its
// sockets and browser profiles get short paths whatever the checkout's, and it counts only the
// processes it started.
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(__dirname, '../../..');
const TALLY = pathToFileURL(path.join(ROOT, 'scripts/testTally.mjs')).href;
const CODE_SERVER = pathToFileURL(path.join(ROOT, 'scripts/e2e/codeServer.mjs')).href;
const MOCHA_PARTS = pathToFileURL(path.join(ROOT, 'scripts/mochaParts.mjs')).href;
const SUMMARY = /^\d+ passed, \d+ failed$/;

interface Tally {
  step(name: string, ok: boolean, why?: string): void;
  add(label: string, passed: number, failed: readonly string[]): void;
  suite<T>(label: string, run: () => Promise<T>): Promise<T | undefined>;
  finish(): number;
  failed(): number;
  counts(): { passed: number; failures: string[] };
  merge(counts: { passed: number; failures: string[] }): void;
}
interface UiResults {
  passed: number;
  failed: string[];
}
interface TallyModule {
  createTally(say: (line: string) => void, print?: (line: string) => void): Tally;
  runAgainIfFailed(run: () => Promise<UiResults>, again: (() => Promise<UiResults | undefined>) | undefined, flaky: (line: string) => void): Promise<UiResults>;
}
interface MochaPartsModule {
  specFiles(spec: string[], root: string): string[];
  dealFiles(files: string[], n: number, weights?: Record<string, number>): string[][];
}
interface CodeServerModule {
  shortTempDir(prefix: string): string;
  processesOfRun(runDir: string, match?: RegExp): string[];
  RUN_MARKER: string;
}

describe('npm test\'s runner: a crashed suite is a failure, and the summary line is always last', () => {
  it('a suite that throws counts as one failure with its reason; the suites after it still run', async () => {
    const { createTally } = (await import(TALLY)) as TallyModule;
    const printed: string[] = [];
    const tally = createTally(() => undefined, (line) => printed.push(line));
    tally.step('typecheck', true);
    const crashed = await tally.suite('UI tests', async () => {
      throw new Error('browserType.launchPersistentContext: Failed to launch chromium\nFATAL: Socket path too long');
    });
    assert.equal(crashed, undefined);
    let ranAfter = false;
    await tally.suite('Tools view UI tests', async () => {
      ranAfter = true;
      tally.add('Tools view UI tests', 3, ['hover: no tooltip']);
    });
    assert.ok(ranAfter, 'a crash stopped the next suite');
    assert.equal(tally.finish(), 1);
    assert.equal(printed.at(-1), '4 passed, 2 failed');
    assert.match(printed[0], /UI tests: crashed: browserType\.launchPersistentContext: Failed to launch chromium$/m);
    assert.match(printed[0], /Tools view UI tests: hover: no tooltip/);
    tally.finish();
    assert.equal(printed.length, 2, 'a second finish printed again');
  });

  it('a run with no failure exits 0 and says so', async () => {
    const { createTally } = (await import(TALLY)) as TallyModule;
    const printed: string[] = [];
    const tally = createTally(() => undefined, (line) => printed.push(line));
    tally.add('unit', 5, []);
    assert.equal(tally.finish(), 0);
    assert.deepEqual(printed, ['5 passed, 0 failed']);
  });

  it('a lane\'s counts (the e2e layer\'s second process) add to the runner\'s: its passes, and each failure as the lane named it', async () => {
    const { createTally } = (await import(TALLY)) as TallyModule;
    const lane = createTally(() => undefined, () => undefined);
    lane.add('conformance', 69, []);
    await lane.suite('gateway UI tests', async () => {
      throw new Error('page.goto: net::ERR_CONNECTION_REFUSED');
    });
    const counts = JSON.parse(JSON.stringify(lane.counts())) as { passed: number; failures: string[] };
    const printed: string[] = [];
    const tally = createTally(() => undefined, (line) => printed.push(line));
    tally.step('package .vsix', true);
    tally.merge(counts);
    assert.equal(tally.finish(), 1);
    assert.equal(printed.at(-1), '70 passed, 1 failed');
    assert.match(printed[0], /^ {2}gateway UI tests: crashed: page\.goto: net::ERR_CONNECTION_REFUSED$/m);
  });

  it('the runner ends with the summary line when it crashes itself (run from a folder with a space)', () => {
    // The crash guard test-all.mjs installs, in a script at a path like a user's.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'My Projects '));
    try {
      const driver = path.join(dir, 'runner.mjs');
      fs.writeFileSync(driver, `
        import { createTally, finishOnCrash } from ${JSON.stringify(TALLY)};
        const tally = createTally(console.log);
        finishOnCrash(tally, () => process.exit(tally.finish()));
        tally.step('lint', true);
        setTimeout(() => { throw new Error('code-server did not start; see server.log'); }, 10);
        setTimeout(() => console.log('never: the crash ends the run first'), 2000);
      `);
      const run = spawnSync(process.execPath, [driver], { encoding: 'utf8', timeout: 20_000 });
      const lines = run.stdout.trim().split('\n');
      assert.equal(run.status, 1, run.stderr);
      assert.match(lines.at(-1) ?? '', SUMMARY);
      assert.equal(lines.at(-1), '1 passed, 1 failed');
      assert.match(run.stdout, /the test runner itself: crashed \(uncaughtException\): code-server did not start/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('npm test\'s UI suites: one with a failed check runs once more, and only its second run counts', () => {
  const runs = (...results: (UiResults | undefined)[]) => {
    let n = 0;
    return { next: async () => results[n++], count: () => n };
  };
  it('a check that fails once and passes on the second run: the second run counts, the first is reported as flaky', async () => {
    const { runAgainIfFailed } = (await import(TALLY)) as TallyModule;
    const flaky: string[] = [];
    const suite = runs({ passed: 4, failed: ['the row says running: Timeout 60000ms exceeded'] }, { passed: 5, failed: [] });
    const r = await runAgainIfFailed(async () => (await suite.next())!, suite.next, (line) => flaky.push(line));
    assert.deepEqual(r, { passed: 5, failed: [] });
    assert.equal(suite.count(), 2);
    assert.deepEqual(flaky, ['passed on its second run; first run: the row says running: Timeout 60000ms exceeded']);
  });
  it('a check that fails twice fails: the second run\'s failures count', async () => {
    const { runAgainIfFailed } = (await import(TALLY)) as TallyModule;
    const flaky: string[] = [];
    const suite = runs({ passed: 4, failed: ['a'] }, { passed: 3, failed: ['a', 'b'] });
    const r = await runAgainIfFailed(async () => (await suite.next())!, suite.next, (line) => flaky.push(line));
    assert.deepEqual(r, { passed: 3, failed: ['a', 'b'] });
    assert.deepEqual(flaky, ['failed twice; first run: a']);
  });
  it('a suite that passes runs once; one that cannot run again (its instance did not start) keeps its first failures', async () => {
    const { runAgainIfFailed } = (await import(TALLY)) as TallyModule;
    const flaky: string[] = [];
    const green = runs({ passed: 5, failed: [] }, { passed: 0, failed: ['must not run'] });
    assert.deepEqual(await runAgainIfFailed(async () => (await green.next())!, green.next, (line) => flaky.push(line)), { passed: 5, failed: [] });
    assert.equal(green.count(), 1);
    const noInstance = runs({ passed: 4, failed: ['a'] }, undefined);
    assert.deepEqual(await runAgainIfFailed(async () => (await noInstance.next())!, noInstance.next, (line) => flaky.push(line)), { passed: 4, failed: ['a'] });
    assert.deepEqual(await runAgainIfFailed(async () => ({ passed: 1, failed: ['b'] }), undefined, (line) => flaky.push(line)), { passed: 1, failed: ['b'] });
    assert.deepEqual(flaky, []);
  });
});

describe('npm test\'s plain-Node layer in parts: every test file runs, once', () => {
  it('the parts together hold every file the mocha config names, each in one part', async () => {
    const { specFiles, dealFiles } = (await import(MOCHA_PARTS)) as MochaPartsModule;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-parts-'));
    try {
      const made = ['out/test/unit/a.test.js', 'out/test/unit/deep/b.test.js', 'out/test/integration/c.test.js', 'out/test/integration/d.test.js', 'out/test/integration/e.test.js'];
      for (const f of [...made, 'out/test/unit/helpers.js', 'out/test/unit/a.test.js.map']) {
        fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
        fs.writeFileSync(path.join(dir, f), '');
      }
      const files = specFiles(['out/test/unit/**/*.test.js', 'out/test/integration/**/*.test.js', 'out/test/none/**/*.test.js'], dir);
      assert.deepEqual(files, made);
      const parts = dealFiles(files, 2);
      assert.deepEqual(parts.flat().sort(), [...made].sort());
      assert.ok(parts.every((p) => p.length >= 2), JSON.stringify(parts));
      assert.throws(() => specFiles(['out/test/*.test.js'], dir), /not of the form folder\/\*\*\/\*\.suffix/);
      // Balanced by earlier seconds: the long file alone; a file with no weight yet still runs.
      const weighted = dealFiles(files, 2, { [made[2]]: 100, [made[0]]: 20, [made[1]]: 20, [made[3]]: 20 });
      assert.deepEqual(weighted, [[made[2]], [made[0], made[1], made[3], made[4]]]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the parts hold every file mocha itself runs with .mocharc.json', async function () {
    this.timeout(60_000);
    const { specFiles } = (await import(MOCHA_PARTS)) as MochaPartsModule;
    const config = JSON.parse(fs.readFileSync(path.join(ROOT, '.mocharc.json'), 'utf8')) as { spec: string[] };
    // Loading a file runs its describe bodies, and some make their temp folders there: in a temp folder of this test's.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mth-dry-run-'));
    const dry = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/mocha/bin/mocha.js'), '--config', '.mocharc.json', '--dry-run', '--reporter', 'json'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20, env: { ...process.env, TMPDIR: tmp } });
    fs.rmSync(tmp, { recursive: true, force: true });
    const found = new Set((JSON.parse(dry.stdout) as { tests: { file: string }[] }).tests.map((t) => path.relative(ROOT, t.file).split(path.sep).join('/')));
    const ours = specFiles(config.spec, ROOT);
    assert.ok(found.size > 100, `mocha's dry run found ${found.size} files: ${dry.stderr.slice(0, 300)}`);
    assert.deepEqual([...found].filter((f) => !ours.includes(f)), [], 'files mocha runs that no part holds');
  });
});

describe('the e2e helpers keep sockets short and count only their own processes', () => {
  it('shortTempDir stays short when the system temp folder is itself long', async () => {
    const { shortTempDir } = (await import(CODE_SERVER)) as CodeServerModule;
    const long = fs.mkdtempSync(path.join(os.tmpdir(), `${'a-long-temp-folder-'.repeat(4)}`));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = long;
    let made = '';
    try {
      made = shortTempDir('mth-chrome-');
      // Chromium puts org.chromium.Chromium.XXXXXX/SingletonSocket (48 bytes) under it; the limit is 107.
      assert.ok(made.length + 48 <= 107, `${made} leaves no room for a socket`);
      assert.equal(fs.statSync(made).mode & 0o777, 0o700, 'a temp folder of ours is private');
    } finally {
      process.env.TMPDIR = saved;
      if (saved === undefined) delete process.env.TMPDIR;
      fs.rmSync(long, { recursive: true, force: true });
      if (made) fs.rmSync(made, { recursive: true, force: true });
    }
  });

  it('processesOfRun finds a process by its run marker, not another run\'s with the same command line', async function () {
    if (process.platform !== 'linux') this.skip(); // reads /proc
    const { processesOfRun, RUN_MARKER } = (await import(CODE_SERVER)) as CodeServerModule;
    const ours = '/tmp/mth-cs-ours';
    const theirs = '/tmp/mth-cs-theirs';
    // Two "demo servers" with the same command line, as two checkouts' `npm start` would have.
    const script = 'setTimeout(() => {}, 30000) // demo-server.js';
    const start = (run: string) => spawn(process.execPath, ['-e', script], { env: { ...process.env, [RUN_MARKER]: run }, stdio: 'ignore' });
    const a = start(ours);
    const b = start(theirs);
    try {
      await new Promise((r) => setTimeout(r, 300));
      const found = processesOfRun(ours, /demo-server\.js/);
      assert.deepEqual(found.map((l) => Number(l.split(' ')[0])), [a.pid]);
      assert.deepEqual(processesOfRun('/tmp/mth-cs-nobody', /demo-server\.js/), []);
    } finally {
      a.kill();
      b.kill();
    }
  });
});
