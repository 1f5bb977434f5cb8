// UI test of result budgets in the real Chat view (code-server) through Chromium: @mcp calls a tool
// whose result is far over the budget, and the chat says under the call how much of it the model got,
// of how much, and that it can read the rest with read_result. Answered by the test-only model
// (test/fakelm). Screenshots go to shotsDir as budget-NN-name.png.
import fs from 'node:fs';
import path from 'node:path';
import { e2eEnv, launchBrowser } from '../../scripts/e2e/codeServer.mjs';
import { chatPage, chatSuiteSetup } from './chatPage.mjs';
import { workbenchPage } from './workbenchPage.mjs';

/**
 * @param {import('../../scripts/e2e/codeServer.mjs').CodeServer} cs
 * @param {import('./workbenchPage.mjs').UiSuiteOptions} options
 * @returns {Promise<import('./workbenchPage.mjs').UiResults>}
 */
export async function runBudgetUiTests(cs, { runDir, shotsDir, root, log = console.log }) {
  const { NODE24 } = e2eEnv();
  const { ws, restore } = chatSuiteSetup(runDir, 'budget-ui-ws', { huge: { command: NODE24, args: [path.join(root, 'test/fixtures/servers/huge-result.cjs')] } });
  // The least budget, so the model's reply (which repeats what it got) stays short enough to see the line above it.
  const userSettings = path.join(runDir, 'ud/User/settings.json');
  fs.writeFileSync(userSettings, JSON.stringify({ ...JSON.parse(fs.readFileSync(userSettings, 'utf8')), 'mcpToolHost.chat.resultTokens': 500 }, null, 2));

  const browser = await launchBrowser();
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const ui = workbenchPage(page, { shotsDir, prefix: 'budget', log });
  const { shot, check, openWorkbench, runCommand } = ui;
  const { chat, waitChat, send, openWithTestModel } = chatPage(page);

  await ui.session('result budget UI', async () => {
    await openWorkbench(cs.url(ws));

    await check('the Chat view opens with the test model and offers @mcp', async () => {
      await openWithTestModel();
    });

    await check('@mcp: a result over the budget is cut for the model, and the chat says how much it got and how to read the rest', async () => {
      await send('@mcp call log lines=20000 needle=15000');
      await waitChat(/huge › log \{"lines":20000,"needle":15000\}: done/, 60_000);
      await waitChat(/The model got [\d,]+ of about [\d,]+ tokens of this result \(budget 500, mcpToolHost\.chat\.resultTokens\): it can read the rest with read_result; the whole result is in the output channel\./, 60_000);
      // The model's reply repeats the head it got, ending in the host's note with the handle.
      await waitChat(/cut this result to fit its budget of 500 tokens/, 60_000);
      // The output channel (opened for the long result) and the sidebar make room for the chat; then the
      // chat is scrolled back up, as a person would, until the line under the call is in sight.
      await runCommand('View: Hide Panel');
      await runCommand('View: Close Primary Side Bar');
      const line = chat.locator('li', { hasText: 'The model got' }).last();
      const box = await chat.boundingBox();
      if (!box) throw new Error('the Chat view has no box');
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      for (let i = 0; i < 60; i++) {
        const at = await line.boundingBox();
        if (at && at.y >= box.y + 60 && at.y + at.height <= box.y + box.height - 140) break;
        await page.mouse.wheel(0, at && at.y > box.y + box.height / 2 ? 120 : -120);
        await page.waitForTimeout(100);
      }
      await shot('cut-line');
    });
  }, async () => {
    await browser.close();
    restore();
  });
  return ui.results;
}
