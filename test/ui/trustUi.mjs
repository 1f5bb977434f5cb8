// UI test of a folder VS Code does not trust yet (workspace trust on: a code-server started with
// `workspaceTrust`, see scripts/e2e/codeServer.mjs). Its .vscode/mcp.json defines two servers, one
// of them hostile: a name with an escape sequence, a direction override and a markdown link, far
// too long, and a command that would write a marker file. Before trust the Tools view names both,
// safely, says they start once the folder is trusted, and nothing runs or asks; "Manage Workspace
// Trust" then trusts the folder and the other server's tools appear without a reload.
// Screenshots go to shotsDir as trust-NN-name.png.
import fs from 'node:fs';
import path from 'node:path';
import { e2eEnv, launchBrowser } from '../../scripts/e2e/codeServer.mjs';
import { workbenchPage } from './workbenchPage.mjs';

/** A repository's choice of name: an ANSI escape, a right-to-left override, a link, and 200 more characters. */
/** A raw control or direction character: none may reach the screen. */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u001f\u202a-\u202e]/;
const HOSTILE_NAME = `\u001b[31m\u202e[Trust me](command:workbench.action.quit)${'x'.repeat(200)}`;

/**
 * @param {import('../../scripts/e2e/codeServer.mjs').CodeServer} cs a code-server with workspace trust on
 * @param {import('./workbenchPage.mjs').UiSuiteOptions} options
 * @returns {Promise<import('./workbenchPage.mjs').UiResults>}
 */
export async function runTrustUiTests(cs, { runDir, shotsDir, root, log = console.log }) {
  const { NODE24 } = e2eEnv();
  const ws = path.join(runDir, 'trust-ui-ws');
  const marker = path.join(runDir, 'trust-ui-marker');
  fs.rmSync(ws, { recursive: true, force: true });
  fs.rmSync(marker, { force: true });
  fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(ws, '.vscode/mcp.json'), JSON.stringify({
    inputs: [{ id: 'secret', type: 'promptString', description: 'Asked only once the folder is trusted' }],
    servers: {
      notes: { type: 'stdio', command: NODE24, args: [path.join(root, 'dist/demo-server.js')] },
      [HOSTILE_NAME]: { type: 'stdio', command: NODE24, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`, '${input:secret}'] },
    },
  }, null, 2));

  const browser = await launchBrowser();
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const ui = workbenchPage(page, { shotsDir, prefix: 'trust', log });
  const { shot, check, openWorkbench, quickInput, sidebar, row, openView, widenSidebar } = ui;
  const message = sidebar.locator('.message', { hasText: 'not trusted' }).first();

  await ui.session('trust UI', async () => {
    await openWorkbench(cs.url(ws));

    await check('an untrusted folder\'s Tools view names the servers its mcp.json defines, escaped and cut, and says trust starts them', async () => {
      await openView();
      await widenSidebar(200);
      await message.waitFor({ timeout: 30_000 });
      const text = await message.innerText();
      log(`[ui] the view says: ${text}`);
      if (!/It defines 2 MCP servers \("notes", .*\), which start only when you trust the folder\./.test(text)) throw new Error(`the message reads "${text}"`);
      // The hostile name as its escapes and cut: no raw control or direction character, its link just text.
      if (RAW_CONTROL.test(text)) throw new Error(`a control or direction character reached the view: ${JSON.stringify(text)}`);
      const hostile = /"(\\u001b[^"]*)"/i.exec(text)?.[1] ?? '';
      if (!/\\u001b\[31m\\u202e\[Trust me\]/i.test(hostile) || !hostile.endsWith('…') || hostile.length > 40) throw new Error(`the hostile name is shown as ${JSON.stringify(hostile)}`);
      if (await sidebar.locator('a', { hasText: 'Trust me' }).count()) throw new Error('the markdown-like name became a link');
      if ((await sidebar.innerText()).includes('No MCP server is configured yet')) throw new Error('the view still says no server is configured');
      await row(/Manage Workspace Trust/).waitFor({ timeout: 10_000 });
      await shot('untrusted-folder-names-its-servers', sidebar);
    });

    await check('before trust nothing of the folder runs or asks: no server, no input prompt, no launch prompt', async () => {
      await page.waitForTimeout(3_000);
      if (fs.existsSync(marker)) throw new Error('the hostile server ran before the folder was trusted');
      if (await quickInput.isVisible()) throw new Error(`a prompt is open: ${await quickInput.innerText()}`);
      if (await row(/^notes/).count()) throw new Error('a server row of the untrusted folder is shown');
    });

    await check('Manage Workspace Trust trusts the folder, and its server starts without a reload', async () => {
      await row(/Manage Workspace Trust/).click();
      const trustButton = page.locator('.workspace-trust-editor .monaco-button', { hasText: /^Trust( Folder)?$/ }).first();
      await trustButton.waitFor({ timeout: 15_000 });
      await shot('workspace-trust-editor');
      await trustButton.click();
      await message.waitFor({ state: 'detached', timeout: 15_000 });
      await page.locator('.workspace-trust-editor').first().waitFor({ state: 'visible' });
      // Its close button, not Escape: a launch prompt may be open already, and Escape would decline it.
      await page.locator('.monaco-modal-editor-block .action-label.codicon-close').first().click();
      await page.locator('.workspace-trust-editor').waitFor({ state: 'hidden', timeout: 10_000 });
      // Each server of the folder still asks before its first start: start "notes", not the hostile one.
      const end = Date.now() + 60_000;
      while (Date.now() < end && !(await page.getByRole('treeitem', { name: /List Notes/ }).count())) {
        const title = (await quickInput.isVisible()) ? await quickInput.locator('.quick-input-title').innerText({ timeout: 500 }).catch(() => '') : '';
        if (title.startsWith('Run server "notes"')) {
          await shot('launch-prompt-notes');
          await page.waitForTimeout(600); // the launch prompt takes nothing in its first 500 ms
          await quickInput.locator('.monaco-list-row', { hasText: 'Start server' }).click();
        } else if (/^Run server "\\u001b/i.test(title)) {
          if (RAW_CONTROL.test(title)) throw new Error(`the launch prompt's title holds a control or direction character: ${JSON.stringify(title)}`);
          await page.waitForTimeout(600);
          await quickInput.locator('.monaco-list-row', { hasText: 'Do not start' }).click();
        } else if (title) {
          log(`[ui] not answered: ${title}`);
          await page.keyboard.press('Escape'); // the hostile server's input: not given
        }
        await page.waitForTimeout(250);
      }
      await row(/^notes/).waitFor({ timeout: 5_000 });
      await page.getByRole('treeitem', { name: /List Notes/ }).first().waitFor({ timeout: 30_000 });
      if (await row(/Manage Workspace Trust/).count()) throw new Error('the Manage Workspace Trust row stayed after trust');
      await shot('trusted-folder-server-running', sidebar);
      if (fs.existsSync(marker)) throw new Error('the hostile server ran though the user did not start it');
    });
  }, async () => {
    await browser.close();
  });
  return ui.results;
}
