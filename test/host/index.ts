// Entry point the extension host loads through extensionTestsPath: the run() contract of
// @vscode/test-electron, used unchanged by code-server and by desktop VS Code.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const results = { passes: [] as string[], failures: [] as { title: string; error: string }[], retried: [] as { title: string; error: string }[] };
  // A test that fails runs once more (its hooks too), and only its second run counts: the suite
  // shares 2 cores with a second lane, and a wait can miss its bound by chance. Each retry is
  // printed and handed to the runner (`retried`), which reports it as FLAKY.
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, retries: 1 });
  // The workbench forwards console lines unformatted: print plain lines, and write a JSON file
  // the runner reads for the summary.
  class PlainReporter extends Mocha.reporters.Base {
    constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
      super(runner, options);
      runner.on('pass', (t) => {
      results.passes.push(t.fullTitle());
      console.log(`  PASS ${t.fullTitle()} (${t.duration}ms)`);
    });
      runner.on('fail', (t, err: Error) => {
      results.failures.push({ title: t.fullTitle(), error: String(err?.message) });
      console.log(`  FAIL ${t.fullTitle()}: ${err?.message}`);
    });
      runner.on('retry', (t: Mocha.Test, err: Error) => {
      results.retried.push({ title: t.fullTitle(), error: String(err?.message) });
      console.log(`  RETRY ${t.fullTitle()}: ${err?.message}`);
    });
      // A test that failed and then skipped itself on its second run checked nothing again: it failed.
      runner.on('pending', (t: Mocha.Test) => {
      const first = results.retried.find((r) => r.title === t.fullTitle());
      if (!first) return;
      const error = `failed, and its second run skipped itself, so nothing was checked again: ${first.error}`;
      results.failures.push({ title: t.fullTitle(), error });
      console.log(`  FAIL ${t.fullTitle()}: ${error}`);
    });
      runner.once('end', () => {
      console.log(`MOCHA_DONE passes=${results.passes.length} failures=${results.failures.length}`);
      const out = process.env.HOST_TEST_RESULTS;
      if (out) fs.writeFileSync(out, JSON.stringify(results, null, 2));
    });
    }
  }
  mocha.reporter(PlainReporter);
  // HOST_TEST_FILES (comma-separated file names) runs only those, e.g. the bench's activation.test.js.
  const only = process.env.HOST_TEST_FILES?.split(',').filter(Boolean);
  for (const f of fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js') && (!only || only.includes(f)))) mocha.addFile(path.join(__dirname, f));
  return new Promise((resolve, reject) => {
    mocha.run((failures) => {
      const failed = Math.max(failures, results.failures.length);
      if (failed > 0) reject(new Error(`${failed} tests failed.`));
      else resolve();
    });
  });
}
