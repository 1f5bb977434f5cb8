// Helpers for driving the VS Code workbench in Chromium: opening it, counted checks with
// screenshots, the command palette and quick inputs, the side bar, tree rows and their hovers,
// the Output panel. Every UI suite drives its page through them.
import fs from 'node:fs';
import path from 'node:path';

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').Locator} Locator */
/** @typedef {{ passed: number, failed: string[] }} UiResults what a UI suite returns: how many checks passed, and "name: reason" of each that failed */
/** @typedef {{ runDir: string, shotsDir: string, root: string, log?: (line: string) => void }} UiSuiteOptions where a suite keeps its files and screenshots, the checkout, and its log */

/**
 * Polls `read()` every 250 ms until its text matches `re` and returns that text; after `ms`, throws `fail(lastText)`.
 * @param {Page} page
 * @param {() => Promise<string>} read
 * @param {RegExp} re
 * @param {number} ms
 * @param {(lastText: string) => string} fail
 * @returns {Promise<string>}
 */
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
export const outputText = async (/** @type {Page} */ page) => (await page.locator('.part.panel .view-lines').first().innerText().catch(() => '')).replace(/\u00a0/g, ' ');

/**
 * Waits until the Output panel shows text matching `re`, and returns that text.
 * @param {Page} page
 * @param {RegExp} re
 * @param {number} [ms]
 */
export const waitOutput = (page, re, ms = 30_000) => untilText(page, () => outputText(page), re, ms, (text) => `output never matched ${re}; last text:\n${text.slice(-600)}`);

/**
 * Trusts the tool hints of these workspace-defined servers, as a user does in their user settings
 * (a workspace cannot trust its own servers: `mcpToolHost.trustedWorkspaceServers`).
 * @param {string} runDir the code-server run folder (its user settings are `ud/User/settings.json`)
 * @param {string[]} names
 */
export function trustWorkspaceServers(runDir, names) {
  const file = path.join(runDir, 'ud/User/settings.json');
  const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
  const trusted = new Set([...(settings['mcpToolHost.trustedWorkspaceServers'] ?? []), ...names]);
  fs.writeFileSync(file, JSON.stringify({ ...settings, 'mcpToolHost.trustedWorkspaceServers': [...trusted] }, null, 2));
}

/**
 * Everything a UI suite needs of one page; `prefix` names its screenshots (prefix-NN-name.png).
 * @param {Page} page
 * @param {{ shotsDir: string, prefix: string, log: (line: string) => void }} options
 */
