// UI test of a newcomer's walkthrough: "Configure a server" is ticked when a server is configured,
// also when the servers were there before the walkthrough was first opened in the window (VS Code
// counts a context key only when it changes after the walkthrough is registered, which is when a
// Welcome or walkthrough page first opens). Screenshots go to shotsDir as first-NN-name.png.
import fs from 'node:fs';
import path from 'node:path';
import { e2eEnv, launchBrowser } from '../../scripts/e2e/codeServer.mjs';
import { workbenchPage } from './workbenchPage.mjs';

const SERVERS_KEY = 'mcpToolHost.servers';

/**
 * @param {import('../../scripts/e2e/codeServer.mjs').CodeServer} cs
 * @param {import('./workbenchPage.mjs').UiSuiteOptions} options
 * @returns {Promise<import('./workbenchPage.mjs').UiResults>}
 */
export async function runFirstStartUiTests(cs, { runDir, shotsDir, root, log = console.log }) {
  const { NODE24 } = e2eEnv();
  const ws = path.join(runDir, 'first-start-ws');
  fs.rmSync(ws, { recursive: true, force: true });
  fs.mkdirSync(ws, { recursive: true });
  // User settings are shared with the other suites: keep what was there and put it back at the end.
  const userSettings = path.join(runDir, 'ud/User/settings.json');
  const original = fs.readFileSync(userSettings, 'utf8');
  fs.writeFileSync(userSettings, JSON.stringify({ ...JSON.parse(original), [SERVERS_KEY]: { demo: { command: NODE24, args: [path.join(root, 'dist/demo-server.js')] } } }, null, 2));

  const browser = await launchBrowser();
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const ui = workbenchPage(page, { shotsDir, prefix: 'first', log });
  const { shot, check, openWorkbench, openView, runCommand, quickInput } = ui;

  await ui.session('first start UI', async () => {
    await openWorkbench(cs.url(ws));
    await openView();
    await page.getByRole('treeitem', { name: /Read Note/ }).first().waitFor({ timeout: 60_000 });

    await check('with a server configured before the walkthrough opens, the walkthrough ticks "Configure a server"', async () => {
      // A new user's progress, and a window whose Tools view (and so the extension) starts with it.
      await runCommand('Developer: Reset Welcome Page Walkthrough Progress');
      await page.reload();
      await page.getByRole('treeitem', { name: /Read Note/ }).first().waitFor({ timeout: 60_000 });
      await runCommand('Welcome: Open Walkthrough...');
      await quickInput.locator('.monaco-list-row', { hasText: 'Get Started with MCP Tool Host' }).first().click();
      const step = page.locator('.getting-started-step', { hasText: 'Configure a server' }).first();
      await step.waitFor({ timeout: 15_000 });
      const tick = step.locator('.codicon.complete');
      await tick.waitFor({ timeout: 10_000 }).catch(() => undefined);
      await shot('walkthrough-configured');
      if (!(await tick.isVisible())) throw new Error('the step stays unticked with a server configured');
    });
  }, async () => {
    await browser.close();
    fs.writeFileSync(userSettings, original);
  });
  return ui.results;
}
