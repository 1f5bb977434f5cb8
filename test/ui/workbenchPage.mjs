// Helpers for driving the VS Code workbench in Chromium: counted checks with screenshots, the
// command palette, the side bar, tree rows and their hovers. Used by every UI suite but uiTests.mjs.
import path from 'node:path';

/** Polls `read()` every 250 ms until its text matches `re` and returns that text; after `ms`, throws `fail(lastText)`. */
export async function untilText(page, read, re, ms, fail) {
  const end = Date.now() + ms;
  let text = '';
  while (Date.now() < end) {
    text = await read();
    if (re.test(text)) return text;
    await page.waitForTimeout(250);
  }
  throw new Error(fail(text));
}

/** The text the Output panel shows (it renders only the lines in sight). */
export const outputText = async (page) => (await page.locator('.part.panel .view-lines').first().innerText().catch(() => '')).replace(/\u00a0/g, ' ');

/** Waits until the Output panel shows text matching `re`, and returns that text. */
export const waitOutput = (page, re, ms = 30_000) => untilText(page, () => outputText(page), re, ms, (text) => `output never matched ${re}; last text:\n${text.slice(-600)}`);

/** Everything a UI suite needs of one page; `prefix` names its screenshots (prefix-NN-name.png). */
export function workbenchPage(page, { shotsDir, prefix, log }) {
  const results = { passed: 0, failed: [] };
  let shotNo = 0;
  const shot = async (name, locator) => {
    const file = path.join(shotsDir, `${prefix}-${String(++shotNo).padStart(2, '0')}-${name}.png`);
    await (locator ?? page).screenshot({ path: file });
    log(`screenshot ${path.basename(file)}`);
  };
  const check = async (name, fn) => {
    try {
      await page.mouse.move(700, 880); // no tooltip left over from the previous check
      await page.waitForTimeout(200);
      await fn();
      results.passed++;
      log(`ui ok: ${name}`);
    } catch (err) {
      results.failed.push(`${name}: ${err instanceof Error ? err.message.split('\n')[0] : err}`);
      log(`ui FAILED: ${name}: ${err}`);
      await shot(`failure-${name.replace(/\W+/g, '-').slice(0, 40)}`).catch(() => undefined);
      await page.keyboard.press('Escape').catch(() => undefined);
    }
  };
  const quickInput = page.locator('.quick-input-widget');
  const sidebar = page.locator('.part.sidebar');
  const row = (name) => page.getByRole('treeitem', { name }).first();
  const hoverWidget = page.locator('.monaco-hover, .workbench-hover').filter({ visible: true }).first();
  const viewTitle = page.locator('.part.sidebar .composite.title', { hasText: 'MCP Tool Host' });
  const openView = async () => {
    const tab = page.locator('.activitybar [aria-label^="MCP Tool Host"]').first();
    await tab.waitFor({ timeout: 60_000 });
    if (!(await viewTitle.isVisible().catch(() => false))) await tab.click();
    await viewTitle.waitFor({ timeout: 10_000 });
  };
  const palette = async (text) => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    await quickInput.waitFor({ state: 'visible' });
    await page.keyboard.type(text);
    await page.waitForTimeout(400);
  };
  const paletteRows = async () => (await quickInput.locator('.monaco-list-row').allInnerTexts()).map((t) => t.split('\n')[0].trim());
  /** Which of the titles the palette offers, typing each one (the list renders only what fits). */
  const paletteOffers = async (titles) => {
    const offered = [];
    for (const title of titles) {
      await palette(title);
      if ((await paletteRows()).includes(title)) offered.push(title);
    }
    await page.keyboard.press('Escape');
    return offered;
  };
  const runCommand = async (title) => {
    await palette(title);
    await quickInput.locator('.monaco-list-row', { hasText: title }).first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
  };
  const widenSidebar = async (by) => {
    const box = await sidebar.boundingBox();
    if (!box) return;
    // The sash between the side bar and the editor: the vertical one nearest the side bar's right edge.
    const edge = box.x + box.width;
    const sashes = await page.locator('.monaco-sash.vertical').evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2, h: r.height })));
    const sash = sashes.filter((r) => r.h > 100).sort((a, b) => Math.abs(a.x - edge) - Math.abs(b.x - edge))[0];
    if (!sash) return;
    const x = sash.x;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + by, y, { steps: 5 });
    await page.mouse.up();
    await page.mouse.move(700, 880);
  };
  const hover = async (locator) => {
    await page.mouse.move(5, 5);
    await page.waitForTimeout(200);
    await locator.hover();
    await hoverWidget.waitFor({ timeout: 10_000 });
    await page.waitForTimeout(300);
    return (await hoverWidget.innerText()).replace(/\u00a0/g, ' ');
  };

  /**
   * "MCP: Add Server..." as a user types it: Command (stdio), the command line, then `name` over
   * the suggested one. Returns the suggested name; `beforeEnter(step)` may check or shoot a step.
   */
  const addStdioServer = async (commandLine, name, beforeEnter = async () => undefined) => {
    await runCommand('MCP: Add Server...');
    await quickInput.locator('.quick-input-title', { hasText: 'MCP: Add Server (1/3)' }).waitFor({ timeout: 10_000 });
    await beforeEnter('kind');
    await quickInput.locator('.monaco-list-row', { hasText: 'Command (stdio)' }).click();
    await quickInput.locator('.quick-input-title', { hasText: 'command' }).waitFor({ timeout: 10_000 });
    await page.keyboard.type(commandLine);
    await beforeEnter('command');
    await page.keyboard.press('Enter');
    await quickInput.locator('.quick-input-title', { hasText: 'name' }).waitFor({ timeout: 10_000 });
    const suggested = await quickInput.locator('input').inputValue();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(name);
    await beforeEnter('name');
    await page.keyboard.press('Enter');
    return suggested;
  };

  return { results, shot, check, quickInput, sidebar, row, viewTitle, openView, palette, paletteRows, paletteOffers, runCommand, widenSidebar, hover, addStdioServer };
}
