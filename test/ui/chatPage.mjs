// What the chat UI suites share: the Chat view of a workbench page, answered by the test model
// (test/fakelm), and how a person types into it.
import fs from 'node:fs';
import path from 'node:path';
import { untilText } from './workbenchPage.mjs';

/**
 * The Chat view's parts and the moves a person makes in it.
 * @param {import('playwright-core').Page} page
 */
export function chatPage(page) {
  const chat = page.locator('.interactive-session').first();
  const chatText = async () => (await chat.innerText().catch(() => '')).replace(/\u00a0/g, ' ');
  const waitChat = (/** @type {RegExp} */ re, ms = 30_000) => untilText(page, chatText, re, ms, (text) => `the chat never showed ${re}; it shows:\n${text.slice(-800)}`);
  const input = page.locator('.interactive-input-part .monaco-editor').first();
  const clearInput = async () => {
    await input.click({ force: true });
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
  };
  // @mcp is sticky: the input keeps "@mcp " after a request, so it is cleared first. A suggestion
  // still open after typing (a participant or slash command) would take the Enter: close it.
  const send = async (/** @type {string} */ prompt) => {
    await clearInput();
    await page.keyboard.type(prompt, { delay: 20 });
    await page.waitForTimeout(600);
    if (await page.locator('.suggest-widget.visible').first().isVisible().catch(() => false)) await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
  };
  /** Opens the Chat view, waits for the test model, and until @mcp is suggested (participants register as their extension activates). */
  const openWithTestModel = async (/** @type {() => Promise<void>} */ whenSuggested = async () => undefined) => {
    if (!(await input.isVisible().catch(() => false))) await page.keyboard.press('Control+Alt+i');
    await input.waitFor({ timeout: 30_000 });
    // the model picker shows the test model (its name cut to fit) once the provider is resolved
    await page.locator('.interactive-input-part', { hasText: 'MCP Test Mo' }).waitFor({ timeout: 60_000 });
    // the first suggest list can come too early, so ask again
    const suggestion = page.locator('.suggest-widget .monaco-list-row', { hasText: '@mcp' }).first();
    for (let attempt = 1; ; attempt++) {
      await clearInput();
      await page.keyboard.type('@mc');
      try {
        await suggestion.waitFor({ timeout: 10_000 });
        break;
      } catch (err) {
        if (attempt === 3) throw err;
        await page.keyboard.press('Escape');
      }
    }
    await whenSuggested();
    await page.keyboard.press('Escape');
    await clearInput();
  };
  return { chat, chatText, waitChat, input, clearInput, send, openWithTestModel };
}

/**
 * A fresh workspace folder for a chat suite and user settings with chat on and `servers` as the
 * MCP servers; `restore` puts back the user settings the other suites share.
 * @param {string} runDir
 * @param {string} name the workspace folder's name
 * @param {Record<string, unknown>} servers
 */
export function chatSuiteSetup(runDir, name, servers) {
  const ws = path.join(runDir, name);
  fs.rmSync(ws, { recursive: true, force: true });
  fs.mkdirSync(ws, { recursive: true });
  const userSettings = path.join(runDir, 'ud/User/settings.json');
  const original = fs.readFileSync(userSettings, 'utf8');
  fs.writeFileSync(userSettings, JSON.stringify({ ...JSON.parse(original), 'chat.disableAIFeatures': false, 'mcpToolHost.servers': servers }, null, 2));
  return { ws, restore: () => fs.writeFileSync(userSettings, original) };
}
