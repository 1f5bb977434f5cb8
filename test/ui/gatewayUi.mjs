// UI test of the gateway in VS Code's own MCP support (issue 37), through Chromium: with
// mcpToolHost.gateway.enabled on in the user's settings, VS Code lists "MCP Tool Host (gateway)"
// among its MCP servers, and a destructive tool of the demo server, called through the language-model
// tool API as agent mode calls it (vscode.lm.invokeTool), passes two prompts: VS Code's own
// confirmation (it asks before any MCP tool that is not read-only), then our approval prompt, which
// decides. Agent mode itself is the built-in Copilot extension's and needs a GitHub sign-in, so the
// call is made by the test model's "Test Model: Invoke Tool..." command (test/fakelm), run from the
// palette: it needs the code-server instance that has the test model. No network: the demo server is
// bundled. Screenshots go to shotsDir as gateway-NN-name.png.
import path from 'node:path';
import { e2eEnv, launchBrowser } from '../../scripts/e2e/codeServer.mjs';
import fs from 'node:fs';
import { chatSuiteSetup } from './chatPage.mjs';
import { workbenchPage } from './workbenchPage.mjs';

const GATEWAY = 'MCP Tool Host (gateway)';
/** Our prompt's title for the gateway's delete_note. */
const APPROVAL_TITLE = 'An agent asks through the gateway: approve "Delete Note" (delete_note) on demo? [destructive · idempotent]';

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
  const { shot, check, openWorkbench, quickInput, promptTitle, promptRow, runCommand, waitOutput } = ui;
  const dialog = page.locator('.monaco-dialog-box');

  /** Starts the gateway in VS Code's MCP support as a user does: MCP: List Servers, the gateway, Start Server. */
  const startGateway = async () => {
    await runCommand('MCP: List Servers');
    await quickInput.locator('.monaco-list-row', { hasText: GATEWAY }).first().click({ timeout: 30_000 });
    const start = quickInput.locator('.monaco-list-row', { hasText: /^Start Server/ }).first();
    // Already running (or starting): its actions offer no start.
    if (await start.waitFor({ timeout: 5_000 }).then(() => true, () => false)) await start.click();
    else await page.keyboard.press('Escape');
  };

  /**
   * "Test Model: Invoke Tool..." for the gateway's `tool` with `input`, as typed in its two prompts.
   * VS Code learns of the gateway's tools a moment after it starts the server: until the pick offers
   * the tool, the server is started again (as the host test does).
   * @param {string} tool @param {object} input
   */
  const invoke = async (tool, input) => {
    for (let attempt = 1; ; attempt++) {
      // The palette can lose the focus to VS Code's MCP output as a server starts: then it is asked again.
      const asked = await runCommand('Test Model: Invoke Tool...').then(() => promptTitle('Test Model: Invoke Tool', 10_000)).then(() => true, () => false);
      if (asked) await page.keyboard.type(`_demo_${tool}`);
      const row = quickInput.locator('.monaco-list-row', { hasText: new RegExp(`mcp_[\\w-]*_demo_${tool}`) }).first();
      if (asked && (await row.waitFor({ timeout: 10_000 }).then(() => true, () => false))) {
        await row.click();
        break;
      }
      await page.keyboard.press('Escape');
      if (attempt === 6) throw new Error(`VS Code never offered the gateway's ${tool} as a language-model tool`);
      await startGateway();
      await page.waitForTimeout(3_000);
    }
    await promptTitle(`Test Model: Invoke Tool mcp_`, 10_000);
    await page.keyboard.press('Control+A');
    await page.keyboard.type(JSON.stringify(input));
    await page.keyboard.press('Enter');
  };

  /** VS Code's own confirmation of an MCP tool call ("Run Delete Note"): shot, then its Yes. @param {string} name */
  const passVsCodeConfirmation = async (name) => {
    await dialog.waitFor({ timeout: 30_000 });
    const text = (await dialog.innerText()).replace(/\u00a0/g, ' ');
    log(`VS Code's confirmation reads: ${text.replace(/\s+/g, ' ')}`);
    if (!text.includes('Run Delete Note')) throw new Error(`VS Code's confirmation does not name the tool: ${text}`);
    await shot(name);
    // "Yes" (VS Code's wording for this confirmation; Allow or Continue in other versions).
    await dialog.locator('.monaco-button', { hasText: /^(Yes|Allow|Continue)$/ }).first().click();
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });
  };

  await ui.session('gateway UI', async () => {
    await openWorkbench(cs.url(ws));

    await check('the setting is on in the user settings, and VS Code lists "MCP Tool Host (gateway)" among its MCP servers', async () => {
      // By its row, not the first row at once: a palette with no history yet still looks for similar commands.
      await runCommand('Preferences: Open User Settings (JSON)');
      await page.locator('.editor-instance .view-lines', { hasText: '"mcpToolHost.gateway.enabled": true' }).first().waitFor({ timeout: 20_000 });
      await shot('setting-on');
      await page.keyboard.press('Control+w');
      await runCommand('MCP: List Servers');
      await quickInput.locator('.monaco-list-row', { hasText: GATEWAY }).first().waitFor({ timeout: 30_000 });
      await shot('listed-by-vscode');
      await page.keyboard.press('Escape');
    });

    await check('a read-only gateway tool called through the language-model tool API returns its result, with no prompt', async () => {
      await startGateway();
      await invoke('read_note', { name: 'shopping' });
      await waitOutput(/invokeTool result: milk, bread, coffee/, 30_000);
      if (await dialog.count()) throw new Error('a read-only call was confirmed');
      await shot('read-only-result');
    });

    await check("a destructive gateway tool: VS Code's confirmation, then OUR approval prompt (server, tool, arguments, why); Deny: the model is told and the note stays", async () => {
      await invoke('delete_note', { name: 'shopping' });
      await passVsCodeConfirmation('vscode-confirmation');
      const title = await promptTitle(APPROVAL_TITLE, 30_000);
      await promptRow('Allow once').waitFor();
      const prompt = (await quickInput.innerText()).replace(/\u00a0/g, ' ');
      log(`our prompt reads: ${prompt.replace(/\s+/g, ' ')}`);
      if (!prompt.includes('{"name":"shopping"}')) throw new Error(`our prompt does not show the arguments: ${prompt}`);
      if (!prompt.includes('This call may change or delete data (destructive).')) throw new Error(`our prompt does not say why it asks: ${prompt}`);
      await shot('our-approval-prompt');
      await title.waitFor();
      await page.waitForTimeout(600); // a person reads first
      await promptRow('Deny').click();
      await waitOutput(/invokeTool result: Not run: the user denied this call\./, 30_000);
      await shot('denied-result');
      await invoke('read_note', { name: 'shopping' });
      await waitOutput(/invokeTool result: milk, bread, coffee/, 30_000);
    });

    await check('again, Allow once: the note is deleted, and a read says so', async () => {
      await invoke('delete_note', { name: 'shopping' });
      await passVsCodeConfirmation('vscode-confirmation-again');
      await promptTitle(APPROVAL_TITLE, 30_000);
      const allow = promptRow('Allow once');
      await allow.waitFor();
      await page.waitForTimeout(600); // the prompt takes no "allow" in its first 500 ms
      await allow.click();
      await waitOutput(/invokeTool result: Deleted "shopping"\./, 30_000);
      await shot('allowed-result');
      await invoke('read_note', { name: 'shopping' });
      await waitOutput(/invokeTool result: No note named "shopping"\./, 30_000);
    });
  }, async () => {
    await browser.close();
    restore();
  });
  return ui.results;
}
