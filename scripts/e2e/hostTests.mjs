// Runs the mocha suite of test/host inside code-server's real Node extension host, the way
// @vscode/test-electron does on desktop: the workbench opens with a `payload` naming
// extensionDevelopmentPath and extensionTestsPath, and reports the end through
// window.codeAutomationExit (needs code-server's --vscode-option enable-smoke-test-driver).
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser } from './codeServer.mjs';

/** @typedef {{ passes: string[], failures: { title: string, error: string }[], retried?: { title: string, error: string }[] }} HostResults what test/host/index.ts writes (retried: tests that failed once, then ran again) */

/**
 * @param {import('./codeServer.mjs').CodeServer} cs
 * @param {{ devPath: string, testsPath: string, folder: string, resultsFile: string, shotsDir: string, shotName?: string, timeoutMs?: number, log?: (line: string) => void, env?: Record<string, string> }} options
 *   `shotName`: the screenshot of the window as the suite ended (two instances' suites may run at once)
 * @returns {Promise<HostResults>}
 */
// The bound is for a suite that hangs, not a speed goal: the product suite's tests alone take ~3-4 min
// on a busy 2-core machine (one CI run ended it at 240 s, in its last test, with every test before it passed).
export async function runHostTests(cs, { devPath, testsPath, folder, resultsFile, shotsDir, shotName = 'host-tests-final.png', timeoutMs = 600_000, log = console.log, env = {} }) {
  const host = `127.0.0.1:${cs.port}`;
  // Each segment percent-encoded: a checkout under "My Projects" is a path with a space (issue 30).
  const remote = (/** @type {string} */ p) => `vscode-remote://${host}${p.split('/').map(encodeURIComponent).join('/')}`;
  const payload = [
    ['extensionDevelopmentPath', remote(devPath)],
    ['extensionTestsPath', remote(testsPath)],
    ['extensionEnvironment', JSON.stringify({ ...env, HOST_TEST_RESULTS: resultsFile })],
  ];
  fs.rmSync(resultsFile, { force: true });
  const browser = await launchBrowser();
  try {
    const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
    /** @type {(code: number) => void} */
    let done = () => undefined;
    /** @type {Promise<number | 'timeout'>} */
    const exited = new Promise((r) => (done = r));
    await page.exposeFunction('codeAutomationLog', (/** @type {string} */ _type, /** @type {unknown} */ msg) => {
      const text = (Array.isArray(msg) ? msg.join(' ') : String(msg)).split('\n')[0];
      if (/PASS|FAIL|RETRY|MOCHA_DONE|Error/.test(text) && !/ENOTFOUND|open-vsx|marketplace/.test(text)) log(`[host] ${text}`);
    });
    await page.exposeFunction('codeAutomationExit', (/** @type {number} */ code) => done(code));
    await page.goto(cs.url(folder, `&payload=${encodeURIComponent(JSON.stringify(payload))}`));
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), timeoutMs))]);
    await page.screenshot({ path: path.join(shotsDir, shotName) }).catch(() => undefined);
    if (code === 'timeout') log('[host] the extension-host suite timed out');
  } finally {
    await browser.close();
  }
  if (!fs.existsSync(resultsFile)) return { passes: [], failures: [{ title: 'extension-host suite', error: 'no results were written (the suite did not run or did not finish)' }] };
  return JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
}
