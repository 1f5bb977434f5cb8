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
const SUMMARY = /^\d+ passed, \d+ failed$/;

interface Tally {
  step(name: string, ok: boolean, why?: string): void;
  add(label: string, passed: number, failed: readonly string[]): void;
  suite<T>(label: string, run: () => Promise<T>): Promise<T | undefined>;
  finish(): number;
  failed(): number;
}
interface TallyModule {
  createTally(say: (line: string) => void, print?: (line: string) => void): Tally;
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
