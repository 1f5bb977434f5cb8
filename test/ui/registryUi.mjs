// UI test of "Add Server from Registry..." in the real workbench (code-server) through Chromium,
// against the fixture registry (test/fixtures/registry, loopback only): a search as the user types,
// the rows it finds, a hostile entry whose way to run says why it cannot be installed, then an
// install shown whole first (what will run, the registry's claims under their heading), its name,
// and a call of a tool of the installed server from the Tools view. Screenshots: registry-NN-name.png.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { launchBrowser } from '../../scripts/e2e/codeServer.mjs';
import { untilText, workbenchPage } from './workbenchPage.mjs';

const require = createRequire(import.meta.url);
/** The fixture registry: required by a computed path, so the scripts' typecheck does not take in its CommonJS. */
const REGISTRY_SERVER = ['..', 'fixtures', 'registry', 'registryServer.cjs'].join('/');
/** @type {{ startRegistry(): Promise<{ url: string, requests: string[], close(): Promise<void> }> }} */
const { startRegistry } = require(REGISTRY_SERVER);

const SERVERS_KEY = 'mcpToolHost.servers';
const REGISTRY_KEY = 'mcpToolHost.registry.url';
const COMMAND = 'MCP Tool Host: Add Server from Registry...';
const PICK_TITLE = 'MCP Tool Host: Add Server from Registry';

/**
 * @param {import('../../scripts/e2e/codeServer.mjs').CodeServer} cs
 * @param {import('./workbenchPage.mjs').UiSuiteOptions} options
 * @returns {Promise<import('./workbenchPage.mjs').UiResults>}
 */
