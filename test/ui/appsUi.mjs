// UI tests of tool interfaces (MCP Apps, issue 18) in the real workbench (code-server) through
// Chromium, against the npm example server basic-vanillajs over stdio: calling get-time from the
// Tools view opens its interface beside the editor, the app (its own script, in our sandboxed
// srcdoc frame inside the webview) shows the result it was sent, its own tools/call goes through
// the host, and its "Open Link" asks first, showing the site it leads to and the URL. Screenshots: apps-NN-name.png.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { e2eEnv, launchBrowser } from '../../scripts/e2e/codeServer.mjs';
import { workbenchPage } from './workbenchPage.mjs';

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

/**
 * @param {import('../../scripts/e2e/codeServer.mjs').CodeServer} cs
 * @param {import('./workbenchPage.mjs').UiSuiteOptions} options
 * @returns {Promise<import('./workbenchPage.mjs').UiResults>}
 */
export async function runAppsUiTests(cs, { runDir, shotsDir, root, log = console.log }) {
  const { NODE24 } = e2eEnv();
  const ws = path.join(runDir, 'apps-ui-ws');
  fs.rmSync(ws, { recursive: true, force: true });
  fs.mkdirSync(ws, { recursive: true });

  // User settings are shared with the other suites: keep what was there and put it back at the end.
  const userSettings = path.join(runDir, 'ud/User/settings.json');
  const original = fs.readFileSync(userSettings, 'utf8');
  const clock = { command: NODE24, args: [path.join(root, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js'), '--stdio'] };
  const rules = [{ name: 'clock', server: 'clock', tool: 'get-time', effect: 'allow' }];
  const demo = { command: NODE24, args: [path.join(root, 'dist/demo-server.js')] };
  fs.writeFileSync(userSettings, JSON.stringify({ ...JSON.parse(original), 'mcpToolHost.servers': { clock, demo }, 'mcpToolHost.rules': rules }, null, 2));

  const browser = await launchBrowser();
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const ui = workbenchPage(page, { shotsDir, prefix: 'apps', log });
  const { check, openWorkbench, openView, row, waitOutput } = ui;
  // The webview (VS Code's host frame, then its content frame: our relay page), then the app's own sandboxed frame.
  const webview = page.frameLocator('iframe.webview.ready').first().frameLocator('#active-frame');
  const app = webview.frameLocator('iframe#app');
  const editorPart = page.locator('.part.editor');

  // A loopback server the app is not allowed to reach (its resource declares no connectDomains).
  let hits = 0;
  const loopback = http.createServer((_req, res) => (hits++, res.end('reached')));
  await new Promise((resolve) => loopback.listen(0, '127.0.0.1', () => resolve(undefined)));
  const loopbackUrl = `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (loopback.address()).port}/`;
  /** The app's own frame (found by an element only it has), to run script in as the app would. */
  const appFrame = async (marker = '#server-time') => {
    for (const f of page.frames()) if (f.url() === 'about:srcdoc' && (await f.$(marker).catch(() => null))) return f;
    throw new Error(`the app frame with ${marker} was not found`);
  };

  await ui.session('apps UI', async () => {
    await openWorkbench(cs.url(ws));
    await openView();
    await row(/^Get Time/).waitFor({ timeout: 60_000 });

    await check('the Tools view marks the tool as having an interface', async () => {
      const text = (await row(/^Get Time/).innerText()).replace(/\u00a0/g, ' ');
      const label = (await row(/^Get Time/).getAttribute('aria-label')) ?? '';
      if (!label.includes('interface')) throw new Error(`the row reads "${text}" (aria-label "${label}")`);
    });

    await check('calling get-time opens its interface: the app, in its sandboxed frame, shows the time the server returned', async () => {
      await row(/^Get Time/).click();
      await page.locator('.tabs-container .tab', { hasText: 'get-time (interface)' }).waitFor({ timeout: 30_000 });
      const time = app.locator('#server-time');
      await time.waitFor({ timeout: 30_000 });
      const end = Date.now() + 30_000;
      let text = '';
      while (Date.now() < end && !ISO_TIME.test((text = await time.innerText()))) await page.waitForTimeout(200);
      if (!ISO_TIME.test(text)) throw new Error(`the interface shows "${text}", not the server's time`);
      const sandbox = await webview.locator('iframe#app').getAttribute('sandbox');
      if (sandbox !== 'allow-scripts') throw new Error(`the app's frame is sandboxed as "${sandbox}"`);
      await page.mouse.move(700, 880);
      await ui.shot('interface-shows-result', editorPart);
    });

    await check("the app's own tools/call goes through the host and its answer reaches the app", async () => {
      const time = app.locator('#server-time');
      const before = await time.innerText();
      await page.waitForTimeout(1100); // the next time differs
      await app.locator('#get-time-btn').click();
      const end = Date.now() + 20_000;
      let text = before;
      while (Date.now() < end && ((text = await time.innerText()) === before || !ISO_TIME.test(text))) await page.waitForTimeout(200);
      if (text === before || !ISO_TIME.test(text)) throw new Error(`the time did not change after the app's call: "${text}"`);
      await waitOutput(/get-time/);
    });

    await check('inside the frame the app reaches nothing: no fetch to an undeclared origin, no popup, no top navigation, no parent, no storage', async () => {
      const frame = await appFrame();
      // Run as the app's own script would (a string: it runs in the frame, not in Node).
      /** @type {Record<string, string>} */
      const tried = await frame.evaluate(`(async () => {
        const out = {};
        try { await fetch(${JSON.stringify(loopbackUrl)}); out.fetch = 'reached'; } catch { out.fetch = 'blocked'; }
        try { out.popup = window.open('https://example.com/') === null ? 'none' : 'opened'; } catch { out.popup = 'none'; }
        try { top.location.href = 'https://example.com/'; out.top = 'tried'; } catch { out.top = 'blocked'; }
        try { out.parent = typeof parent.document; } catch { out.parent = 'blocked'; }
        try { out.vscodeApi = typeof parent.acquireVsCodeApi; } catch { out.vscodeApi = 'blocked'; }
        try { localStorage.setItem('x', '1'); out.storage = 'open'; } catch { out.storage = 'blocked'; }
        return out;
      })()`);
      await page.waitForTimeout(1000);
      const expected = { fetch: 'blocked', popup: 'none', parent: 'blocked', vscodeApi: 'blocked', storage: 'blocked' };
      for (const [k, v] of Object.entries(expected)) if (tried[k] !== v) throw new Error(`${k}: ${JSON.stringify(tried)}`);
      if (hits !== 0) throw new Error(`the loopback server was reached ${hits} time(s)`);
      if (!page.url().startsWith(cs.url(ws).split('?')[0])) throw new Error(`the workbench navigated to ${page.url()}`);
      await app.locator('#server-time').waitFor({ timeout: 5_000 }); // the app is still there
    });

    await check('"Open Interface" from the row\'s menu shows it again after it was closed, with the result', async () => {
      // A middle click closes the tab (the keyboard is the webview's while it has focus).
      const tab = page.locator('.tabs-container .tab', { hasText: 'get-time (interface)' });
      await tab.click({ button: 'middle' });
      await tab.waitFor({ state: 'detached', timeout: 10_000 });
      // The context menu may take a click before it is ready for it: try again once.
      for (let attempt = 0; attempt < 2; attempt++) {
        await row(/^Get Time/).click({ button: 'right' });
        const item = page.getByRole('menuitem', { name: 'Open Interface' });
        await item.waitFor({ timeout: 10_000 });
        await page.waitForTimeout(300);
        await item.click();
        if (await tab.waitFor({ timeout: 5_000 }).then(() => true, () => false)) break;
        await page.keyboard.press('Escape');
      }
      const time = app.locator('#server-time');
      await time.waitFor({ timeout: 30_000 });
      const end = Date.now() + 30_000;
      while (Date.now() < end && !ISO_TIME.test(await time.innerText())) await page.waitForTimeout(200);
      if (!ISO_TIME.test(await time.innerText())) throw new Error(`the reopened interface shows "${await time.innerText()}"`);
    });

    await check('the app\'s "Open Link" asks first, naming the site first, and shows the URL; Cancel opens nothing', async () => {
      await app.locator('#open-link-btn').click();
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ timeout: 15_000 });
      const said = (await dialog.innerText()).replace(/\u00a0/g, ' ');
      for (const part of ["The tool's interface wants to open a page on modelcontextprotocol.io", 'https://modelcontextprotocol.io/']) if (!said.includes(part)) throw new Error(`the dialog lacks "${part}": ${said}`);
      await ui.shot('open-link-asks');
      await dialog.locator('.monaco-button', { hasText: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 10_000 });
    });

    await check("the demo's Bar Chart: its interface draws the values it was called with, in the editor's colours", async () => {
      await page.keyboard.press('Escape');
      await row(/^Bar Chart/).click();
      const argsTab = page.locator('.tabs-container .tab', { hasText: 'Bar Chart arguments.json' });
      await argsTab.waitFor({ timeout: 15_000 });
      await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
      await page.keyboard.press('Control+A');
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.evaluate((t) => navigator.clipboard.writeText(t), '{"values": [3, 1, 4, 1, 5, 9, 2, 6]}');
      await page.keyboard.press('Control+V');
      await page.locator('.editor-actions').getByRole('button', { name: 'Call Tool with These Arguments' }).first().click();
      await page.locator('.tabs-container .tab', { hasText: 'bar_chart (interface)' }).waitFor({ timeout: 30_000 });
      const chart = page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame').frameLocator('iframe#app');
      await chart.locator('#status', { hasText: 'The server drew it too' }).waitFor({ timeout: 30_000 });
      const bars = await chart.locator('.bar span').allInnerTexts();
      if (bars.join(',') !== '3,1,4,1,5,9,2,6') throw new Error(`the interface drew ${bars.join(',')}`);
      await page.mouse.move(700, 880);
      await ui.shot('bar-chart-interface', editorPart);
    });

    await check("a destructive call the interface asks for raises the approval prompt, which says the interface asks; Escape denies and the interface hears why", async () => {
      const frame = await appFrame('#bars');
      // The interface's own script asks for delete_note on its server (demo), as a hostile one would.
      const answer = frame.evaluate(`new Promise((resolve) => {
        window.addEventListener('message', (e) => { if (e.data && e.data.id === 'ui-test-1') resolve(e.data); });
        window.parent.postMessage({ jsonrpc: '2.0', id: 'ui-test-1', method: 'tools/call', params: { name: 'delete_note', arguments: { name: 'a' } } }, '*');
      })`);
      await ui.promptTitle("The tool's interface asks: approve", 20_000);
      await page.waitForTimeout(400); // the prompt fades in
      await ui.shot('interface-asks-approval');
      await page.keyboard.press('Escape');
      /** @type {any} */
      const reply = await answer;
      const text = reply?.result?.content?.[0]?.text ?? '';
      if (reply?.result?.isError !== true || !/denied/i.test(text)) throw new Error(`the interface heard ${JSON.stringify(reply)}`);
    });
  }, async () => {
    await browser.close();
    loopback.close();
    fs.writeFileSync(userSettings, original);
  });
  return ui.results;
}
