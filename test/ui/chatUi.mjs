// UI test of @mcp (issue 6) in the real Chat view (code-server) through Chromium, answered by the
// test-only model (test/fakelm, installed next to the extension, code-server started with
// --enable-proposed-api mcp-tool-host-tests.fakelm so it is the default model). A person types
// `@mcp ...`, approves the quick-pick for a destructive demo tool, and reads the answer.
// Screenshots go to shotsDir as chat-NN-name.png.
import path from 'node:path';
import { e2eEnv, launchBrowser } from '../../scripts/e2e/codeServer.mjs';
import { chatPage, chatSuiteSetup } from './chatPage.mjs';
import { workbenchPage } from './workbenchPage.mjs';

/**
 * @param {import('../../scripts/e2e/codeServer.mjs').CodeServer} cs
 * @param {import('./workbenchPage.mjs').UiSuiteOptions} options
 * @returns {Promise<import('./workbenchPage.mjs').UiResults>}
 */
export async function runChatUiTests(cs, { runDir, shotsDir, root, log = console.log }) {
  const { NODE24 } = e2eEnv();
  const { ws, restore } = chatSuiteSetup(runDir, 'chat-ui-ws', { demo: { command: NODE24, args: [path.join(root, 'dist/demo-server.js')] } });

  const browser = await launchBrowser();
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const ui = workbenchPage(page, { shotsDir, prefix: 'chat', log });
  const { shot, check, openWorkbench, quickInput } = ui;
  const { waitChat, input, send, openWithTestModel } = chatPage(page);

  await ui.session('chat UI', async () => {
      await openWorkbench(cs.url(ws));

      await check('the Chat view opens with the test model and offers @mcp', async () => {
        await openWithTestModel(() => shot('participant-suggested'));
      });

      await check('@mcp /tools lists the demo tools with their badges', async () => {
        await send('@mcp /tools');
        await waitChat(/delete_note Delete Note \(destructive · idempotent\)/);
        await shot('tools');
      });

      await check('@mcp asks for a destructive call: the approval quick-pick, Allow once, the answer', async () => {
        await send('@mcp call delete_note name=welcome');
        await quickInput.locator('.quick-input-title', { hasText: 'Approve "Delete Note" (delete_note) on demo?' }).waitFor({ timeout: 30_000 });
        await shot('approval-quickpick');
        await page.waitForTimeout(600); // a person reads first: the prompt takes no "allow" in its first 500 ms
        await quickInput.locator('.monaco-list-row', { hasText: 'Allow once' }).click();
        await waitChat(/FAKE-MODEL-REPLY: Deleted "welcome"\./);
        await waitChat(/demo › delete_note \{"name":"welcome"\}: done/);
        await shot('answer-after-approval');
      });

      await check('@mcp with Escape on the approval: denied, nothing sent, and the answer says so', async () => {
        await send('@mcp call delete_note name=shopping');
        await quickInput.locator('.quick-input-title', { hasText: 'Approve "Delete Note" (delete_note) on demo?' }).waitFor({ timeout: 30_000 });
        await page.keyboard.press('Escape');
        await waitChat(/delete_note \{"name":"shopping"\}: denied by you: not sent/);
        await waitChat(/You denied a call: nothing was sent for it\./);
        await shot('answer-after-denial');
      });

      await check("every chat reaches the hosted tools: '#mcp' in the chat input offers Search MCP Tools and Call MCP Tool", async () => {
        await input.click({ force: true });
        await page.keyboard.press('Control+A');
        await page.keyboard.press('Backspace');
        await page.keyboard.type('#mcp', { delay: 20 });
        const rows = page.locator('.suggest-widget.visible .monaco-list-row');
        await rows.filter({ hasText: 'mcpSearchTools' }).first().waitFor({ timeout: 20_000 });
        await rows.filter({ hasText: 'mcpCallTool' }).first().waitFor({ timeout: 5_000 });
        await shot('lm-tools-suggested');
        await page.keyboard.press('Escape');
        await page.keyboard.press('Control+A');
        await page.keyboard.press('Backspace');
      });
  }, async () => {
    await browser.close();
    restore();
  });
  return ui.results;
}