export async function runRegistryUiTests(cs, { runDir, shotsDir, root, log = console.log }) {
  const everything = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/@modelcontextprotocol/server-everything/package.json'), 'utf8')).version;
  // The entry runs `npx -y @modelcontextprotocol/server-everything@<version>` in the workspace folder:
  // with the checkout's node_modules there and npm offline, npx finds it without the network.
  const ws = path.join(runDir, 'registry-ui-ws');
  fs.rmSync(ws, { recursive: true, force: true });
  fs.mkdirSync(ws, { recursive: true });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(ws, 'node_modules'));
  fs.writeFileSync(path.join(ws, '.npmrc'), 'offline=true\n');

  const registry = await startRegistry();
  // User settings are shared with the other suites: keep what was there and put it back at the end.
  const userSettings = path.join(runDir, 'ud/User/settings.json');
  const original = fs.readFileSync(userSettings, 'utf8');
  const settings = JSON.parse(original);
  fs.writeFileSync(userSettings, JSON.stringify({ ...settings, [SERVERS_KEY]: {}, [REGISTRY_KEY]: registry.url }, null, 2));
  /** The servers the user settings hold now. @returns {Record<string, unknown>} */
  const userServers = () => JSON.parse(fs.readFileSync(userSettings, 'utf8'))[SERVERS_KEY] ?? {};

  const browser = await launchBrowser().catch(async (err) => {
    await registry.close();
    throw err;
  });
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const ui = workbenchPage(page, { shotsDir, prefix: 'registry', log });
  const { shot, check, openWorkbench, quickInput, promptTitle, promptRow, sidebar, row, openView, runCommand, widenSidebar, waitOutput } = ui;
  const focusedRow = () => quickInput.locator('.monaco-list-row.focused');
  /** Opens the command and types `query` into its search; waits until an entry row matching `wanted` is shown. @param {string} query @param {string} wanted */
  const search = async (query, wanted) => {
    await runCommand(COMMAND);
    await promptTitle(PICK_TITLE, 20_000);
    await page.keyboard.type(query);
    // The registry answers a pause in typing: until then the rows of the empty search are on screen.
    const rows = quickInput.locator('.monaco-list-row');
    await untilText(page, async () => (await rows.allInnerTexts()).map((t) => (t.includes(wanted) ? 'wanted' : 'other')).join(' '), /^wanted$/, 20_000, (last) => `the search "${query}" never showed only "${wanted}": ${last}`);
  };
  /**
   * What the open quick input cuts (an ellipsis where a row ran out of room): the text of each cut
   * part of a row (its label with its description, or its detail line).
   * @returns {Promise<string[]>}
   */
  const cutParts = () => quickInput.locator('.monaco-list-row').evaluateAll((els) =>
    els.flatMap((el) => Array.from(el.querySelectorAll('*')).filter((c) => getComputedStyle(c).textOverflow === 'ellipsis' && c.scrollWidth > c.clientWidth + 1).map((c) => (c.textContent ?? '').replace(/\u00a0/g, ' '))),
  );

  await ui.session(
    'registry UI',
    async () => {
      await openWorkbench(cs.url(ws));
      await openView();
      await widenSidebar(200);

      await check('the registry is searched as the user types: each row shows title, version, namespace, where it runs and its repository', async () => {
        await search('everything', 'Everything');
        const texts = await quickInput.locator('.monaco-list-row').allInnerTexts();
        const text = texts.join('\n---\n').replace(/\u00a0/g, ' ');
        if (texts.length !== 1) throw new Error(`"everything" should find one server; the pick shows:\n${text}`);
        for (const part of ['Everything', `${everything} · npm · io.github.modelcontextprotocol`, 'MCP server that exercises all the features', 'github.com/modelcontextprotocol/servers']) {
          if (!text.includes(part)) throw new Error(`the row does not show "${part}":\n${text}`);
        }
        if (!registry.requests.some((r) => /search=everything/.test(r))) throw new Error(`the registry was never asked for "everything": ${registry.requests.join(', ')}`);
        // What a user needs to tell servers apart is never cut: the title, version, publisher, where it runs, and the repository first on the line below.
        const cut = await cutParts();
        if (cut.some((c) => c.includes(' · '))) throw new Error(`cut: ${JSON.stringify(cut)}`);
        const detail = (await quickInput.locator('.monaco-list-row').first().locator('.quick-input-list-row').nth(1).innerText().catch(() => '')).trim();
        if (!detail.startsWith('https://github.com/modelcontextprotocol/servers')) throw new Error(`the line below the title does not start with the repository: "${detail}"`);
        await shot('search-results');
        await page.keyboard.press('Escape');
      });

      await check("all the registry's servers, hostile ones among them: no escape sequence or control character reaches the rows", async () => {
        await runCommand(COMMAND);
        await promptTitle(PICK_TITLE, 20_000);
        await promptRow('Everything').waitFor({ timeout: 20_000 });
        await promptRow('Totally').waitFor({ timeout: 20_000 });
        const text = (await quickInput.innerText()).replace(/\u00a0/g, ' ');
        // A server without a title is shown by its name, which starts with its publisher: where it runs is never pushed out.
        const cut = await cutParts();
        if (cut.some((c) => c.includes(' · '))) throw new Error(`cut: ${JSON.stringify(cut)}`);
        // eslint-disable-next-line no-control-regex
        if (/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(text)) throw new Error(`a control or bidi character reached the pick: ${JSON.stringify(text.slice(0, 400))}`);
        await shot('all-servers-with-hostile');
        await page.keyboard.press('Escape');
      });

      await check('a hostile entry (an npm name with shell metacharacters): its way to run says why, and cannot be chosen', async () => {
        const before = JSON.stringify(userServers());
        await search('shell-npm', 'shell-npm');
        await promptRow('shell-npm').click();
        await promptTitle(/how should it run\?$/);
        const option = promptRow('cannot be installed');
        await option.waitFor({ timeout: 10_000 });
        const text = (await quickInput.innerText()).replace(/\u00a0/g, ' ');
        if (!/curl https:\/\/evil\.example/.test(text) || !/npm/i.test(text)) throw new Error(`the option does not show what it is and why it is refused:\n${text}`);
        await shot('hostile-option-refused');
        await option.click();
        await page.keyboard.press('Enter');
        await page.waitForTimeout(800);
        // Still the same pick: nothing was chosen, nothing shown next, nothing written.
        await promptTitle(/how should it run\?$/, 2_000);
        if (JSON.stringify(userServers()) !== before) throw new Error(`written: ${JSON.stringify(userServers())}`);
        await page.keyboard.press('Escape');
        await quickInput.waitFor({ state: 'hidden', timeout: 5_000 });
      });

      await check('choosing a server shows what will run and the registry\'s claims under their heading, starting on "Do not install"; Install is taken only after a moment', async () => {
        await search('everything', 'Everything');
        await promptRow('Everything').click();
        await promptTitle(/^Install server "everything"\?$/);
        const text = (await quickInput.innerText()).replace(/\u00a0/g, ' ');
        // Every row whole: a heading never takes the room of the row it sits on.
        const problems = (await cutParts()).map((c) => `cut: ${c}`);
        for (const part of [
          'It will run',
          `npx -y @modelcontextprotocol/server-everything@${everything}`,
          'From',
          'What the registry claims about it (not checked)',
          'Description: MCP server that exercises all the features',
          // Its hints are trusted as every server of the user's settings is (the workspace's list has nothing to do with it).
          'Tool hints trusted, as for every server in your user settings',
          'Do not install',
        ]) {
          if (!text.includes(part)) problems.push(`not shown: ${part}`);
        }
        if (problems.length) throw new Error(`${problems.join('; ')}\n${text}`);
        const active = await focusedRow().innerText();
        if (!active.includes('Do not install')) throw new Error(`the prompt starts on "${active}"`);
        if (Object.keys(userServers()).length) throw new Error('written before the user chose');
        await page.waitForTimeout(600); // the prompt takes nothing in its first 500 ms
        await shot('what-will-run');
        await page.keyboard.press('ArrowUp');
        if (!(await focusedRow().innerText()).includes('Install')) throw new Error(`the row above "Do not install" is "${await focusedRow().innerText()}"`);
        await page.keyboard.press('Enter');
      });

      await check('the name (suggested from the entry), no sandbox here, then the server runs in the Tools view with its tools', async () => {
        const title = await promptTitle(/: name$/);
        const suggested = await quickInput.locator('input').inputValue();
        if (suggested !== 'everything') throw new Error(`suggested name "${suggested}" (${await title.innerText()})`);
        await page.keyboard.press('Control+A');
        await page.keyboard.type('registry-everything');
        await shot('name');
        await page.keyboard.press('Enter');
        // The sandbox is offered where this machine can sandbox: declined, so the run is the same where it cannot.
        const offer = quickInput.locator('.quick-input-title', { hasText: /in a sandbox\?$/ });
        await offer.or(row(/^registry-everything/)).first().waitFor({ timeout: 20_000 });
        if (await offer.isVisible()) {
          await shot('sandbox-offer');
          await promptRow('Run it without a sandbox').click();
        }
        const server = row(/^registry-everything/);
        await server.waitFor({ timeout: 30_000 });
        const entry = /** @type {{ command?: string, args?: string[] } | undefined} */ (userServers()['registry-everything']);
        if (entry?.command !== 'npx' || entry.args?.join(' ') !== `-y @modelcontextprotocol/server-everything@${everything}`) throw new Error(`written: ${JSON.stringify(entry)}`);
        await row(/^Echo Tool|^echo/).waitFor({ timeout: 90_000 });
        await shot('installed-server-with-tools', sidebar);
      });

      await check('a tool of the installed server is called from the Tools view, its result in the output channel', async () => {
        await row(/^Echo Tool|^echo/).click();
        const step = quickInput.locator('.quick-input-title', { hasText: /Echo/ });
        await step.waitFor({ timeout: 15_000 });
        await page.keyboard.type('hello from the registry');
        await page.keyboard.press('Enter');
        await waitOutput(/Echo: hello from the registry/, 30_000);
        await page.mouse.move(700, 880); // the row's hover would cover the tree
        await page.waitForTimeout(300);
        await shot('tool-result');
      });
    },
    async () => {
      await browser.close();
      fs.writeFileSync(userSettings, original);
      await registry.close();
    },
  );
  return ui.results;
}
