// UI tests of argument rules (issue 16) in the real workbench (code-server) through Chromium: the
// Rules and Approvals view with rules of the user and the workspace, What Would Happen for a
// denied call, and a real call that an ask rule stops at the approval prompt, which names the
// rule. The rule-tools fixture records every call it receives. Screenshots: rules-NN-name.png.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { e2eEnv, launchBrowser } from '../../scripts/e2e/codeServer.mjs';
import { workbenchPage } from './workbenchPage.mjs';

/**
 * @param {import('../../scripts/e2e/codeServer.mjs').CodeServer} cs
 * @param {import('./workbenchPage.mjs').UiSuiteOptions} options
 * @returns {Promise<import('./workbenchPage.mjs').UiResults>}
 */
export async function runRulesUiTests(cs, { runDir, shotsDir, root, log = console.log }) {
  const { NODE24 } = e2eEnv();
  const ws = path.join(runDir, 'rules-ui-ws');
  fs.rmSync(ws, { recursive: true, force: true });
  fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
  const callsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-ui-rules-')), 'calls.jsonl');
  const calls = () => (fs.existsSync(callsFile) ? fs.readFileSync(callsFile, 'utf8').trim().split('\n').filter(Boolean) : []);

  // User settings are shared with the other suites: keep what was there and put it back at the end.
  const userSettings = path.join(runDir, 'ud/User/settings.json');
  const original = fs.readFileSync(userSettings, 'utf8');
  const tools = { command: NODE24, args: [path.join(root, 'test/fixtures/servers/rule-tools.cjs')], env: { CALLS_FILE: callsFile } };
  const rules = [
    { name: 'no env files', server: 'tools', tool: 'write_*', when: [{ pointer: '/path', glob: '/**/*.env' }], effect: 'deny', reason: 'secrets live there' },
    { name: 'project files', server: 'tools', tool: 'write_file', when: [{ pointer: '/path', under: '${workspaceFolder}' }], effect: 'allow', reason: 'my checkout' },
    { name: 'queries', server: 'tools', tool: 'run_query', when: [{ pointer: '/sql', regex: '^\\s*select\\b' }], effect: 'ask', reason: 'check the SQL first' },
  ];
  fs.writeFileSync(userSettings, JSON.stringify({ ...JSON.parse(original), 'mcpToolHost.servers': { tools }, 'mcpToolHost.rules': rules }, null, 2));
  // The workspace adds a deny, and an allow it may not give (shown as a problem).
  fs.writeFileSync(path.join(ws, '.vscode/settings.json'), JSON.stringify({
    'mcpToolHost.rules': [
      { name: 'never main', server: 'tools', tool: 'delete_branch', when: [{ pointer: '/repo/branch', in: ['main', 'master'] }], effect: 'deny' },
      { name: 'anything goes', server: '*', tool: '*', effect: 'allow' },
    ],
  }, null, 2));

  const browser = await launchBrowser();
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const ui = workbenchPage(page, { shotsDir, prefix: 'rules', log });
  const { check, openWorkbench, openView, quickInput, promptTitle, promptRow, row, sidebar, runCommand, widenSidebar, hover, waitOutput, editorText } = ui;
  const shot = async (/** @type {string} */ name, /** @type {import('playwright-core').Locator | undefined} */ part = undefined) => {
    await page.waitForTimeout(400); // the quick input fades in
    await ui.shot(name, part);
  };
  const box = quickInput.locator('.quick-input-box input');
  /** Opens (`true`) or closes a view of the side bar by its header. @param {string} name @param {boolean} open */
  const pane = async (name, open) => {
    const header = sidebar.locator('.pane-header', { hasText: name }).first();
    await header.waitFor({ timeout: 10_000 });
    if (((await header.getAttribute('aria-expanded')) === 'true') !== open) await header.click();
  };

  await ui.session('rules UI', async () => {
    await openWorkbench(cs.url(ws));
    await openView();
    await row(/^run_query/).waitFor({ timeout: 60_000 });
    await widenSidebar(250);

    await check('the Rules and Approvals view lists the rules by scope with effect, tools and source, and the workspace allow as a problem', async () => {
      await pane('Rules', true);
      // The Tools view above takes the room otherwise (a tree draws only the rows in sight).
      await pane('Tools', false);
      for (const name of [/^no env files/, /^project files/, /^queries/, /^never main/, /anything goes/, /^Policy/, /^Grants/]) await row(name).waitFor({ timeout: 20_000 });
      const deny = (await row(/^no env files/).innerText()).replace(/\u00a0/g, ' ');
      if (!deny.includes('tools/write_* · 1 condition')) throw new Error(`the deny row reads "${deny}"`);
      const policy = (await row(/^Policy/).innerText()).replace(/\u00a0/g, ' ');
      if (!policy.includes('set by your administrator · read-only')) throw new Error(`the Policy row reads "${policy}"`);
      await page.mouse.move(700, 880);
      await shot('view-rules-and-problem', sidebar);
      const tip = await hover(row(/^no env files/));
      for (const part of ['no env files: denies', 'Source: user settings', 'Reason: secrets live there', '"glob": "/**/*.env"']) {
        if (!tip.includes(part)) throw new Error(`the tooltip lacks "${part}": ${tip}`);
      }
      await shot('rule-tooltip-with-json');
      await page.mouse.move(700, 880);
    });

    await check('What Would Happen for a denied call: picks the tool, takes JSON arguments, names the rule, calls nothing', async () => {
      await runCommand('MCP Tool Host: What Would Happen...');
      await promptTitle('MCP Tool Host: What Would Happen', 10_000);
      await page.keyboard.type('write_file');
      await promptRow('write_file').waitFor();
      await page.keyboard.press('Enter');
      await promptTitle('What would happen if tools / write_file were called with these arguments?');
      if ((await box.inputValue()) !== '{}') throw new Error(`the arguments start as "${await box.inputValue()}", not {}`);
      await box.press('Control+A');
      await page.keyboard.type(JSON.stringify({ path: path.join(ws, 'prod.env'), content: 'KEY=1' }));
      await shot('what-would-happen-arguments');
      await page.keyboard.press('Enter');
      await page.locator('.tabs-container .tab', { hasText: 'what would happen - write_file.md' }).waitFor({ timeout: 15_000 });
      const text = await editorText();
      for (const part of ['It is denied: nothing is sent, and no one is asked.', "Why: denied by rule 'no env files' (user settings): secrets live there", 'Nothing was called']) {
        if (!text.replace(/\s+/g, ' ').includes(part)) throw new Error(`the answer lacks "${part}":\n${text}`);
      }
      await shot('what-would-happen-denied');
      if (calls().length > 0) throw new Error(`the server received calls: ${calls().join('; ')}`);
    });

    await check('a real call that an ask rule stops: the approval prompt names the rule and offers no grant', async () => {
      await pane('Tools', true);
      await row(/^run_query/).click();
      await promptTitle('run_query (1/1): sql (required)');
      await page.keyboard.type('select * from notes');
      await page.keyboard.press('Enter');
      await promptTitle('Approve "run_query" on tools?');
      await promptRow('Allow once').waitFor();
      const prompt = (await quickInput.innerText()).replace(/\u00a0/g, ' ').replace(/\s+/g, ' ');
      if (!prompt.includes("Needs approval by rule 'queries' (user settings) check the SQL first")) throw new Error(`the prompt does not name the rule: ${prompt}`);
      if (prompt.includes('Always allow this tool')) throw new Error(`a grant is offered under an ask rule: ${prompt}`);
      await shot('approval-names-ask-rule');
      await page.keyboard.press('Escape');
      await waitOutput(/approval: denied by user[\s\S]*not sent: the user denied this call\./);
      if (calls().length > 0) throw new Error(`the server received calls: ${calls().join('; ')}`);
    });

    await check('"Allow calls like this one..." proposes a rule from the call: a choice per argument, then the rule as JSON to edit', async () => {
      await row(/^write_file/).click();
      await promptTitle('write_file (1/2): path (required)');
      await page.keyboard.type('/tmp/elsewhere/report.txt');
      await page.keyboard.press('Enter');
      await promptTitle('write_file (2/2): content');
      await page.keyboard.type('hello');
      await page.keyboard.press('Enter');
      await promptTitle('Approve "write_file" on tools?');
      await promptRow('Allow calls like this one...').waitFor();
      await shot('approval-offers-allow-like-this');
      await page.waitForTimeout(600); // the prompt takes an allow only after 500 ms
      await promptRow('Allow calls like this one...').click();
      await promptTitle('Allow calls like this one (1/2): argument "path"');
      const choices = (await quickInput.innerText()).replace(/\u00a0/g, ' ');
      for (const part of ['Under its folder /tmp/elsewhere', 'Exactly this value', 'Any value']) if (!choices.includes(part)) throw new Error(`the choices lack "${part}": ${choices}`);
      await shot('allow-like-this-choices');
      await promptRow('Under its folder').click();
      await promptTitle('Allow calls like this one (2/2): argument "content"');
      await promptRow('Any value').click();
      await promptTitle('Save this rule to your user settings');
      const proposed = await box.inputValue();
      if (!proposed.includes('"under":"/tmp/elsewhere"') || !proposed.includes('"effect":"allow"')) throw new Error(`the proposed rule reads ${proposed}`);
      await shot('allow-like-this-rule-json');
      // Escape at any step goes back to the approval prompt; there, Escape denies.
      await page.keyboard.press('Escape');
      await promptTitle('Approve "write_file" on tools?');
      await page.keyboard.press('Escape');
      await waitOutput(/approval: denied by user[\s\S]*not sent: the user denied this call\./);
      if (calls().length > 0) throw new Error(`the server received calls: ${calls().join('; ')}`);
    });
  }, async () => {
    await browser.close();
    fs.writeFileSync(userSettings, original);
  });
  return ui.results;
}
