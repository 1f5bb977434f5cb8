// UI tests: a person's clicks in the real VS Code workbench (code-server) driven through
// Debian's Chromium. Each check is counted; screenshots go to test-results/screenshots.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { e2eEnv, launchBrowser } from '../../scripts/e2e/codeServer.mjs';
import { trustWorkspaceServers, workbenchPage } from './workbenchPage.mjs';

/**
 * @param {import('../../scripts/e2e/codeServer.mjs').CodeServer} cs
 * @param {import('./workbenchPage.mjs').UiSuiteOptions} options
 * @returns {Promise<import('./workbenchPage.mjs').UiResults>}
 */
export async function runUiTests(cs, { runDir, shotsDir, root, log = console.log }) {
  const { NODE24 } = e2eEnv();
  const demoWs = path.join(runDir, 'ui-demo-ws');
  fs.mkdirSync(path.join(demoWs, '.vscode'), { recursive: true });
  // The repository sets a variable that changes which code Node loads (harmless here, but shown as one).
  fs.writeFileSync(path.join(demoWs, '.vscode/settings.json'), JSON.stringify({
    'mcpToolHost.servers': { demo: { command: NODE24, args: [path.join(root, 'dist/demo-server.js')], env: { NODE_OPTIONS: '--max-old-space-size=256', DEMO_GREETING: 'hello' } } },
  }, null, 2));
  trustWorkspaceServers(runDir, ['demo']);
  // The user has a "demo" of their own, sandboxed: the workspace's replaces it (workspace settings win).
  const userSettingsFile = path.join(runDir, 'ud/User/settings.json');
  const userSettings = JSON.parse(fs.readFileSync(userSettingsFile, 'utf8'));
  fs.writeFileSync(userSettingsFile, JSON.stringify({ ...userSettings, 'mcpToolHost.servers': { demo: { command: NODE24, args: [path.join(root, 'dist/demo-server.js')], sandbox: { network: 'none' } } } }, null, 2));
  const emptyWs = path.join(runDir, 'ui-empty-ws');
  fs.mkdirSync(emptyWs, { recursive: true });
  // A repository's remote server that would send one of the user's environment variables in a header.
  const remoteWs = path.join(runDir, 'ui-remote-ws');
  fs.mkdirSync(path.join(remoteWs, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(remoteWs, '.vscode/mcp.json'), JSON.stringify({ servers: { remote: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${env:MCP_UI_TOKEN}', 'X-Team': 'blue' } } } }, null, 2));

  // A remote server that needs a sign-in, whose sign-in page is on a site that reads as Microsoft's at its start.
  const signInAt = `https://login.microsoftonline.com.${'secure-session.'.repeat(6)}evil.xyz/common/oauth2/authorize`;
  const oauth = spawn(process.execPath, [path.join(root, 'test/fixtures/servers/oauth-server.cjs'), '--authorize-at', signInAt], { stdio: ['pipe', 'pipe', 'inherit'] });
  const oauthPort = await new Promise((resolve, reject) => {
    readline.createInterface({ input: oauth.stdout }).once('line', (line) => resolve(JSON.parse(line).port));
    oauth.once('exit', (code) => reject(new Error(`the OAuth fixture exited with ${code}`)));
  });
  const signInWs = path.join(runDir, 'ui-signin-ws');
  fs.mkdirSync(path.join(signInWs, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(signInWs, '.vscode/mcp.json'), JSON.stringify({ servers: { account: { type: 'http', url: `http://127.0.0.1:${oauthPort}/mcp` } } }, null, 2));

  const browser = await launchBrowser().catch((err) => {
    oauth.kill();
    throw err;
  });
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const { results, shot, check, session, openWorkbench, quickInput, promptTitle, promptRow, row, sidebar, openView, runCommand, waitOutput, replaceEditorText } = workbenchPage(page, { shotsDir, prefix: 'ui', log });
  /**
   * Answers a tool's argument prompts with the values of `json`: field by field (each input box
   * "Tool (i/n): field (...)"; Enter after each, the last one only when `submit`), or, when the
   * tool asks in the JSON editor, replaces its text and clicks Call (always).
   * @param {string} tool the tool's title, as the prompts name it
   * @param {string} json the arguments
   * @param {{ submit?: boolean }} [options]
   */
  const answerArguments = async (tool, json, { submit = true } = {}) => {
    /** @type {Record<string, unknown>} */
    const values = JSON.parse(json);
    const editorTab = page.locator('.tabs-container .tab', { hasText: `${tool} arguments.json` });
    const stepTitle = quickInput.locator('.quick-input-title', { hasText: `${tool} (` });
    const box = quickInput.locator('.quick-input-box input');
    await stepTitle.or(editorTab).first().waitFor({ timeout: 15_000 });
    if (await editorTab.isVisible()) {
      await replaceEditorText(json);
      await page.locator('.codelens-decoration a', { hasText: `Call ${tool}` }).click();
      return;
    }
    for (;;) {
      const [, step, total, field] = /\((\d+)\/(\d+)\): (\S+)/.exec(await stepTitle.innerText()) ?? [];
      if (!field) throw new Error(`unexpected prompt title: ${await stepTitle.innerText()}`);
      // Into the box itself: on a loaded machine the workbench may still move focus (a view restored after a reload).
      await box.fill(values[field] === undefined ? '' : String(values[field]));
      if (step === total && !submit) return;
      await box.press('Enter');
      if (step === total) return;
      await promptTitle(`${tool} (${Number(step) + 1}/${total})`);
    }
  };

  await session('UI', async () => {
      await openWorkbench(cs.url(demoWs));

      await check('a workspace-defined server asks before its first start, showing the command line', async () => {
        await openView();
        await promptTitle('Run server "demo" defined by this workspace?', 30_000);
        const start = promptRow('Start server');
        const detail = await quickInput.innerText();
        // the whole command line, in rows (the last part is the demo server's file; quoted where its path holds a space)
        if (!/demo-server\.js'?\s*$/m.test(detail)) throw new Error(`the prompt does not show the whole command line: ${detail}`);
        // every value it sets, the one that changes which code loads marked; what it replaces, and that it is not sandboxed like the user's
        for (const fact of ['NODE_OPTIONS=--max-old-space-size=256 (changes which code programs load)', 'DEMO_GREETING=hello', 'It replaces your own server "demo" of your user settings', 'Yours runs in a sandbox; this one does not', 'Not in a sandbox']) {
          if (!detail.includes(fact)) throw new Error(`the prompt does not say "${fact}": ${detail}`);
        }
        // it starts on "Do not start": a hurried Enter never runs a repository's code
        const active = await quickInput.locator('.monaco-list-row.focused').innerText();
        if (!active.includes('Do not start')) throw new Error(`the prompt starts on "${active}"`);
        // and the trust it will get: this suite's user settings trust "demo" (a workspace cannot trust itself)
        if (!detail.includes('Tool hints trusted (your mcpToolHost.trustedWorkspaceServers)')) throw new Error(`the prompt does not say the trust the server gets: ${detail}`);
        // while the prompt waits, the server's row says it waits for the user, not "starting…"
        await row(/^demo/).filter({ hasText: 'Waiting for you to allow it to start' }).waitFor({ timeout: 10_000 });
        await shot('workspace-server-launch-prompt');
        await page.waitForTimeout(600); // the prompt takes nothing in its first 500 ms
        await start.click();
        // The user's own "demo" goes again: the later checks expect no server of the user's.
        fs.writeFileSync(userSettingsFile, JSON.stringify(userSettings, null, 2));
      });

      await check('the Tools view lists the demo tools with badges', async () => {
        for (const name of ['List Notes', 'Read Note', 'Delete Note', 'Fetch URL', 'Text Statistics']) {
          await page.getByRole('treeitem', { name: new RegExp(name) }).first().waitFor({ timeout: 30_000 });
        }
        await page.getByRole('treeitem', { name: /^echo/ }).waitFor({ timeout: 5_000 });
        const deleteRow = await page.getByRole('treeitem', { name: /Delete Note/ }).innerText();
        if (!/destructive/.test(deleteRow)) throw new Error(`Delete Note row reads "${deleteRow}"`);
        await shot('tree-demo-tools');
      });

      await check('a window reload shows the last tools at once and in the same order, and never claims no server is configured', async () => {
        const rows = async () => (await sidebar.locator('.monaco-list-row').allInnerTexts()).map((t) => t.split('\n')[0].trim());
        const before = await rows();
        const started = Date.now();
        await page.reload();
        const seen = new Set();
        let shownAfterMs = -1;
        while (Date.now() - started < 60_000) {
          const text = await sidebar.innerText().catch(() => '');
          if (text.includes('No MCP server is configured yet')) seen.add('no-server');
          if (text.includes('Reading your MCP server configuration')) seen.add('reading');
          if (text.includes('List Notes')) {
            shownAfterMs = Date.now() - started;
            break;
          }
          await page.waitForTimeout(25);
        }
        if (seen.has('no-server')) throw new Error('during the reload the view said no server is configured');
        if (shownAfterMs < 0) throw new Error('no tools within 60 s of the reload');
        log(`[ui] after a reload the tools showed in ${shownAfterMs} ms (reading message seen: ${seen.has('reading')})`);
        await shot('tree-right-after-reload', sidebar);
        await page.getByRole('treeitem', { name: /^demo/ }).filter({ hasText: '9 tools' }).waitFor({ timeout: 30_000 });
        // The Resources row lists anew after the reload ("listing…"): its count is compared once it is in.
        let after = await rows();
        for (const until = Date.now() + 30_000; after.some((r) => r.includes('listing…')) && Date.now() < until; after = await rows()) await page.waitForTimeout(100);
        if (JSON.stringify(after) !== JSON.stringify(before)) throw new Error(`the rows changed order: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
      });

      await check('clicking a read-only tool asks for arguments and prints the result', async () => {
        await page.getByRole('treeitem', { name: /Read Note/ }).click();
        await answerArguments('Read Note', '{"name": "shopping"}', { submit: false });
        await shot('arguments-input');
        await quickInput.locator('.quick-input-box input').press('Enter');
        await waitOutput(/approval: not needed \[read-only · idempotent\][\s\S]*result \(\d+ ms\):\s*milk, bread, coffee/);
        await shot('output-read-note');
      });

      await check('a hurried Enter at the approval prompt never allows a destructive call', async () => {
        await page.getByRole('treeitem', { name: /Delete Note/ }).click();
        await answerArguments('Delete Note', '{"name": "shopping"}');
        await promptTitle('Approve "Delete Note" (delete_note) on demo? [destructive · idempotent]');
        await page.keyboard.press('Enter'); // as the second of a double Enter would: "Deny" is where it starts
        await waitOutput(/arguments: \{"name":"shopping"\}[\s\S]{0,40}approval: denied by user/);
      });

      await check('a destructive tool shows the approval quick-pick; Escape denies', async () => {
        await page.getByRole('treeitem', { name: /Delete Note/ }).click();
        await answerArguments('Delete Note', '{"name": "welcome"}');
        await promptTitle('Approve "Delete Note" (delete_note) on demo? [destructive · idempotent]');
        await promptRow('Allow once').waitFor();
        await shot('approval-quickpick');
        // "Show full arguments" opens them read-only (an Untitled document asked to be saved when closed), and the prompt comes back.
        await page.waitForTimeout(600); // the prompt takes nothing in its first 500 ms
        await promptRow('Show full arguments').click();
        const tab = page.locator('.tabs-container .tab', { hasText: 'delete_note arguments.json' });
        await tab.waitFor({ timeout: 10_000 });
        await promptTitle('Approve "Delete Note" (delete_note) on demo?');
        await shot('approval-full-arguments-read-only');
        await page.keyboard.press('Escape');
        await waitOutput(/approval: denied by user[\s\S]*not sent: the user denied this call\./);
        await shot('output-denied');
        await tab.click();
        if ((await tab.getAttribute('class'))?.includes('dirty')) throw new Error('the arguments document is editable (dirty)');
        await page.keyboard.press('Control+W');
        await tab.waitFor({ state: 'detached', timeout: 5_000 });
        if (await page.locator('.monaco-dialog-box').count()) throw new Error('closing the arguments document asked to save');
      });

      await check('from the palette, "MCP Tool Host: Call Tool..." runs a tool once allowed', async () => {
        await runCommand('MCP Tool Host: Call Tool...');
        await promptTitle('MCP Tool Host: Call Tool', 10_000);
        await page.keyboard.type('Delete Note');
        await promptRow('Delete Note').waitFor();
        // The picker shows the same badges as the tree row and the approval title (one rule).
        const pickRow = (await promptRow('Delete Note').innerText()).replace(/\u00a0/g, ' ');
        if (!pickRow.includes('demo · destructive · idempotent')) throw new Error(`the picker row reads "${pickRow}"`);
        await shot('palette-tool-pick');
        await page.keyboard.press('Enter');
        await answerArguments('Delete Note', '{"name": "welcome"}');
        const allow = promptRow('Allow once');
        await allow.waitFor({ timeout: 15_000 });
        await page.waitForTimeout(600); // a person reads first: the prompt takes no "allow" in its first 500 ms
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
        await openWorkbench(cs.url(emptyWs));
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

      await check("a workspace's remote server: the launch prompt shows every header it would send, and which of your variables", async () => {
        await openWorkbench(cs.url(remoteWs));
        await openView();
        await promptTitle('Run server "remote" defined by this workspace?', 30_000);
        const detail = await quickInput.innerText();
        for (const fact of ['http://127.0.0.1:9/mcp', 'header Authorization: Bearer ${env:MCP_UI_TOKEN}', 'sends your environment variable MCP_UI_TOKEN to this server', 'header X-Team: blue']) {
          if (!detail.includes(fact)) throw new Error(`the prompt does not say "${fact}": ${detail}`);
        }
        await shot('workspace-remote-launch-prompt');
        await page.keyboard.press('Escape');
        await row(/^remote/).filter({ hasText: 'stopped' }).waitFor({ timeout: 10_000 });
      });

      await check("a remote server's sign-in names the site of its sign-in page first; Cancel opens nothing", async () => {
        await openWorkbench(cs.url(signInWs));
        await openView();
        await promptTitle('Run server "account" defined by this workspace?', 30_000);
        await page.waitForTimeout(600); // the prompt takes nothing in its first 500 ms
        await promptRow('Start server').click();
        await row(/^account/).filter({ hasText: 'Waiting for you to sign in' }).waitFor({ timeout: 30_000 });
        // With the smoke-test driver VS Code shows no toasts: the notification is read in the notification center.
        await runCommand('Notifications: Show Notifications');
        const note = page.locator('.notifications-center .notification-list-item', { hasText: 'needs you to sign in' });
        await note.waitFor({ timeout: 10_000 });
        const text = await note.innerText();
        if (!text.includes('Sign In opens a page on evil.xyz in your browser')) throw new Error(`the sign-in does not name the site first: ${text}`);
        await shot('remote-sign-in-names-site');
        await note.getByRole('button', { name: 'Cancel' }).click();
        await row(/^account/).filter({ hasText: /error/ }).waitFor({ timeout: 10_000 });
      });
  }, async () => {
    await browser.close();
    oauth.kill();
  });
  return results;
}

