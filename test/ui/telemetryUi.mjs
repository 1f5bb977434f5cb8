// UI tests of the telemetry settings as a user finds them: the Settings editor, searched for
// "mcpToolHost.telemetry", shows the four settings in the User tab (and none in the Workspace tab:
// a repository cannot send your calls anywhere); ticking "Enabled" turns telemetry on at once, and
// the output says where it exports.
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser } from '../../scripts/e2e/codeServer.mjs';
import { workbenchPage } from './workbenchPage.mjs';

const SETTINGS = ['Enabled', 'Endpoint', 'Headers', 'Export Content'];

/**
 * @param {import('../../scripts/e2e/codeServer.mjs').CodeServer} cs
 * @param {import('./workbenchPage.mjs').UiSuiteOptions} options
 * @returns {Promise<import('./workbenchPage.mjs').UiResults>}
 */
export async function runTelemetryUiTests(cs, { runDir, shotsDir, log = console.log }) {
  const ws = path.join(runDir, 'telemetry-ui-ws');
  fs.mkdirSync(ws, { recursive: true });
  const userSettings = path.join(runDir, 'ud/User/settings.json');
  const original = fs.readFileSync(userSettings, 'utf8');

  const browser = await launchBrowser();
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const ui = workbenchPage(page, { shotsDir, prefix: 'telemetry', log });
  const { shot, check, openWorkbench, runCommand, waitOutput } = ui;
  const editor = page.locator('.settings-editor');
  /** The Settings editor's row of the telemetry setting titled `title`. @param {string} title */
  const settingRow = (title) => editor.locator('.setting-item', { hasText: `Telemetry: ${title}` }).first();
  /** The count the search box shows ("5 Settings Found", "No Settings Found"). */
  const found = editor.locator('.settings-count-widget');
  /** Types `text` in the Settings editor's search box. @param {string} text */
  const search = async (text) => {
    const box = editor.locator('.settings-header .suggest-input-container .monaco-editor').first();
    await box.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(text);
  };

  await ui.session('telemetry UI', async () => {
    await openWorkbench(cs.url(ws));

    await check('the Settings editor, searched for "mcpToolHost.telemetry", shows the four telemetry settings in the User tab, off by default', async () => {
      await runCommand('Preferences: Open User Settings');
      await editor.waitFor({ timeout: 20_000 });
      await search('mcpToolHost.telemetry');
      for (const title of SETTINGS) await settingRow(title).waitFor({ timeout: 20_000 });
      const enabled = settingRow('Enabled').locator('.setting-value-checkbox');
      if ((await enabled.getAttribute('aria-checked')) === 'true') throw new Error('telemetry is on by default');
      const endpoint = await settingRow('Endpoint').locator('input').first().inputValue();
      if (endpoint !== 'http://localhost:4318') throw new Error(`the endpoint shows "${endpoint}"`);
      await shot('settings-user');
    });

    await check('the Workspace tab offers none of them (user only: a repository cannot turn telemetry on or point it elsewhere)', async () => {
      await editor.locator('.settings-tabs-widget .action-label', { hasText: /^Workspace$/ }).first().click();
      await search('mcpToolHost.telemetry');
      await found.filter({ hasText: /Settings? Found/ }).waitFor({ timeout: 10_000 });
      await page.waitForTimeout(500);
      for (const title of SETTINGS) if (await settingRow(title).isVisible().catch(() => false)) throw new Error(`the Workspace tab offers "${title}"`);
      log(`the Workspace tab's search says: ${await found.innerText()}`);
      await shot('settings-workspace');
      await editor.locator('.settings-tabs-widget .action-label', { hasText: /^User$/ }).first().click();
      await search('mcpToolHost.telemetry');
      await settingRow('Enabled').waitFor({ timeout: 10_000 });
    });

    await check('ticking "Enabled" turns telemetry on at once: the output says where traces and metrics go', async () => {
      await settingRow('Enabled').locator('.setting-value-checkbox').click();
      await shot('enabled-ticked');
      await runCommand('MCP Tool Host: Show Output');
      await waitOutput(/telemetry: exporting traces to http:\/\/localhost:4318\/v1\/traces and metrics to\s+http:\/\/localhost:4318\/v1\/metrics\./, 30_000);
      await shot('output-exporting');
    });
  }, async () => {
    fs.writeFileSync(userSettings, original);
    await browser.close();
  });
  return ui.results;
}
