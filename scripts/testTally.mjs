// The count behind `npm test`'s last line, "N passed, N failed": every layer adds to it, a suite
// that throws counts as one failure with its reason while the others still run, and the runner
// itself crashing still ends with the line (issue 30: a UI suite whose browser could not start used
// to end the run with no summary at all).

/**
 * The first line of what was thrown, for a one-line reason.
 * @param {unknown} err
 */
export function reasonOf(err) {
  const text = err instanceof Error ? err.message || err.name : String(err);
  return text.split('\n').find((line) => line.trim()) ?? text;
}

/**
 * @typedef {object} Tally
 * @property {(name: string, ok: boolean, why?: string) => void} step counts one check that is not a single test (a build, a lint)
 * @property {(label: string, passed: number, failed: readonly string[]) => void} add counts a suite's results; each failure is named under `label`
 * @property {<T>(label: string, run: () => Promise<T>) => Promise<T | undefined>} suite runs a suite; a throw is one failure, `label: crashed: reason`
 * @property {() => number} finish prints the failures and then, last, the summary line (once); returns the exit code
 * @property {() => number} failed how many failed so far
 * @property {() => { passed: number, failures: string[] }} counts what was counted so far (a lane's, for the runner that started it)
 * @property {(counts: { passed: number, failures: string[] }) => void} merge adds another tally's counts (a lane's), each failure as it was named there
 */

/**
 * @param {(line: string) => void} say the runner's log
 * @param {(line: string) => void} [print] where the failures and the summary line go
 * @returns {Tally}
 */
export function createTally(say, print = console.log) {
  let passed = 0;
  /** @type {string[]} */
  const failures = [];
  let finished = false;
  const fail = (/** @type {string} */ name) => {
    failures.push(name);
    say(`FAILED: ${name}`);
  };
  return {
    step(name, ok, why) {
      if (ok) {
        passed++;
        say(`ok: ${name}`);
      } else fail(why ? `${name}: ${why}` : name);
    },
    add(label, ok, failed) {
      passed += ok;
      for (const f of failed) failures.push(`${label}: ${f}`);
    },
    async suite(label, run) {
      try {
        return await run();
      } catch (err) {
        fail(`${label}: crashed: ${reasonOf(err)}`);
        return undefined;
      }
    },
    finish() {
      if (!finished) {
        if (failures.length) print(`failures:\n  ${failures.join('\n  ')}`);
        print(`${passed} passed, ${failures.length} failed`);
      }
      finished = true;
      return failures.length === 0 ? 0 : 1;
    },
    failed: () => failures.length,
    counts: () => ({ passed, failures: [...failures] }),
    merge(counts) {
      passed += counts.passed;
      failures.push(...counts.failures);
    },
  };
}

/**
 * A UI suite's results, run once more (`again`, a fresh instance) when a check failed: the second
 * run's results are the ones that count, so a check that fails twice fails. `flaky` hears of each
 * first run that failed, with how the second ended (not called when `again` could not run at all:
 * then the first run's results stand).
 * @template {{ passed: number, failed: string[] }} R
 * @param {() => Promise<R>} run
 * @param {(() => Promise<R | undefined>) | undefined} again
 * @param {(line: string) => void} flaky
 * @returns {Promise<R>}
 */
export async function runAgainIfFailed(run, again, flaky) {
  const first = await run();
  if (first.failed.length === 0 || !again) return first;
  const second = await again();
  if (!second) return first;
  flaky(`${second.failed.length === 0 ? 'passed on its second run' : 'failed twice'}; first run: ${first.failed.join(' | ')}`);
  return second;
}

/**
 * Whatever escapes a suite (a rejected promise nobody awaited, a throw in a callback) still ends the
 * run with the summary line: it counts as one failure of the runner, then `finish` runs.
 * @param {Tally} tally
 * @param {() => void} finish prints the summary and exits
 */
export function finishOnCrash(tally, finish) {
  for (const event of ['uncaughtException', 'unhandledRejection']) {
    process.on(event, (err) => {
      tally.step('the test runner itself', false, `crashed (${event}): ${reasonOf(err)}`);
      console.error(err);
      finish();
    });
  }
}
