// UI test of `npm start` as a user meets it (issues 11, 32): the command serves the demo and shows the
// extension's Tools view and walkthrough on the first start only, the user adds
// a server with "MCP Tool Host: Add Server..." and edits settings by hand, stops it with Ctrl+C, starts it
// again, and finds everything as they left it. Runs scripts/start.mjs itself, on its own port and
// profile. Screenshots go to shotsDir as start-NN-name.png.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { applyEdits, modify, parse } from 'jsonc-parser';
import { e2eEnv, freePort, launchBrowser, processesOfRun } from '../../scripts/e2e/codeServer.mjs';
import { workbenchPage } from './workbenchPage.mjs';

const SERVERS_KEY = 'mcpToolHost.servers';
const STARTUP_MS = 300_000; // packages the .vsix and checks the e2e setup first

/**
 * Runs `node scripts/start.mjs` until it prints the URL; stop() is the user's Ctrl+C.
 * @param {string} root
 * @param {string} profile
 * @param {number} port
 * @param {(line: string) => void} log
 */
async function npmStart(root, profile, port, log) {
  const child = spawn(process.execPath, ['scripts/start.mjs', '--port', String(port), '--profile', profile, '--workspace', path.join(path.dirname(profile), 'workspace')], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  /** @type {Promise<number | string | null>} */
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal)));
  /** @type {string} */
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no URL in ${STARTUP_MS / 1000} s:\n${out.slice(-1500)}`)), STARTUP_MS);
    const onData = (/** @type {Buffer} */ chunk) => {
      out += chunk;
      const m = /^\s+(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`npm start exited (${code}) before printing a URL:\n${out.slice(-1500)}`)); });
  });
  log(`npm start serves ${url}`);
  const stop = async () => {
    child.kill('SIGINT');
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running after 20 s'), 20_000))]);
    if (code !== 0) {
      child.kill('SIGKILL');
      throw new Error(`npm start did not stop cleanly on Ctrl+C: ${code}`);
    }
  };
  return { url, stop };
}

const readJsonc = (/** @type {string} */ file) => parse(fs.readFileSync(file, 'utf8'), [], { allowTrailingComma: true });
/**
 * @param {string} file
 * @param {import('jsonc-parser').JSONPath} jsonPath
 * @param {unknown} value
 */
const editJsonc = (file, jsonPath, value) => {
  const text = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, applyEdits(text, modify(text, jsonPath, value, { formattingOptions: { insertSpaces: true, tabSize: 2 } })));
};

/**
 * @param {import('./workbenchPage.mjs').UiSuiteOptions} options
 * @returns {Promise<import('./workbenchPage.mjs').UiResults>}
 */
export async function runStartUiTests({ runDir, shotsDir, root, log = console.log }) {
  const { NODE24 } = e2eEnv();
  const profile = path.join(runDir, 'profile');
  fs.rmSync(runDir, { recursive: true, force: true });
  fs.mkdirSync(runDir, { recursive: true });
  const port = await freePort();
  const userSettings = path.join(profile, 'ud/User/settings.json');
  // The server the user adds runs the demo server as installed in the profile, so that a process
  // left behind would name the profile.
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const demo = path.join(profile, 'ext', `${pkg.publisher}.${pkg.name}-${pkg.version}`, 'dist', 'demo-server.js');

  const browser = await launchBrowser();
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const ui = workbenchPage(page, { shotsDir, prefix: 'start', log });
  const { shot, check, openWorkbench, row, openView, addStdioServer, viewTitle, runCommand } = ui;
  const walkthroughTab = page.locator('.part.editor .gettingStartedSlideDetails', { hasText: 'Get Started with MCP Tool Host' }).filter({ visible: true }).first();
  const configureTick = page.locator('.getting-started-step', { hasText: 'Configure a server' }).first().locator('.codicon.complete');
  const running = (/** @type {string} */ server) => page.getByRole('treeitem', { name: new RegExp(`^${server}`) }).filter({ hasText: '9 tools · v0.1.0' }).first();
  /** @type {Awaited<ReturnType<typeof npmStart>> | undefined} */
  let session;
  try {
    await check('the first `npm start` shows the extension: its Tools view and walkthrough open, "Configure a server" ticked', async () => {
      session = await npmStart(root, profile, port, log);
      await openWorkbench(session.url);
      // Nothing clicked: the extension opens its side bar and walkthrough by itself on the first start.
      await viewTitle.waitFor({ timeout: 60_000 });
      await row(/^demo/).waitFor({ timeout: 60_000 });
      await walkthroughTab.waitFor({ timeout: 30_000 });
      await configureTick.waitFor({ timeout: 15_000 }).catch(() => undefined);
      await shot('first-start-walkthrough');
      if (!(await configureTick.isVisible())) throw new Error('the walkthrough\'s "Configure a server" step is not ticked with the demo server configured');
      // Read and closed, as a user does: a walkthrough open at the second start would be one opened again.
      await runCommand('View: Close All Editors');
      await walkthroughTab.waitFor({ state: 'hidden', timeout: 10_000 });
    });

    await check('the first `npm start` serves VS Code with the demo server running', async () => {
      await openView();
      // Running, with its tools listed, and no launch prompt in the way (a user's server).
      await running('demo').waitFor({ timeout: 60_000 });
      await page.getByRole('treeitem', { name: /Read Note/ }).first().waitFor({ timeout: 60_000 });
      if (await ui.quickInput.isVisible()) throw new Error(`a prompt is open: ${await ui.quickInput.innerText()}`);
      await shot('first-start-demo');
    });

    await check('the user adds a server with Add Server... and changes settings by hand', async () => {
      await addStdioServer(`${NODE24} "${demo}"`, 'my-notes');
      await row(/^my-notes/).waitFor({ timeout: 30_000 });
      if (readJsonc(userSettings)?.[SERVERS_KEY]?.['my-notes']?.command !== NODE24) throw new Error('Add Server did not write the user settings');
      editJsonc(userSettings, ['editor.fontSize'], 15);
      editJsonc(userSettings, [SERVERS_KEY, 'demo', 'timeoutSeconds'], 120);
      // As after an update of the extension: the entry names the demo server of an older version.
      editJsonc(userSettings, [SERVERS_KEY, 'demo', 'args'], [demo.replace(`-${pkg.version}`, '-0.0.1')]);
      await shot('server-added');
    });

    await check('Ctrl+C stops npm start and every process it started', async () => {
      await page.goto('about:blank');
      if (!session) throw new Error('npm start is not running (the first check failed)');
      await session.stop();
      session = undefined;
      const left = await processesUnder(profile);
      if (left.length) throw new Error(`still running:\n${left.join('\n')}`);
      // Its sockets were in a short temp folder of its own (never under the profile): gone with it.
      const log = fs.readFileSync(path.join(profile, 'server.log'), 'utf8');
      const socket = [...log.matchAll(/Session server listening on (\S+)/g)].at(-1)?.[1];
      if (!socket || !path.basename(path.dirname(socket)).startsWith('mth-tmp-') || socket.startsWith(profile) || socket.length > 107) throw new Error(`code-server's session socket was not in a temp folder of its own: ${socket}`);
      if (fs.existsSync(path.dirname(socket))) throw new Error(`its temp folder is still there: ${path.dirname(socket)}`);
    });

    await check('a second `npm start` keeps the added server and the changed settings', async () => {
      session = await npmStart(root, profile, port, log);
      const user = readJsonc(userSettings);
      if (user?.[SERVERS_KEY]?.['my-notes']?.command !== NODE24) throw new Error(`the added server is gone: ${JSON.stringify(user)}`);
      if (user['editor.fontSize'] !== 15) throw new Error(`the changed setting is gone: ${JSON.stringify(user)}`);
      const demoEntry = user[SERVERS_KEY].demo;
      if (demoEntry?.timeoutSeconds !== 120) throw new Error(`the demo server's changed timeout is gone: ${JSON.stringify(demoEntry)}`);
      if (demoEntry.args?.[0] !== demo) throw new Error(`the demo entry does not run the installed demo server: ${JSON.stringify(demoEntry)}`);
      await openWorkbench(session.url);
      await openView();
      await running('my-notes').waitFor({ timeout: 60_000 });
      await running('demo').waitFor({ timeout: 60_000 });
      await shot('second-start-both-servers');
      // Shown once: the second start does not open the walkthrough again.
      await page.waitForTimeout(3_000);
      if (await walkthroughTab.isVisible()) throw new Error('the second start opened the walkthrough again');
    });
  } finally {
    await browser.close();
    await session?.stop().catch((err) => log(`stopping npm start: ${err}`));
  }
  return ui.results;
}

/**
 * The processes this `npm start` started (code-server, its extension host, servers): they carry the
 * profile as their run marker, or name it on their command line.
 * @param {string} profile
 */
async function processesUnder(profile) {
  for (let i = 0; ; i++) {
    const left = processesOfRun(profile);
    if (left.length === 0 || i >= 50) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}
