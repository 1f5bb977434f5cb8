// UI tests: a person's clicks in the real VS Code workbench (code-server) driven through
// Debian's Chromium. Each check is counted; screenshots go to test-results/screenshots.
import fs from 'node:fs';
import path from 'node:path';
import { e2eEnv, launchBrowser } from '../../scripts/e2e/codeServer.mjs';
import { waitOutput as waitOutputOf } from './workbenchPage.mjs';

export async function runUiTests(cs, { runDir, shotsDir, root, log = console.log }) {
  const { NODE24 } = e2eEnv();
  const demoWs = path.join(runDir, 'ui-demo-ws');
  fs.mkdirSync(path.join(demoWs, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(demoWs, '.vscode/settings.json'), JSON.stringify({
    'mcpToolHost.servers': { demo: { command: NODE24, args: [path.join(root, 'dist/demo-server.js')], trustAnnotations: true } },
  }, null, 2));
  const emptyWs = path.join(runDir, 'ui-empty-ws');
  fs.mkdirSync(emptyWs, { recursive: true });

  let passed = 0;
  const failed = [];
  let shotNo = 0;
  const browser = await launchBrowser(runDir);
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const shot = async (name) => {
    const file = path.join(shotsDir, `ui-${String(++shotNo).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path: file });
    log(`screenshot ${path.relative(root, file)}`);
  };
  const check = async (name, fn) => {
    try {
      await fn();
      passed++;
      log(`ui ok: ${name}`);
    } catch (err) {
      failed.push(`${name}: ${err instanceof Error ? err.message.split('\n')[0] : err}`);
      log(`ui FAILED: ${name}: ${err}`);
      await shot(`failure-${name.replace(/\W+/g, '-').slice(0, 40)}`).catch(() => undefined);
    }
  };
  const quickInput = page.locator('.quick-input-widget');
  const waitOutput = (re, ms) => waitOutputOf(page, re, ms);
  const openView = async () => {
    const tab = page.locator('.activitybar [aria-label^="MCP Tool Host"]').first();
    await tab.waitFor({ timeout: 60_000 });
    await tab.click();
  };
  // Answers a tool's argument prompts with the values of `json`: field by field (each input box
  // "Tool (i/n): field (...)"; Enter after each, the last one only when `submit`), or, when the
  // tool asks in the JSON editor, replaces its text and clicks Call (always).
  const answerArguments = async (tool, json, { submit = true } = {}) => {
    const values = JSON.parse(json);
    const editorTab = page.locator('.tabs-container .tab', { hasText: `${tool} arguments.json` });
    const stepTitle = quickInput.locator('.quick-input-title', { hasText: `${tool} (` });
    await stepTitle.or(editorTab).first().waitFor({ timeout: 15_000 });
    if (await editorTab.isVisible()) {
      await page.locator('.editor-group-container.active .monaco-editor .view-lines').first().click();
      await page.keyboard.press('Control+A');
      // Pasted, not typed: typing races the editor's auto-closed brackets and quotes.
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.evaluate((t) => navigator.clipboard.writeText(t), json);
      await page.keyboard.press('Control+V');
      await page.locator('.codelens-decoration a', { hasText: `Call ${tool}` }).click();
      return;
    }
    for (;;) {
      const [, step, total, field] = /\((\d+)\/(\d+)\): (\S+)/.exec(await stepTitle.innerText()) ?? [];
      if (!field) throw new Error(`unexpected prompt title: ${await stepTitle.innerText()}`);
      await page.keyboard.press('Control+A');
      await page.keyboard.type(values[field] === undefined ? '' : String(values[field]));
      if (step === total && !submit) return;
      await page.keyboard.press('Enter');
      if (step === total) return;
      await quickInput.locator('.quick-input-title', { hasText: `${tool} (${Number(step) + 1}/${total})` }).waitFor({ timeout: 15_000 });
    }
  };

  try {
    await page.goto(cs.url(demoWs));
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });

    await check('a workspace-defined server asks before its first start, showing the command line', async () => {
      await openView();
      const title = quickInput.locator('.quick-input-title', { hasText: 'Run server "demo" defined by this workspace?' });
      await title.waitFor({ timeout: 30_000 });
      const start = quickInput.locator('.monaco-list-row', { hasText: 'Start server' });
      const detail = await start.innerText();
      if (!detail.includes('demo-server.js')) throw new Error(`the prompt does not show the command line: ${detail}`);
      await shot('workspace-server-launch-prompt');
      await start.click();
    });

    await check('the Tools view lists the demo tools with badges', async () => {
      for (const name of ['List Notes', 'Read Note', 'Delete Note', 'Fetch URL', 'Text Statistics']) {
        await page.getByRole('treeitem', { name: new RegExp(name) }).first().waitFor({ timeout: 30_000 });
      }
      await page.getByRole('treeitem', { name: /^echo/ }).waitFor({ timeout: 5_000 });
      const deleteRow = await page.getByRole('treeitem', { name: /Delete Note/ }).innerText();
      if (!/destructive · idempotent/.test(deleteRow)) throw new Error(`Delete Note row reads "${deleteRow}"`);
      await shot('tree-demo-tools');
    });

    await check('clicking a read-only tool asks for arguments and prints the result', async () => {
      await page.getByRole('treeitem', { name: /Read Note/ }).click();
      await answerArguments('Read Note', '{"name": "shopping"}', { submit: false });
      await shot('arguments-input');
      await page.keyboard.press('Enter');
      await waitOutput(/approval: not needed \[read-only · idempotent\][\s\S]*result \(\d+ ms\):\s*milk, bread, coffee/);
      await shot('output-read-note');
    });

    await check('a destructive tool shows the approval quick-pick; Escape denies', async () => {
      await page.getByRole('treeitem', { name: /Delete Note/ }).click();
      await answerArguments('Delete Note', '{"name": "welcome"}');
      await quickInput.locator('.quick-input-title', { hasText: 'Approve "Delete Note" on demo? [destructive · idempotent]' }).waitFor({ timeout: 15_000 });
      await quickInput.locator('.monaco-list-row', { hasText: 'Allow once' }).waitFor();
      await shot('approval-quickpick');
      await page.keyboard.press('Escape');
      await waitOutput(/approval: denied by user[\s\S]*not sent: the user denied this call\./);
      await shot('output-denied');
    });

    await check('from the palette, "MCP: Call Tool..." runs a tool once allowed', async () => {
      await page.keyboard.press('F1');
      await quickInput.waitFor({ state: 'visible' });
      await page.keyboard.type('MCP: Call Tool');
      await quickInput.locator('.monaco-list-row', { hasText: 'MCP: Call Tool...' }).first().waitFor({ timeout: 10_000 });
      await page.keyboard.press('Enter');
      await quickInput.locator('.quick-input-title', { hasText: 'MCP: Call Tool' }).waitFor({ timeout: 10_000 });
      await page.keyboard.type('Delete Note');
      await quickInput.locator('.monaco-list-row', { hasText: 'Delete Note' }).first().waitFor();
      // The picker shows the same badges as the tree row and the approval title (one rule).
      const pickRow = (await quickInput.locator('.monaco-list-row', { hasText: 'Delete Note' }).first().innerText()).replace(/\u00a0/g, ' ');
      if (!pickRow.includes('demo · destructive · idempotent')) throw new Error(`the picker row reads "${pickRow}"`);
      await shot('palette-tool-pick');
      await page.keyboard.press('Enter');
      await answerArguments('Delete Note', '{"name": "welcome"}');
      const allow = quickInput.locator('.monaco-list-row', { hasText: 'Allow once' });
      await allow.waitFor({ timeout: 15_000 });
      await allow.click();
      await waitOutput(/approval: allowed once[\s\S]*Deleted "welcome"\./);
      await shot('output-allowed');
    });

    await check('a tool returning an image shows the saved file', async () => {
      await page.getByRole('treeitem', { name: /Bar Chart/ }).click();
      await answerArguments('Bar Chart', '{"values": [3, 1, 4, 1, 5]}');
      await waitOutput(/\[image image\/png, \d+ bytes\] saved to [\s\S]*?image-1\.png/);
      await shot('output-image');
    });

    await check('with no server configured, the welcome view offers the demo server', async () => {
      await page.goto(cs.url(emptyWs));
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      await openView();
      const welcome = page.locator('.welcome-view-content');
      const add = welcome.getByRole('button', { name: 'Add Demo Server' });
      await add.waitFor({ timeout: 30_000 });
      await welcome.getByRole('button', { name: 'Open Settings' }).waitFor();
      await shot('welcome-view');
      await add.click();
      await page.getByRole('treeitem', { name: /List Notes/ }).waitFor({ timeout: 30_000 });
      await shot('tree-after-add-demo');
    });
  } catch (err) {
    failed.push(`UI session: ${err}`);
    await shot('failure-session').catch(() => undefined);
  } finally {
    await browser.close();
  }
  return { passed, failed };
}
