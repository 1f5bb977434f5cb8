// UI tests of a server's resources in the Tools view, in the real workbench (code-server) through
// Chromium: the Resources row, a text resource and an image opened from their rows, a template
// filled with the server's completions as the user types. Screenshots: resources-NN-name.png.
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
  const { shot, check, openWorkbench, sidebar, row, openView, widenSidebar, quickInput, promptTitle, promptRow } = ui;
  const editorArea = page.locator('.part.editor');

  await ui.session(
    'resources UI',
    async () => {
      await openWorkbench(cs.url(ws));
      await openView();
      await row(/^shelf/).waitFor({ timeout: 60_000 });
      await widenSidebar(200);

      await check('the Resources row counts them; clicking a text resource opens it read-only as markdown', async () => {
        await row(/^Resources/).filter({ hasText: '8 resources' }).waitFor({ timeout: 20_000 });
        await row(/^Resources/).click();
        await row(/^Shelf readme/).click();
        await editorArea.locator('.view-lines', { hasText: 'hello from the shelf' }).waitFor({ timeout: 20_000 });
        await page.locator('.tab', { hasText: 'readme.md' }).waitFor({ timeout: 10_000 });
        await shot('text-resource-open');
      });

      await check('clicking an image resource shows it in the image preview', async () => {
        // The rows may still move as the listing settles: a click that landed on a neighbour is made again.
        for (let attempt = 1; ; attempt++) {
          await row(/^logo\.png/).click();
          try {
            await page.locator('.tab', { hasText: 'logo.png' }).waitFor({ timeout: 10_000 });
            break;
          } catch (err) {
            if (attempt === 2) throw err;
            await page.keyboard.press('Escape');
          }
        }
        await page.frameLocator('iframe.webview.ready').frameLocator('iframe').locator('img').waitFor({ timeout: 20_000 });
        await shot('image-resource-open');
      });

      await check('a template row asks its variable with the server\'s completions as the user types, then opens the resource', async () => {
        await row(/^Resource Templates/).click();
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
    },
    async () => {
      await browser.close();
      fs.writeFileSync(userSettings, original);
    },
  );
  return ui.results;
}
