// UI tests of the argument prompts: what a person sees and clicks in the real workbench
// (code-server in Chromium). Field by field from a tree click, live checks as they type, picks,
// Back and Skip, "Edit as JSON" and the JSON editor's Call. Screenshots: args-NN-*.png.
import fs from 'node:fs';
import path from 'node:path';
import { e2eEnv, launchBrowser } from '../../scripts/e2e/codeServer.mjs';
import { trustWorkspaceServers, workbenchPage } from './workbenchPage.mjs';

/**
 * @param {import('../../scripts/e2e/codeServer.mjs').CodeServer} cs
 * @param {import('./workbenchPage.mjs').UiSuiteOptions} options
 * @returns {Promise<import('./workbenchPage.mjs').UiResults>}
 */
export async function runArgumentsUiTests(cs, { runDir, shotsDir, root, log = console.log }) {
  const { NODE24 } = e2eEnv();
  const ws = path.join(runDir, 'ui-arguments-ws');
  const settingsFile = path.join(ws, '.vscode/settings.json');
  const demo = { command: NODE24, args: [path.join(root, 'dist/demo-server.js')] };
  const forms = { command: NODE24, args: [path.join(root, 'test/fixtures/servers/argument-forms.cjs')] };
  const writeSettings = (/** @type {Record<string, unknown>} */ servers) => fs.writeFileSync(settingsFile, JSON.stringify({ 'mcpToolHost.servers': servers }, null, 2));
  fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
  writeSettings({ demo });
  const asks = { command: NODE24, args: [path.join(root, 'test/fixtures/servers/elicits.cjs')] };
  // The same server in the 2026-07-28 era, where it asks by answering input_required (MRTR).
  const modern = { ...asks, env: { MODERN: '1' } };
  trustWorkspaceServers(runDir, ['demo', 'forms', 'asks', 'modern']);

  const browser = await launchBrowser();
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const ui = workbenchPage(page, { shotsDir, prefix: 'args', log });
  const { check, openWorkbench, openView, quickInput, promptTitle, promptRow, waitOutput, editorText, replaceEditorText } = ui;
  const shot = async (/** @type {string} */ name) => {
    await page.waitForTimeout(400); // the quick input fades in
    await ui.shot(name);
  };

  const box = quickInput.locator('.quick-input-box input');
  const message = async (/** @type {RegExp} */ re) => {
    const el = quickInput.locator('.quick-input-message');
    await page.waitForFunction(([sel, src]) => new RegExp(src).test(document.querySelector(sel)?.textContent ?? ''), ['.quick-input-widget .quick-input-message', re.source], { timeout: 10_000 })
      .catch(async () => { throw new Error(`the prompt's message never matched ${re}: "${await el.innerText().catch(() => '')}"`); });
  };
  const typeInto = async (/** @type {string} */ text) => {
    await box.press('Control+A');
    await page.keyboard.type(text, { delay: 20 });
  };
  const titleButton = (/** @type {string} */ name) => quickInput.getByRole('button', { name }).first();
  const lens = (/** @type {string | RegExp} */ text) => page.locator('.codelens-decoration', { hasText: text }).first();
  const startWorkspaceServer = async (/** @type {string} */ name) => {
    // The prompt follows a file the test just wrote: VS Code's file watcher, then the configuration's reload, on a
    // machine whose other lane runs a suite too (15 s was missed once in CI, 2026-11-28).
    await promptTitle(`Run server "${name}" defined by this workspace?`, 30_000);
    await page.waitForTimeout(600); // the launch prompt takes nothing in its first 500 ms
    await promptRow('Start server').click();
  };
  const clickTool = async (/** @type {string} */ name) => {
    const item = page.getByRole('treeitem', { name: new RegExp(`^${name}`) }).first();
    await item.waitFor({ timeout: 30_000 });
    await item.click();
  };
  const editorTab = (/** @type {string} */ name) => page.locator('.tabs-container .tab', { hasText: `${name} arguments.json` });
  await ui.session('UI', async () => {
      await openWorkbench(cs.url(ws));
      await openView();
      await startWorkspaceServer('demo');
      writeSettings({ demo, forms });
      await startWorkspaceServer('forms');
      await page.getByRole('treeitem', { name: /^Format Text/ }).first().waitFor({ timeout: 30_000 });

      await check('a tree click asks the one field of Read Note, titled with the step; an empty required field says why', async () => {
        await clickTool('Read Note');
        await promptTitle('Read Note (1/1): name (required)');
        await box.press('Enter');
        await message(/^name is required$/);
        await shot('read-note-required-field');
        await typeInto('shopping');
        await box.press('Enter');
        await waitOutput(/demo \/ read_note[\s\S]*arguments: \{"name":"shopping"\}[\s\S]*milk, bread, coffee/);
      });

      await check('Fetch URL: a format check as the user types, the default pre-filled, the skip button; then the approval', async () => {
        await clickTool('Fetch URL');
        await promptTitle('Fetch URL (1/2): url (required)');
        await typeInto('not a url');
        await message(/url must be a URL \(uri\)/);
        await shot('fetch-url-format-check');
        await typeInto('https://example.com/');
        await box.press('Enter');
        await promptTitle('Fetch URL (2/2): maxChars (optional)');
        if ((await box.inputValue()) !== '2000') throw new Error(`maxChars shows "${await box.inputValue()}", not its default 2000`);
        await typeInto('0');
        await message(/maxChars must be at least 1/);
        await shot('fetch-url-range-check-and-skip-button');
        await titleButton('Skip "maxChars" (leave it unset)').click();
        await promptTitle('Approve "Fetch URL" (fetch_url) on demo?');
        await page.keyboard.press('Escape');
        await waitOutput(/demo \/ fetch_url[\s\S]*arguments: \{"url":"https:\/\/example\.com\/"\}[\s\S]*not sent: the user denied this call\./);
      });

      await check('Format Text: picks for an enum (default marked) and a boolean, Back keeps what was typed', async () => {
        await clickTool('Format Text');
        await promptTitle('Format Text (1/5): text (required)');
        await typeInto('hello');
        await box.press('Enter');
        await promptTitle('Format Text (2/5): style (optional)');
        await promptRow('plain').waitFor();
        await shot('enum-pick-with-default-skip-and-json');
        await promptRow('upper').click();
        await promptTitle('Format Text (3/5): repeat (optional)');
        await typeInto('2');
        await box.press('Enter');
        await promptTitle('Format Text (4/5): shout (optional)');
        await shot('boolean-pick');
        await titleButton('Back').click();
        await promptTitle('Format Text (3/5): repeat (optional)');
        if ((await box.inputValue()) !== '2') throw new Error(`Back shows repeat "${await box.inputValue()}", not 2`);
        await box.press('Enter');
        await promptTitle('Format Text (4/5): shout (optional)');
        await promptRow('true').click();
        await promptTitle('Format Text (5/5): contact (optional)');
        await typeInto('nobody');
        await message(/contact must be a valid email address/);
        await box.press('Control+A');
        await box.press('Backspace');
        await box.press('Enter');
        await waitOutput(/format_text \{"repeat":2,"shout":true,"style":"upper","text":"hello"\}/);
        await shot('output-format-text');
      });

      await check('nested arguments open the JSON editor with a skeleton, marked problems and an obvious Call', async () => {
        await clickTool('Plot Points');
        await editorTab('Plot Points').waitFor({ timeout: 15_000 });
        await lens('Call Plot Points on forms').waitFor({ timeout: 15_000 });
        await lens('points must have at least 1 item').waitFor({ timeout: 15_000 });
        await page.locator('.editor-group-container.active .squiggly-error').first().waitFor({ timeout: 15_000 });
        const text = await editorText();
        if (!/"points": \[\]/.test(text) || !/"label": "chart"/.test(text)) throw new Error(`the skeleton reads:\n${text}`);
        await shot('json-editor-skeleton-with-problem');
        await page.locator('.codelens-decoration a', { hasText: 'Call Plot Points' }).click();
        await page.waitForTimeout(1000);
        if (!(await editorTab('Plot Points').isVisible())) throw new Error('Call with a problem closed the editor');
        await replaceEditorText('{"points": [{"x": 1, "y": 2}, {"x": 3 "y": 5}], "label": "demo"}');
        await lens(/Not valid JSON at line 1, column 39: comma expected\./).waitFor({ timeout: 10_000 });
        await page.locator('.statusbar-item', { hasText: 'Call Plot Points' }).first().click();
        await page.waitForTimeout(1000);
        if (!(await editorTab('Plot Points').isVisible())) throw new Error('Call with broken JSON closed the editor');
        await shot('json-editor-invalid-json');
        await replaceEditorText('{"points": [{"x": 1, "y": 2}, {"x": 3, "y": 5}], "label": "demo"}');
        await page.locator('.editor-actions').getByRole('button', { name: 'Call Tool with These Arguments' }).first().click();
        await waitOutput(/plot_points \{"label":"demo","points":\[\{"x":1,"y":2\},\{"x":3,"y":5\}\]\}/);
        await editorTab('Plot Points').waitFor({ state: 'detached', timeout: 10_000 });
        await shot('output-after-json-call');
      });

      await check('"Edit as JSON" from a field step opens the last arguments; Cancel closes it and sends nothing', async () => {
        await clickTool('Read Note');
        await promptTitle('Read Note (1/1): name (required)');
        await titleButton('Edit as JSON').click();
        await editorTab('Read Note').waitFor({ timeout: 15_000 });
        await lens('Call Read Note on demo').waitFor({ timeout: 15_000 });
        const text = await editorText();
        if (!/"name": "shopping"/.test(text)) throw new Error(`the editor reads:\n${text}`);
        await page.mouse.move(700, 400); // off the title bar's tooltip
        await shot('json-editor-from-field-flow');
        await page.locator('.codelens-decoration a', { hasText: 'Cancel' }).click();
        await editorTab('Read Note').waitFor({ state: 'detached', timeout: 10_000 });
      });

      await check('a server that asks for input during a call: who asks and why, then each field with its default', async () => {
        writeSettings({ demo, forms, asks });
        await startWorkspaceServer('asks');
        await clickTool('profile');
        await promptTitle('"asks" asks for input during its call "profile"', 30_000);
        await promptRow('Answer').waitFor();
        await shot('elicitation-who-asks');
        await promptRow('Answer').click();
        await promptTitle('asks (1/7): Name');
        if ((await box.inputValue()) !== 'Ada') throw new Error(`the Name box holds "${await box.inputValue()}", not its default`);
        await shot('elicitation-field-with-default');
        await box.press('Enter');
        for (const [i, field] of ['age', 'score', 'status', 'verified', 'tags', 'note'].entries()) {
          await promptTitle(`asks (${i + 2}/7): ${field}`);
          if (field === 'status') await shot('elicitation-choice-default');
          await page.keyboard.press('Enter');
        }
        // the server's answer, as the output channel shows it (it may wrap long lines anywhere)
        const sent = JSON.stringify({ action: 'accept', content: { name: 'Ada', age: 36, score: 9.5, status: 'away', verified: true, tags: ['a', 'c'] } });
        await waitOutput(new RegExp([...sent].map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s*')));
        await shot('elicitation-output');
      });

      await check('a link: the site first, who asks and the whole URL, starting on Decline; a field that looks like a credential is warned about and masked', async () => {
        await clickTool('url');
        await promptTitle(/Open a page on 127\.0\.0\.1:\d+\? "asks" asks during its call "url"/, 30_000);
        await promptRow('Open 127.0.0.1').waitFor();
        await promptRow(/http:\/\/127\.0\.0\.1:\d+\/page\?id=e1/).waitFor();
        const active = await quickInput.locator('.monaco-list-row.focused').innerText();
        if (!/Decline/.test(active)) throw new Error(`the link prompt starts on "${active}", not Decline`);
        await shot('elicitation-link-consent');
        await promptRow('Decline').click();
        await waitOutput(/"action":\s*"decline"/);
        await clickTool('secret');
        await promptTitle('"asks" asks for input during its call "secret"', 30_000);
        await promptRow(/do not type secrets into a server's form/).waitFor();
        await shot('elicitation-secret-warning');
        await promptRow('Answer').click();
        await promptTitle('asks (1/2): user');
        await box.press('Enter');
        await promptTitle('asks (2/2): API key');
        await message(/do not type secrets/).catch(() => undefined);
        await page.keyboard.type('hunter2', { delay: 20 });
        if ((await box.getAttribute('type')) !== 'password') throw new Error(`the API key box is of type "${await box.getAttribute('type')}", not password`);
        await shot('elicitation-secret-masked');
        await page.keyboard.press('Escape');
      });

      await check('a form marks each field required or optional, and an empty Enter on a required one says so and sends nothing', async () => {
        await clickTool('signup');
        await promptTitle('"asks" asks for input during its call "signup"', 30_000);
        await promptRow('Answer').click();
        await promptTitle('asks (1/1): Handle (required)');
        await box.press('Enter');
        await message(/Handle is required\./);
        await promptTitle('asks (1/1): Handle (required)'); // still asking
        await shot('elicitation-required-field');
        await page.keyboard.press('Escape');
        await waitOutput(/asks \/ signup[^\n]*\n(?:.*\n)*?.*"action":\s*"cancel"/); // this call's answer, not an earlier one
      });

      await check('a 2026-07-28 server asks by answering input_required (MRTR): the same prompts, then the retried call\'s result', async () => {
        writeSettings({ demo, forms, asks, modern });
        await startWorkspaceServer('modern');
        // Its tools come after those of "asks", which has a "profile" too.
        const modernProfile = page.getByRole('treeitem', { name: /^profile/ }).nth(1);
        await modernProfile.waitFor({ timeout: 30_000 });
        await modernProfile.click();
        await promptTitle('"modern" asks for input during its call "profile"', 30_000);
        await promptRow('Answer').waitFor();
        await shot('mrtr-who-asks');
        await promptRow('Answer').click();
        for (const [i, field] of ['Name', 'age', 'score', 'status', 'verified', 'tags', 'note'].entries()) {
          await promptTitle(`modern (${i + 1}/7): ${field}`);
          await page.keyboard.press('Enter');
        }
        // The server read the answer from the retried call (inputResponses), with its requestState.
        await waitOutput(/"era":\s*"input_required",\s*"requestState":\s*"round-1"/);
        await shot('mrtr-output');
      });
  }, async () => {
    await browser.close();
  });
  return ui.results;
}