export function workbenchPage(page, { shotsDir, prefix, log }) {
  /** @type {UiResults} */
  const results = { passed: 0, failed: [] };
  let shotNo = 0;
  /** @param {string} name @param {Locator} [locator] the part to shoot; the whole page by default */
  const shot = async (name, locator) => {
    const file = path.join(shotsDir, `${prefix}-${String(++shotNo).padStart(2, '0')}-${name}.png`);
    await (locator ?? page).screenshot({ path: file });
    log(`screenshot ${path.basename(file)}`);
  };
  /** Runs one counted check; a failure is logged, shot, and closes whatever prompt was open. @param {string} name @param {() => Promise<void>} fn */
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
      log(`  at the failure: ${await whereFocusIs()}`);
      log(`  the side bar's rows: ${await sidebarRows()}`);
      await shot(`failure-${name.replace(/\W+/g, '-').slice(0, 40)}`).catch(() => undefined);
      await page.keyboard.press('Escape').catch(() => undefined);
    }
  };
  /**
   * A suite's whole session: what throws outside a check counts as one failure (with a
   * screenshot), and `cleanup` (close the browser, put settings back) always runs.
   * @param {string} label @param {() => Promise<void>} body @param {() => Promise<void>} cleanup
   */
  const session = async (label, body, cleanup) => {
    try {
      await body();
    } catch (err) {
      results.failed.push(`${label} session: ${err}`);
      await shot('failure-session').catch(() => undefined);
    } finally {
      await cleanup();
    }
  };
  /** Loads the workbench at `url` (code-server's `cs.url(folder)`) and waits until it is drawn. @param {string} url */
  const openWorkbench = async (url) => {
    await page.goto(url);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  };
  const quickInput = page.locator('.quick-input-widget');
  /** What a failed check left: the quick input (open or not, its title) and the focused element, for its log line. */
  const whereFocusIs = async () => {
    const open = await quickInput.isVisible().catch(() => false);
    const title = open ? await quickInput.locator('.quick-input-title').innerText().catch(() => '?') : '';
    const focused = await page.evaluate(() => {
      const e = document.activeElement;
      return e ? `${e.tagName.toLowerCase()}${e.className ? `.${String(e.className).split(' ').slice(0, 3).join('.')}` : ''} "${(e.getAttribute('aria-label') ?? '').slice(0, 60)}"` : 'none';
    }).catch(() => '?');
    return `quick input ${open ? `open ("${title}")` : 'closed'}; focus on ${focused}`;
  };
  /** What the side bar's trees show (a row's accessible name is its label and description), for a failed check's log. */
  const sidebarRows = async () => {
    const names = await page.locator('.part.sidebar [role="treeitem"]').evaluateAll((rows) => rows.slice(0, 12).map((r) => (r.getAttribute('aria-label') ?? r.textContent ?? '').slice(0, 80))).catch(() => ['?']);
    return names.length ? names.map((n) => `"${n}"`).join(', ') : 'none';
  };
  /** Waits for the quick input titled with `text` (a step title, a prompt) and returns its title. @param {string | RegExp} text @param {number} [ms] */
  const promptTitle = async (text, ms = 15_000) => {
    const title = quickInput.locator('.quick-input-title', { hasText: text });
    await title.waitFor({ timeout: ms });
    return title;
  };
  /** The quick input's first row that contains `text`. @param {string | RegExp} text */
  const promptRow = (text) => quickInput.locator('.monaco-list-row', { hasText: text }).first();
  const sidebar = page.locator('.part.sidebar');
  /** A tree row by its accessible name. @param {string | RegExp} name */
  const row = (name) => page.getByRole('treeitem', { name }).first();
  const hoverWidget = page.locator('.monaco-hover, .workbench-hover').filter({ visible: true }).first();
  const viewTitle = page.locator('.part.sidebar .composite.title', { hasText: 'MCP Tool Host' });
  const openView = async () => {
    const tab = page.locator('.activitybar [aria-label^="MCP Tool Host"]').first();
    await tab.waitFor({ timeout: 60_000 });
    if (!(await viewTitle.isVisible().catch(() => false))) await tab.click();
    await viewTitle.waitFor({ timeout: 10_000 });
  };
  /** Opens the command palette and types `text`. @param {string} text */
  const palette = async (text) => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    await quickInput.waitFor({ state: 'visible' });
    await page.keyboard.type(text);
    await page.waitForTimeout(400);
  };
  const paletteRows = async () => (await quickInput.locator('.monaco-list-row').allInnerTexts()).map((t) => t.split('\n')[0].trim());
  /**
   * Which of the titles the palette offers, each one put in its box in turn (the list renders only
   * what fits): one palette, its text replaced at once rather than typed a key at a time.
   * @param {string[]} titles
   */
  const paletteOffers = async (titles) => {
    /** @type {string[]} */
    const offered = [];
    await palette('');
    const box = quickInput.locator('input').first();
    for (const title of titles) {
      await box.fill(`>${title}`);
      await page.waitForTimeout(400);
      if ((await paletteRows()).includes(title)) offered.push(title);
    }
    await page.keyboard.press('Escape');
    return offered;
  };
  /** Runs the palette command titled `title`, as a user picks it. @param {string} title */
  const runCommand = async (title) => {
    await palette(title);
    const offered = quickInput.locator('.monaco-list-row', { hasText: title }).first();
    // On a busy machine the palette may open after the first keys were typed: as a user would, it is opened and typed in again.
    if (!(await offered.waitFor({ timeout: 10_000 }).then(() => true, () => false))) {
      await palette(title);
      await offered.waitFor({ timeout: 10_000 });
    }
    // The palette may rank another command first ("Add Server from Registry..." for "Add Server..."):
    // the user moves down to the one they mean.
    const rows = await paletteRows();
    const index = rows.indexOf(title);
    if (index < 0) throw new Error(`the palette does not offer "${title}" by that exact title: ${rows.join(' | ')}`);
    for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
  };
  /** Drags the side bar's edge `by` pixels to the right. @param {number} by */
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
  /** Hovers `locator` and returns the text of the hover that opens. @param {Locator} locator */
  const hover = async (locator) => {
    // A hover that does not open (the pointer's move came while the workbench was busy) is tried again, as a user moves off and back.
    for (let attempt = 1; ; attempt++) {
      await page.mouse.move(5, 5);
      await page.waitForTimeout(200);
      await locator.hover();
      const shown = await hoverWidget.waitFor({ timeout: 10_000 }).then(() => true, (err) => (attempt < 3 ? false : Promise.reject(err)));
      if (shown) break;
    }
    await page.waitForTimeout(300);
    // A row's tooltip is resolved when shown (resolveTreeItem): "Loading..." until the extension host answers, longer on a busy machine.
    const end = Date.now() + 10_000;
    let text = (await hoverWidget.innerText()).replace(/\u00a0/g, ' ');
    while (/^\s*Loading(\.\.\.|…)\s*$/.test(text) && Date.now() < end) {
      await page.waitForTimeout(200);
      text = (await hoverWidget.innerText()).replace(/\u00a0/g, ' ');
    }
    return text;
  };

  /**
   * "MCP Tool Host: Add Server..." as a user types it: Command (stdio), the command line, then `name` over
   * the suggested one. Returns the suggested name; `beforeEnter(step)` may check or shoot a step.
   * @param {string} commandLine
   * @param {string} name
   * @param {(step: 'kind' | 'command' | 'name') => Promise<void>} [beforeEnter]
   */
  const addStdioServer = async (commandLine, name, beforeEnter = async () => undefined) => {
    await runCommand('MCP Tool Host: Add Server...');
    await promptTitle('MCP Tool Host: Add Server (1/3)', 10_000);
    await beforeEnter('kind');
    await quickInput.locator('.monaco-list-row', { hasText: 'Command (stdio)' }).click();
    await promptTitle('command', 10_000);
    await page.keyboard.type(commandLine);
    await beforeEnter('command');
    await page.keyboard.press('Enter');
    await promptTitle('name', 10_000);
    const suggested = await quickInput.locator('input').inputValue();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(name);
    await beforeEnter('name');
    await page.keyboard.press('Enter');
    return suggested;
  };

  const editorLines = page.locator('.editor-group-container.active .monaco-editor .view-lines').first();
  /** The active editor's text as it is drawn (its spaces as spaces). */
  const editorText = async () => (await editorLines.innerText()).replace(/\u00a0/g, ' ');
  /**
   * Puts `text` in the active editor in place of what it holds, pasted (typing races the editor's auto-closed
   * brackets and quotes), and reads it back: on a busy machine the select-all came before the editor had the
   * focus, and the paste landed inside what was there. Pasted again over it, as a user would. @param {string} text
   */
  const replaceEditorText = async (text) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.evaluate((t) => navigator.clipboard.writeText(t), text);
    const bare = (/** @type {string} */ t) => t.replace(/\s+/g, '');
    for (let attempt = 1; ; attempt++) {
      await editorLines.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Control+V');
      let held = '';
      // The editor draws the paste a frame or more later.
      for (const end = Date.now() + 3_000; bare(held) !== bare(text) && Date.now() < end; await page.waitForTimeout(200)) held = await editorText();
      if (bare(held) === bare(text)) return;
      if (attempt === 3) throw new Error(`the editor holds ${held}, not ${text}`);
    }
  };

  return {
    results, shot, check, session, openWorkbench, quickInput, promptTitle, promptRow, sidebar, row, viewTitle, openView, palette, paletteRows, paletteOffers, runCommand, widenSidebar, hover, addStdioServer, editorText, replaceEditorText,
    /** Waits until the Output panel shows text matching `re`, and returns that text. @param {RegExp} re @param {number} [ms] */
    waitOutput: (re, ms) => waitOutput(page, re, ms),
  };
}
