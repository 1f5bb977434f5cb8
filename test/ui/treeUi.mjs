// UI tests of the Tools view (issue 5) in the real workbench (code-server) through Chromium: the
// welcome view, the palette's `when` clauses, the Add Server wizard, every server state and
// badge kind, tooltips, menus, Show Schema, Run Doctor, the badge, the status bar and the
// walkthrough. Each check is counted; screenshots go to shotsDir as tree-NN-name.png.
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
export async function runTreeUiTests(cs, { runDir, shotsDir, root, log = console.log }) {
  const { NODE24 } = e2eEnv();
  const demo = path.join(root, 'dist/demo-server.js');
  const ws = path.join(runDir, 'tree-ui-ws');
  fs.rmSync(ws, { recursive: true, force: true });
  fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });

  // User settings are shared with the other suites: keep what was there and put it back at the end.
  const userSettings = path.join(runDir, 'ud/User/settings.json');
  const original = fs.readFileSync(userSettings, 'utf8');
  const writeServers = (/** @type {Record<string, unknown> | undefined} */ servers) => {
    const settings = JSON.parse(fs.readFileSync(userSettings, 'utf8'));
    if (servers) settings[SERVERS_KEY] = servers;
    else delete settings[SERVERS_KEY];
    fs.writeFileSync(userSettings, JSON.stringify(settings, null, 2));
  };

  const browser = await launchBrowser();
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const ui = workbenchPage(page, { shotsDir, prefix: 'tree', log });
  const { shot, check, openWorkbench, quickInput, sidebar, row, viewTitle, openView, palette, paletteOffers, runCommand, widenSidebar, hover, addStdioServer } = ui;

  await ui.session('tree UI', async () => {
      writeServers(undefined);
      await openWorkbench(cs.url(ws));

      await check('with no server, the welcome view offers Add Demo Server, Add Server from Registry, Add Server, Import and Open Settings', async () => {
        await openView();
        const welcome = page.locator('.welcome-view-content');
        for (const name of ['Add Demo Server', 'Add Server from Registry...', 'Add Server...', 'Import Servers...', 'Open Settings']) {
          await welcome.getByRole('button', { name }).waitFor({ timeout: 30_000 });
        }
        await shot('welcome-view');
      });

      await check('with no server, the palette hides server and tool commands and never shows tree-only ones', async () => {
        const shown = ['MCP Tool Host: Add Server...', 'MCP Tool Host: Add Server from Registry...', 'MCP Tool Host: Add Demo Server', 'MCP Tool Host: Import Servers...', 'MCP Tool Host: Open Settings', 'MCP Tool Host: Get Started'];
        const hidden = ['MCP Tool Host: Call Tool...', 'MCP Tool Host: Stop Server...', 'MCP Tool Host: Start Server...', 'MCP Tool Host: Restart Server...', 'MCP Tool Host: Run Doctor...', 'MCP Tool Host: Show Server Log...', 'MCP Tool Host: Copy Name', 'MCP Tool Host: Call', 'MCP Tool Host: Show Schema'];
        const offered = await paletteOffers([...shown, ...hidden]);
        const missing = shown.filter((t) => !offered.includes(t));
        const wrong = hidden.filter((t) => offered.includes(t));
        if (missing.length || wrong.length) throw new Error(`missing: ${missing.join(', ')}; shown without servers: ${wrong.join(', ')}`);
        await palette('MCP Tool Host: ');
        await shot('palette-no-servers');
        await page.keyboard.press('Escape');
      });

      await check('"MCP Tool Host: Add Server..." from the palette: stdio command, suggested name, and the server runs', async () => {
        const suggested = await addStdioServer(`${NODE24} "${demo}"`, 'notes', async (step) => {
          if (step === 'kind') await shot('add-server-kind');
          if (step === 'command') {
            // Typed without its closing quote first: the live check says so.
            await page.keyboard.press('Backspace');
            await quickInput.locator('.quick-input-message', { hasText: 'double quote is not closed' }).waitFor({ timeout: 5_000 });
            await page.keyboard.type('"');
          }
          if (step === 'name') await shot('add-server-name');
        });
        if (suggested !== 'demo') throw new Error(`suggested name "${suggested}"`);
        await row(/^notes/).waitFor({ timeout: 30_000 });
        await page.getByRole('treeitem', { name: /List Notes/ }).first().waitFor({ timeout: 30_000 });
        // "starting it…" closes itself once the server runs (a toast saying "it is starting" outlived the start), and the status bar says it runs.
        await page.locator('.part.statusbar', { hasText: '"notes" is running' }).waitFor({ timeout: 10_000 });
        await page.locator('.notification-toast', { hasText: 'starting it' }).waitFor({ state: 'detached', timeout: 15_000 });
        await shot('add-server-running');
        const settings = JSON.parse(fs.readFileSync(userSettings, 'utf8'))[SERVERS_KEY];
        if (settings?.notes?.command !== NODE24 || settings.notes.args[0] !== demo) throw new Error(`settings hold ${JSON.stringify(settings)}`);
        await page.keyboard.press('Escape');
      });

      await check('every server state and badge kind reads at a glance', async () => {
        const notes = JSON.parse(fs.readFileSync(userSettings, 'utf8'))[SERVERS_KEY].notes;
        // The workbench does not notice a settings file written behind its back: close it, write, reopen.
        await page.goto('about:blank');
        await page.waitForTimeout(3000);
        writeServers({
          demo: { command: NODE24, args: [demo] },
          notes,
          missing: { command: 'definitely-not-installed-mcp', args: ['--stdio'] },
          paused: { command: NODE24, args: [demo], disabled: true },
          broken: { args: ['server.js'] },
          // Sandboxed (issue 17): it may write only in the workspace and reach no network.
          boxed: { command: NODE24, args: [demo], sandbox: { filesystem: { allowWrite: [ws], denyRead: ['~/.ssh'] }, network: 'none' } },
        });
        fs.writeFileSync(path.join(ws, '.vscode/mcp.json'), JSON.stringify({ servers: { wsnotes: { type: 'stdio', command: NODE24, args: [demo] } } }, null, 2));
        await openWorkbench(cs.url(ws));
        await openView();
        const prompt = quickInput.locator('.quick-input-title', { hasText: 'Run server "wsnotes" defined by this workspace?' });
        await prompt.waitFor({ timeout: 30_000 });
        await page.waitForTimeout(600); // the launch prompt takes nothing in its first 500 ms
        await quickInput.locator('.monaco-list-row', { hasText: 'Start server' }).click();
        const hideAux = page.locator('.part.auxiliarybar .action-label[aria-label*="Secondary Side Bar"]').filter({ hasNot: page.locator('.codicon-screen-full') });
        if (await hideAux.count()) await hideAux.last().click().catch(() => undefined);
        await row(/^missing/).waitFor({ timeout: 30_000 });
        await page.getByRole('treeitem', { name: /Run Doctor/ }).first().waitFor({ timeout: 30_000 });
        // The sandboxed server's tools would push the rows below out of sight (a tree draws only what is in view).
        await row(/^boxed/).filter({ hasText: '9 tools' }).waitFor({ timeout: 30_000 });
        if ((await row(/^boxed/).getAttribute('aria-expanded')) === 'true') await row(/^boxed/).locator('.monaco-tl-twistie').click();
        await row(/^wsnotes/).waitFor({ timeout: 30_000 });
        await page.waitForTimeout(1500);
        // Collapse the servers whose rows repeat the demo's, so the picture holds every state.
        for (const name of [/^notes/, /^wsnotes/]) {
          const r = row(name);
          if ((await r.getAttribute('aria-expanded')) === 'true') await r.locator('.monaco-tl-twistie').click();
        }
        // At the default sidebar width every tool row is whole, badges included (they were cut to "idemp…").
        const cut = await sidebar.locator('.monaco-list-row[aria-level="2"]').evaluateAll((rows) =>
          rows
            .map((r) => ({ text: /** @type {HTMLElement} */ (r).innerText.replace(/\n/g, ' '), label: r.querySelector('.monaco-icon-label-container') }))
            .filter((r) => r.label && /read-only|writes|destructive/.test(r.text) && r.label.scrollWidth > r.label.clientWidth + 1)
            .map((r) => r.text),
        );
        if (cut.length) throw new Error(`tool rows cut at the default width: ${cut.join(' | ')}`);
        await shot('tree-default-width', sidebar);
        await widenSidebar(260);
        await page.waitForTimeout(500);
        const demoTools = await sidebar.innerText();
        for (const text of ['read-only', 'writes', 'destructive', 'read-only · open-world', 'destructive? · open-world?', '9 tools · v0.1.0', 'disabled', 'configuration error', 'Show Log', 'Restart', 'Run Doctor']) {
          if (!demoTools.includes(text)) throw new Error(`the view does not show "${text}"`);
        }
        await shot('tree-all-states');
      });

      await check('the view badge counts the failed server and the broken entry; the status bar shows running servers', async () => {
        const badge = page.locator('.activitybar .badge-content').filter({ hasText: /^2$/ });
        await badge.first().waitFor({ timeout: 10_000 });
        const status = page.locator('.statusbar-item', { hasText: /MCP 4\/6/ });
        await status.first().waitFor({ timeout: 10_000 });
        await shot('status-bar', page.locator('.part.statusbar'));
      });

      await check('an untrusted workspace server marks its tools as assumed and not trusted', async () => {
        const r = row(/^wsnotes/);
        if ((await r.getAttribute('aria-expanded')) !== 'true') await r.locator('.monaco-tl-twistie').click();
        const listNotes = page.getByRole('treeitem', { name: /List Notes, declared read-only, not trusted/ });
        await listNotes.first().waitFor({ timeout: 10_000 });
        await listNotes.first().scrollIntoViewIfNeeded();
        await shot('tree-untrusted', sidebar);
        const tip = await hover(listNotes.first());
        if (!/not trusted/.test(tip)) throw new Error(`tooltip: ${tip}`);
        await shot('tooltip-untrusted-tool');
        await r.locator('.monaco-tl-twistie').click();
      });

      await check('a tool tooltip explains arguments, effects and hint sources', async () => {
        const tip = await hover(row(/^Fetch URL/));
        for (const want of ['url*', 'maxChars', 'Asks before each call', 'open-world: yes (declared)']) if (!tip.includes(want)) throw new Error(`tooltip lacks "${want}": ${tip}`);
        await shot('tooltip-tool');
        const echo = await hover(row(/^echo/));
        if (!echo.includes('spec default')) throw new Error(`echo tooltip: ${echo}`);
        await shot('tooltip-tool-defaults');
      });

      await check('a server tooltip shows version, protocol, capabilities, instructions and launch line', async () => {
        const tip = await hover(row(/^demo/).locator('.label-name'));
        for (const want of ['mcp-tool-host-demo 0.1.0', 'Protocol', 'Capabilities', 'A demo server', 'demo-server.js']) if (!tip.includes(want)) throw new Error(`tooltip lacks "${want}": ${tip}`);
        await shot('tooltip-server');
        const boxed = await hover(row(/^boxed/).locator('.label-name'));
        for (const want of ['Sandboxed: it may reach only', ws, 'network']) if (!boxed.includes(want)) throw new Error(`the sandboxed server's tooltip lacks "${want}": ${boxed}`);
        if (!(await row(/^boxed/).innerText()).includes('sandboxed')) throw new Error('the sandboxed server\'s row does not say "sandboxed"');
        await shot('tooltip-sandboxed-server');
        const err = await hover(row(/^missing/).locator('.label-name'));
        if (!err.includes('was not found')) throw new Error(`error tooltip: ${err}`);
        await shot('tooltip-error-server');
        await page.mouse.move(5, 5);
      });

      await check('right-click on a tool offers Call, Show Schema and Copy Name; on a server its lifecycle and fixes', async () => {
        await row(/^Delete Note/).click({ button: 'right' });
        const menu = page.locator('.context-view .monaco-menu');
        for (const item of ['Call', 'Show Schema', 'Copy Name']) await menu.locator('.action-label', { hasText: new RegExp(`^${item}$`) }).waitFor({ timeout: 5_000 });
        await shot('context-menu-tool');
        await page.keyboard.press('Escape');
        await row(/^demo/).click({ button: 'right' });
        for (const item of ['Stop', 'Restart', 'Show Log', 'Run Doctor', 'Open Configuration']) await menu.locator('.action-label', { hasText: new RegExp(`^${item}$`) }).waitFor({ timeout: 5_000 });
        if (await menu.locator('.action-label', { hasText: /^Start$/ }).count()) throw new Error('Start is offered for a running server');
        await shot('context-menu-server');
        await page.keyboard.press('Escape');
        // A server that failed and gave up has nothing to stop: Start and Restart, never Stop (menu or row).
        await row(/^missing/).click({ button: 'right' });
        for (const item of ['Start', 'Restart', 'Show Log', 'Run Doctor', 'Open Configuration']) await menu.locator('.action-label', { hasText: new RegExp(`^${item}$`) }).waitFor({ timeout: 5_000 });
        if (await menu.locator('.action-label', { hasText: /^Stop$/ }).count()) throw new Error('Stop is offered for a server that gave up');
        await shot('context-menu-failed-server');
        await page.keyboard.press('Escape');
        await row(/^missing/).hover();
        const inline = await row(/^missing/).locator('.actions .action-label').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
        if (inline.some((label) => /^Stop/.test(label ?? ''))) throw new Error(`the failed server's row has a Stop button: ${inline.join(', ')}`);
      });

      await check('the inline Show Schema action opens the tool definition as read-only JSON', async () => {
        const r = row(/^Fetch URL/);
        await r.hover();
        await r.locator('.action-label[aria-label="Show Schema"]').click();
        await page.locator('.tab', { hasText: 'fetch_url.json' }).waitFor({ timeout: 10_000 });
        const text = (await page.locator('.editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
        if (!text.includes('"inputSchema"') || !text.includes('"readOnlyHint": true')) throw new Error(`editor shows: ${text.slice(0, 300)}`);
        await page.locator('.editor-instance .view-lines').first().click();
        await page.keyboard.type('x');
        await page.getByText('Cannot edit in read-only editor').first().waitFor({ timeout: 5_000 });
        await shot('show-schema');
      });

      await check('Run Doctor under the failed server writes a step-by-step report to its log', async () => {
        await row(/^Run Doctor/).click();
        const output = page.locator('.part.panel .view-lines').first();
        const end = Date.now() + 30_000;
        let text = '';
        while (Date.now() < end) {
          text = (await output.innerText().catch(() => '')).replace(/\u00a0/g, ' ');
          if (/\[FAILED\] spawn: Command/.test(text)) break; // the view renders only the lines in sight
          await page.waitForTimeout(250);
        }
        if (!/\[FAILED\] spawn/.test(text)) throw new Error(`log shows: ${text.slice(-500)}`);
        await page.waitForTimeout(300);
        await shot('doctor-report');
      });

      await check('with servers, the palette offers Call Tool, Stop, Restart and Run Doctor, and hides Add Demo Server', async () => {
        const shown = ['MCP Tool Host: Call Tool...', 'MCP Tool Host: Stop Server...', 'MCP Tool Host: Restart Server...', 'MCP Tool Host: Run Doctor...', 'MCP Tool Host: Start Server...', 'MCP Tool Host: Show Tool Schema...', 'MCP Tool Host: Show Server Log...', 'MCP Tool Host: Open Server Configuration...'];
        const hidden = ['MCP Tool Host: Add Demo Server', 'MCP Tool Host: Copy Name', 'MCP Tool Host: Show Log'];
        const offered = await paletteOffers([...shown, ...hidden]);
        const missing = shown.filter((t) => !offered.includes(t));
        const wrong = hidden.filter((t) => offered.includes(t));
        if (missing.length || wrong.length) throw new Error(`missing: ${missing.join(', ')}; wrongly shown: ${wrong.join(', ')}`);
        await palette('MCP Tool Host: S');
        await shot('palette-with-servers');
        await page.keyboard.press('Escape');
      });

      await check('"MCP Tool Host: Stop Server..." from the palette stops the server, and the row says so', async () => {
        await runCommand('MCP Tool Host: Stop Server...');
        await quickInput.locator('.monaco-list-row', { hasText: 'notes' }).first().waitFor({ timeout: 10_000 });
        await page.keyboard.type('notes');
        await page.keyboard.press('Enter');
        await page.getByRole('treeitem', { name: /^notes/ }).filter({ hasText: 'stopped · 9 cached tools' }).waitFor({ timeout: 15_000 });
        await shot('tree-stopped-cached', sidebar);
      });

      await check('the status bar item focuses the view; "MCP Tool Host: Get Started" opens the walkthrough', async () => {
        await page.keyboard.press('Control+Shift+E');
        await viewTitle.waitFor({ state: 'hidden', timeout: 10_000 });
        await page.locator('.statusbar-item', { hasText: /MCP \d\/6/ }).first().click();
        await viewTitle.waitFor({ timeout: 10_000 });
        await page.locator('.part.panel .action-label[aria-label^="Hide Panel"], .part.panel .action-label[aria-label^="Close Panel"]').first().click().catch(() => undefined);
        await runCommand('MCP Tool Host: Get Started');
        await page.getByText('Get Started with MCP Tool Host').first().waitFor({ timeout: 15_000 });
        await page.getByText('Configure a server').first().waitFor({ timeout: 10_000 });
        // Without the side bar the page is wide enough to show each step's picture.
        await page.keyboard.press('Control+B');
        await page.getByText('Call a tool').first().click();
        await page.locator('.getting-started-media').first().waitFor({ timeout: 10_000 });
        await page.waitForTimeout(1500);
        await shot('walkthrough');
        await page.getByText('Approve a call').first().click();
        await page.waitForTimeout(1500);
        await shot('walkthrough-approve');
        await page.getByText('Sandbox your servers (recommended)').first().click();
        // The step's markdown renders in a webview frame: wait for the frame's text.
        await page.frameLocator('iframe').first().frameLocator('iframe').first().getByText('Fence your servers').first().waitFor({ timeout: 10_000 }).catch(() => page.waitForTimeout(2000));
        await page.getByText('Sandbox Every Local Server').first().waitFor({ timeout: 10_000 });
        await shot('walkthrough-sandbox');
        await page.keyboard.press('Control+B');
      });
  }, async () => {
    await browser.close();
    fs.writeFileSync(userSettings, original);
  });
  return ui.results;
}
