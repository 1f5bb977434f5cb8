// UI test of the administrator's allowlist as a user meets it: a server the policy refuses is refused
// before it asks for its ${input:...} token, its row says "refused by policy", its hover names the
// policy file, and "Open the Policy" under it opens that file. The policy file is named by
// MCP_TOOL_HOST_POLICY_FILE, which the extension host reads from its environment: so this suite runs
// a code-server of its own, started with it. Screenshots go to shotsDir as admin-NN-name.png.
import fs from 'node:fs';
import path from 'node:path';
import { e2eEnv, launchBrowser, prepare, shortTempDir, start } from '../../scripts/e2e/codeServer.mjs';
import { workbenchPage } from './workbenchPage.mjs';

/**
 * @param {import('../../scripts/e2e/codeServer.mjs').CodeServer} _cs unused: the suite needs an environment of its own
 * @param {import('./workbenchPage.mjs').UiSuiteOptions} options
 * @returns {Promise<import('./workbenchPage.mjs').UiResults>}
 */
export async function runAdminUiTests(_cs, { shotsDir, root, log = console.log }) {
  const { NODE24 } = e2eEnv();
  const demo = path.join(root, 'dist/demo-server.js');
  const runDir = shortTempDir('mth-admin-');
  const policy = path.join(runDir, 'policy', 'rules.json');
  fs.mkdirSync(path.dirname(policy), { recursive: true });
  fs.writeFileSync(policy, `${JSON.stringify({ allowedServers: [{ command: NODE24, args: [demo] }] }, null, 2)}\n`);
  const ws = path.join(runDir, 'admin-ws');
  fs.mkdirSync(ws, { recursive: true });
  prepare(runDir, {
    vsix: [path.join(root, 'dist-vsix/mcp-tool-host.vsix')],
    userSettings: {
      'mcpToolHost.servers': {
        demo: { command: NODE24, args: [demo] },
        tickets: { command: NODE24, args: ['-e', '0'], env: { TICKETS_TOKEN: '${input:tickets_token}' } },
      },
    },
  });
  const before = process.env.MCP_TOOL_HOST_POLICY_FILE;
  process.env.MCP_TOOL_HOST_POLICY_FILE = policy;
  let cs;
  try {
    cs = await start(runDir, { extraArgs: ['--vscode-option', 'enable-smoke-test-driver'] });
  } finally {
    if (before === undefined) delete process.env.MCP_TOOL_HOST_POLICY_FILE;
    else process.env.MCP_TOOL_HOST_POLICY_FILE = before;
  }

  const browser = await launchBrowser();
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const ui = workbenchPage(page, { shotsDir, prefix: 'admin', log });
  const { shot, check, openWorkbench, openView, quickInput, row, hover, widenSidebar } = ui;

  await ui.session('administrator allowlist UI', async () => {
    await openWorkbench(cs.url(ws));
    await openView();
    await widenSidebar(260);

    await check('a refused server is refused before its token is asked: its row says "refused by policy", the reason and Open the Policy under it', async () => {
      await row(/^tickets.*refused by policy/).waitFor({ timeout: 60_000 });
      await page.getByRole('treeitem', { name: /allows only the servers it lists/ }).first().waitFor({ timeout: 10_000 });
      await page.getByRole('treeitem', { name: /Open the Policy/ }).first().waitFor({ timeout: 10_000 });
      await page.getByRole('treeitem', { name: /List Notes/ }).first().waitFor({ timeout: 30_000 });
      await shot('refused-row');
      if (await quickInput.isVisible()) throw new Error(`a prompt is open for a server that may not run: ${await quickInput.innerText()}`);
    });

    await check("the refused server's hover says it was refused by the administrator's policy and names the file", async () => {
      const text = await hover(row(/^tickets/));
      await shot('refused-hover');
      if (!/Refused by the administrator's policy/.test(text)) throw new Error(`the hover does not say it was refused: ${text}`);
      if (!text.includes(`Policy file: ${policy}`)) throw new Error(`the hover does not name ${policy}: ${text}`);
      await page.mouse.move(5, 5);
    });

    await check('"Open the Policy" opens the policy file that refused it', async () => {
      await page.getByRole('treeitem', { name: /Open the Policy/ }).first().click();
      await page.locator('.tabs-container .tab', { hasText: 'rules.json' }).first().waitFor({ timeout: 15_000 });
      await page.locator('.monaco-editor .view-lines', { hasText: 'allowedServers' }).first().waitFor({ timeout: 10_000 });
      await shot('policy-open');
    });
  }, async () => {
    await browser.close();
    await cs.stop();
    fs.rmSync(runDir, { recursive: true, force: true });
  });
  return ui.results;
}
