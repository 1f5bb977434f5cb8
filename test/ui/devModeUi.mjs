// UI test of dev mode as a server author meets it in the Tools view: a local server whose "dev" entry
// watches build/** and asks for the Node debugger. Its row says "dev" and its hover says why; the
// debugger is attached (the debug toolbar shows); the row's menu offers Attach Debugger; saving a
// watched file in the editor restarts the server with its new tools, and its log keeps the first
// start's lines above the restart. A folder with workspace trust off is trusted, as dev mode needs.
// Screenshots go to shotsDir as dev-NN-name.png.
import fs from 'node:fs';
import path from 'node:path';
import { e2eEnv, launchBrowser } from '../../scripts/e2e/codeServer.mjs';
import { outputText, untilText, workbenchPage } from './workbenchPage.mjs';

const SERVERS_KEY = 'mcpToolHost.servers';

/**
 * @param {import('../../scripts/e2e/codeServer.mjs').CodeServer} cs
 * @param {import('./workbenchPage.mjs').UiSuiteOptions} options
 * @returns {Promise<import('./workbenchPage.mjs').UiResults>}
 */
export async function runDevModeUiTests(cs, { runDir, shotsDir, root, log = console.log }) {
  const { NODE24 } = e2eEnv();
  const ws = path.join(runDir, 'dev-ui-ws');
  fs.rmSync(ws, { recursive: true, force: true });
  fs.mkdirSync(path.join(ws, 'build'), { recursive: true });
  const toolsFile = path.join(ws, 'build', 'tools.json');
  fs.writeFileSync(toolsFile, JSON.stringify(['first_tool']));

  // User settings are shared with the other suites: keep what was there and put it back at the end.
  const userSettings = path.join(runDir, 'ud/User/settings.json');
  const original = fs.readFileSync(userSettings, 'utf8');
  const settings = JSON.parse(original);
  settings[SERVERS_KEY] = {
    authored: { command: NODE24, args: [path.join(root, 'test/fixtures/servers/dev-server.cjs'), toolsFile], dev: { watch: 'build/**', debug: { type: 'node' } } },
  };
  // The test types the file's new text at once: the editor must not close its brackets and quotes for it.
  Object.assign(settings, { 'editor.autoClosingBrackets': 'never', 'editor.autoClosingQuotes': 'never' });
  fs.writeFileSync(userSettings, JSON.stringify(settings, null, 2));

  const browser = await launchBrowser();
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const ui = workbenchPage(page, { shotsDir, prefix: 'dev', log });
  const { shot, check, openWorkbench, quickInput, row, openView, widenSidebar, hover } = ui;
  const hoverWidget = page.locator('.monaco-hover, .workbench-hover').filter({ visible: true }).first();
  const menu = page.locator('.context-view .monaco-menu');
  const debugToolbar = page.locator('.debug-toolbar');

  await ui.session('dev mode UI', async () => {
    await openWorkbench(cs.url(ws));
    await openView();
    await widenSidebar(200);

    await check('the dev-mode server\'s row says "dev" and lists its tools; the debugger is attached (the debug toolbar shows)', async () => {
      await row(/^authored.*· dev/).waitFor({ timeout: 60_000 });
      await row(/^first_tool/).waitFor({ timeout: 30_000 });
      await debugToolbar.waitFor({ state: 'visible', timeout: 30_000 });
      await shot('row-dev-debugger-attached');
    });

    await check('its hover says why: dev mode, the files whose change restarts it, and the Node inspector on 127.0.0.1', async () => {
      await hover(row(/^authored/));
      // The hover's text comes once the extension resolves it ("Loading..." until then).
      const text = await untilText(page, async () => (await hoverWidget.innerText().catch(() => '')).replace(/\u00a0/g, ' '), /Dev mode/, 15_000, (t) => `the hover does not say "Dev mode": ${t}`);
      await shot('row-hover-dev-mode');
      await page.mouse.move(5, 5);
      if (!/Dev mode/.test(text) || !/Restarts when these files change: build\/\*\*/.test(text)) throw new Error(`the hover does not say what dev mode watches: ${text}`);
      if (!/Node inspector on 127\.0\.0\.1/.test(text)) throw new Error(`the hover does not name the inspector: ${text}`);
      if (!/--inspect=127\.0\.0\.1:\d+/.test(text)) throw new Error(`the launch line has no inspector: ${text}`);
    });

    await check('the row\'s menu offers Attach Debugger, beside Restart and Show Log', async () => {
      await row(/^authored/).click({ button: 'right' });
      for (const item of ['Attach Debugger', 'Restart', 'Show Log']) await menu.locator('.action-label', { hasText: new RegExp(`^${item}$`) }).waitFor({ timeout: 5_000 });
      await shot('row-menu-attach-debugger');
      await page.keyboard.press('Escape');
    });

    await check('saving build/tools.json in the editor restarts the server: the row lists its new tool, the debugger attached again', async () => {
      await page.keyboard.press('Control+P');
      await quickInput.waitFor({ state: 'visible' });
      await page.keyboard.type('tools.json');
      await quickInput.locator('.monaco-list-row', { hasText: 'tools.json' }).first().waitFor({ timeout: 10_000 });
      await page.keyboard.press('Enter');
      const editor = page.locator('.monaco-editor .view-lines', { hasText: 'first_tool' }).first();
      await editor.waitFor({ timeout: 15_000 });
      await editor.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Backspace');
      await page.keyboard.insertText('["second_tool", "third_tool"]');
      await page.locator('.monaco-editor .view-lines', { hasText: '["second_tool", "third_tool"]' }).first().waitFor({ timeout: 5_000 });
      await page.keyboard.press('Control+S');
      // The row says "starting…" for about a second: too short to shoot reliably (a shot taken then showed it running again);
      // the log below says the restart.
      await row(/^authored.*starting/).waitFor({ timeout: 5_000 }).then(() => log('the row said "starting…" after the save'), () => log('the restart was over before its row was seen starting'));
      await row(/^second_tool/).waitFor({ timeout: 30_000 });
      await row(/^third_tool/).waitFor({ timeout: 10_000 });
      await row(/^authored.*3 tools.*· dev/).waitFor({ timeout: 10_000 });
      if (await row(/^first_tool/).count()) throw new Error('the old tool is still listed');
      await debugToolbar.waitFor({ state: 'visible', timeout: 30_000 });
      await shot('restarted-after-save');
    });

    await check('Show Log: the log keeps the first start and says the server restarted because build/tools.json changed', async () => {
      // The context menu may take a click before it is ready for it (the item lit, the menu still open): try again once.
      for (let attempt = 0; attempt < 2; attempt++) {
        await row(/^authored/).click({ button: 'right' });
        const item = menu.locator('.action-label', { hasText: /^Show Log$/ });
        await item.waitFor({ timeout: 10_000 });
        await page.waitForTimeout(300);
        await item.click();
        if (await menu.waitFor({ state: 'hidden', timeout: 5_000 }).then(() => true, () => false)) break;
        await page.keyboard.press('Escape');
      }
      // The Output view's filter keeps the lines of both runs that dev mode wrote in sight (it renders only what is in sight).
      // The Output view's own filter: the Debug Console (opened at the first attach) keeps one in the panel too, out of sight.
      const filter = () => page.locator('.part.panel input[placeholder^="Filter"]:visible').first();
      await filter().waitFor({ timeout: 10_000 });
      // The first launch's lines stay above the restart, and the new launch's follow: the author reads both runs in one place.
      const attached = String.raw`Dev mode: attaching the debugger to the Node inspector on 127\.0\.0\.1:`;
      const restarted = String.raw`Dev mode: restarting, .*?build/tools\.json changed\.`;
      // Long lines wrap in the panel: read as one line each way. The filter is filled again while the panel changes
      // views: on a loaded machine the Debug Console's filter was the visible one when Show Log began.
      const read = async () => {
        const box = filter();
        if ((await box.inputValue().catch(() => 'Dev mode')) !== 'Dev mode') await box.fill('Dev mode').catch(() => undefined);
        return (await outputText(page)).replace(/\s+/g, ' ');
      };
      await untilText(page, read, new RegExp(`${attached}.*${restarted}.*${attached}`), 20_000, (t) => `the log does not show the first start, the restart and the new start in order; it reads:\n${t.slice(-900)}`);
      await shot('log-kept-across-restart');
    });
  }, async () => {
    await browser.close();
    fs.writeFileSync(userSettings, original);
    fs.rmSync(ws, { recursive: true, force: true });
  });
  return ui.results;
}
