// UI test of the gateway in VS Code's own MCP support (issue 37), through Chromium: with
// mcpToolHost.gateway.enabled on in the user's settings, VS Code lists "MCP Tool Host (gateway)"
// among its MCP servers. (Agent mode itself is the built-in Copilot extension's and asks for a GitHub
// sign-in before any model runs, so the calls are tested in test/host/gateway.test.ts, invoked as
// agent mode invokes them.) Screenshots go to shotsDir as gateway-NN-name.png.
import path from 'node:path';
import { e2eEnv, launchBrowser } from '../../scripts/e2e/codeServer.mjs';
import fs from 'node:fs';
import { chatSuiteSetup } from './chatPage.mjs';
import { workbenchPage } from './workbenchPage.mjs';

/**
 * @param {import('../../scripts/e2e/codeServer.mjs').CodeServer} cs
 * @param {import('./workbenchPage.mjs').UiSuiteOptions} options
 * @returns {Promise<import('./workbenchPage.mjs').UiResults>}
 */
export async function runGatewayUiTests(cs, { runDir, shotsDir, root, log = console.log }) {
  const { NODE24 } = e2eEnv();
  const { ws, restore } = chatSuiteSetup(runDir, 'gateway-ui-ws', { demo: { command: NODE24, args: [path.join(root, 'dist/demo-server.js')] } });
  // The gateway is turned on in the user's settings (a repository's cannot).
  const userSettings = path.join(runDir, 'ud/User/settings.json');
  fs.writeFileSync(userSettings, JSON.stringify({ ...JSON.parse(fs.readFileSync(userSettings, 'utf8')), 'mcpToolHost.gateway.enabled': true }, null, 2));

  const browser = await launchBrowser();
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const ui = workbenchPage(page, { shotsDir, prefix: 'gateway', log });
  const { shot, check, openWorkbench, quickInput, palette } = ui;

  await ui.session('gateway UI', async () => {
    await openWorkbench(cs.url(ws));

    await check('the setting is on in the user settings, and VS Code lists "MCP Tool Host (gateway)" among its MCP servers', async () => {
      await palette('>Preferences: Open User Settings (JSON)');
      await page.keyboard.press('Enter');
      await page.locator('.editor-instance .view-lines', { hasText: '"mcpToolHost.gateway.enabled": true' }).first().waitFor({ timeout: 20_000 });
      await shot('setting-on');
      await page.keyboard.press('Control+w');
      await palette('>MCP: List Servers');
      await page.keyboard.press('Enter');
      await quickInput.locator('.monaco-list-row', { hasText: 'MCP Tool Host (gateway)' }).first().waitFor({ timeout: 30_000 });
      await shot('listed-by-vscode');
      await page.keyboard.press('Escape');
    });
  }, async () => {
    await browser.close();
    restore();
  });
  return ui.results;
}
