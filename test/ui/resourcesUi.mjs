// UI tests of a server's resources in the Tools view, in the real workbench (code-server) through
// Chromium: the Resources row, a text resource and an image opened from their rows, a template
// filled with the server's completions as the user types, Browse Resources... and Set Log Level...
// from the command palette. Screenshots: resources-NN-name.png.
import fs from 'node:fs';
import path from 'node:path';
import { e2eEnv, launchBrowser } from '../../scripts/e2e/codeServer.mjs';
import { workbenchPage } from './workbenchPage.mjs';

const SERVERS_KEY = 'mcpToolHost.servers';

/**
 * @param {import('../../scripts/e2e/codeServer.mjs').CodeServer} cs
 * @param {import('./workbenchPage.mjs').UiSuiteOptions} options
 * @returns {Promise<import('./workbenchPage.mjs').UiResults>}
 */
export async function runResourcesUiTests(cs, { runDir, shotsDir, root, log = console.log }) {
  const { NODE24 } = e2eEnv();
  const ws = path.join(runDir, 'resources-ui-ws');
  fs.rmSync(ws, { recursive: true, force: true });
  fs.mkdirSync(ws, { recursive: true });
  // User settings are shared with the other suites: keep what was there and put it back at the end.
  const userSettings = path.join(runDir, 'ud/User/settings.json');
  const original = fs.readFileSync(userSettings, 'utf8');
  const settings = JSON.parse(original);
  const shelf = { command: NODE24, args: [path.join(root, 'test/fixtures/servers/offers-vs-shelf.cjs')] };
  fs.writeFileSync(userSettings, JSON.stringify({ ...settings, [SERVERS_KEY]: { shelf } }, null, 2));

  const browser = await launchBrowser();
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const ui = workbenchPage(page, { shotsDir, prefix: 'resources', log });
  const { shot, check, openWorkbench, sidebar, row, openView, widenSidebar, quickInput, promptTitle, promptRow, runCommand } = ui;
  const editorArea = page.locator('.part.editor');

  await ui.session(
    'resources UI',
    async () => {
      await openWorkbench(cs.url(ws));
      await openView();
      await row(/^shelf/).waitFor({ timeout: 60_000 });
      await widenSidebar(200);

      /**
       * Clicks a resource row until its tab opens: the rows may still move as the listing settles, so
       * a click that landed on a neighbour is made again (once).
       * @param {RegExp} name the row's label
       * @param {string} tab the opened tab's title
       */
      const openRow = async (name, tab) => {
        for (let attempt = 1; ; attempt++) {
          await row(name).click();
          try {
            await page.locator('.tab', { hasText: tab }).waitFor({ timeout: 10_000 });
            return;
          } catch (err) {
            if (attempt === 2) throw err;
            await page.keyboard.press('Escape');
          }
        }
      };

      /**
       * Opens a group row as a user does: a click, then a look; a click that a redraw of the rows took
       * (the row is still closed) is made again (once). A row already open is left open.
       * @param {RegExp} name the row's label
       */
      const expand = async (name) => {
        const open = page.getByRole('treeitem', { name, expanded: true }).first();
        for (let attempt = 1; ; attempt++) {
          if (!(await open.isVisible())) await row(name).click();
          try {
            await open.waitFor({ timeout: 5_000 });
            return;
          } catch (err) {
            if (attempt === 2) throw err;
          }
        }
      };

      await check('the Resources row counts them; clicking a text resource opens it read-only as markdown', async () => {
        await row(/^Resources/).filter({ hasText: '8 resources' }).waitFor({ timeout: 20_000 });
        await expand(/^Resources/);
        await openRow(/^Shelf readme/, 'readme.md');
        await editorArea.locator('.view-lines', { hasText: 'hello from the shelf' }).waitFor({ timeout: 20_000 });
        await shot('text-resource-open');
      });

      await check('clicking an image resource shows it in the image preview', async () => {
        await openRow(/^logo\.png/, 'logo.png');
        await page.frameLocator('iframe.webview.ready').frameLocator('iframe').locator('img').waitFor({ timeout: 20_000 });
        await shot('image-resource-open');
      });

      await check('a template row asks its variable with the server\'s completions as the user types, then opens the resource', async () => {
        await expand(/^Resource Templates/);
        await row(/^A color/).click();
        await promptTitle(/A color: color/);
        await page.keyboard.type('bl');
        await promptRow('blue').waitFor({ timeout: 10_000 });
        await promptRow('black').waitFor({ timeout: 10_000 });
        await promptRow('green').waitFor({ state: 'detached', timeout: 10_000 });
        await shot('template-completions');
        await promptRow('blue').click();
        await quickInput.waitFor({ state: 'hidden', timeout: 10_000 });
        await editorArea.locator('.view-lines', { hasText: 'the color blue' }).waitFor({ timeout: 20_000 });
        await shot('template-resource-open');
        await shot('tree-with-resources', sidebar);
      });

      await check('Browse Resources... from the command palette lists the server\'s resources and templates; the one picked opens', async () => {
        await page.keyboard.press('Escape');
        // The one server that offers resources is picked without asking.
        await runCommand('MCP Tool Host: Browse Resources...');
        await promptTitle(/Resources of shelf/);
        await promptRow('Shelf readme').waitFor({ timeout: 10_000 });
        await promptRow('A color').waitFor({ timeout: 10_000 });
        await shot('browse-resources-palette');
        await page.keyboard.type('counter');
        await promptRow('counter').waitFor({ timeout: 10_000 });
        await page.keyboard.press('Enter');
        await quickInput.waitFor({ state: 'hidden', timeout: 10_000 });
        await editorArea.locator('.view-lines', { hasText: /count\s\d+/ }).waitFor({ timeout: 20_000 });
        await page.locator('.tab', { hasText: 'counter' }).waitFor({ timeout: 10_000 });
        await shot('browse-resources-opened');
      });

      await check('Set Log Level... from the palette: the level picked in the quick pick reaches the server (its log shows the server\'s answer)', async () => {
        await page.keyboard.press('Escape');
        await runCommand('MCP Tool Host: Set Log Level...');
        await promptTitle(/Set the log level of which server/);
        await promptRow('shelf').click();
        await promptTitle(/Log level of shelf/);
        await promptRow('warning').waitFor({ timeout: 10_000 });
        await shot('log-level-pick');
        await promptRow('warning').click();
        await quickInput.waitFor({ state: 'hidden', timeout: 10_000 });
        // The shelf server answers logging/setLevel with a log message naming the level it was sent.
        await runCommand('MCP Tool Host: Show Server Log...');
        await promptTitle(/Show the log of which server/);
        await promptRow('shelf').click();
        const output = page.locator('.part.panel .view-lines');
        await output.filter({ hasText: 'now logging at warning' }).waitFor({ timeout: 20_000 });
        await shot('log-level-server-log');
      });
    },
    async () => {
      await browser.close();
      fs.writeFileSync(userSettings, original);
    },
  );
  return ui.results;
}
