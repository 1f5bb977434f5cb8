// UI tests of calls that the server runs as tasks (issue 15), in the real workbench (code-server)
// through Chromium: the task row with its status, the status bar, the output channel, Cancel Task,
// and a task that outlives a window reload, fetched with Fetch Result. Screenshots: tasks-NN-name.png.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { e2eEnv, launchBrowser } from '../../scripts/e2e/codeServer.mjs';
import { workbenchPage } from './workbenchPage.mjs';

const SERVERS_KEY = 'mcpToolHost.servers';

/** Every file named `name` under `dir`. @param {string} dir @param {string} name @returns {string[]} */
function findFiles(dir, name) {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => path.basename(f) === name).map((f) => path.join(dir, f));
}

/**
 * @param {import('../../scripts/e2e/codeServer.mjs').CodeServer} cs
 * @param {import('./workbenchPage.mjs').UiSuiteOptions} options
 * @returns {Promise<import('./workbenchPage.mjs').UiResults>}
 */
export async function runTasksUiTests(cs, { runDir, shotsDir, root, log = console.log }) {
  const { NODE24 } = e2eEnv();
  const ws = path.join(runDir, 'tasks-ui-ws');
  fs.rmSync(ws, { recursive: true, force: true });
  fs.mkdirSync(ws, { recursive: true });
  const tasksDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-ui-tasks-'));

  // User settings are shared with the other suites: keep what was there and put it back at the end.
  const userSettings = path.join(runDir, 'ud/User/settings.json');
  const original = fs.readFileSync(userSettings, 'utf8');
  const settings = JSON.parse(original);
  // A call timeout of 1 s, and a deploy of 45 s: the task outlives any plain call, and under load it
  // still runs when the cancel check reaches its row (at 20 s it once finished first and the check failed).
  const jobs = { command: NODE24, args: [path.join(root, 'test/fixtures/servers/tasks.cjs')], env: { TASKS_DIR: tasksDir, TASK_SECONDS: '45' }, timeoutSeconds: 1 };
  fs.writeFileSync(userSettings, JSON.stringify({ ...settings, [SERVERS_KEY]: { jobs } }, null, 2));

  const browser = await launchBrowser();
  const page = browser.ctx.pages()[0] ?? (await browser.ctx.newPage());
  const ui = workbenchPage(page, { shotsDir, prefix: 'tasks', log });
  const { shot, check, openWorkbench, sidebar, row, openView, viewTitle, waitOutput, widenSidebar, runCommand } = ui;
  const statusBar = page.locator('.part.statusbar');
  const taskRow = () => row(/^deploy \(task\)/);

  await ui.session(
    'tasks UI',
    async () => {
      await openWorkbench(cs.url(ws));
      await openView();
      await row(/^jobs/).waitFor({ timeout: 60_000 });
      await widenSidebar(200);

      await check('clicking a tool that runs as a task: a task row with a spinner and its step, the status bar counts it, the output shows its status', async () => {
        await row(/^Deploy|^deploy/).filter({ hasNotText: 'task)' }).click();
        await taskRow().filter({ hasText: /working · step \d+ of \d+/ }).waitFor({ timeout: 20_000 });
        await statusBar.filter({ hasText: '1 task' }).waitFor({ timeout: 10_000 });
        // "working · step 3 of 90": the status moves on while the call timeout (1 s) is long past.
        await taskRow().filter({ hasText: /step ([3-9]|\d\d) of \d+/ }).waitFor({ timeout: 20_000 });
        await shot('task-row-and-status-bar');
        await runCommand('MCP Tool Host: Show Output');
        await waitOutput(/task working: step \d+ of \d+/);
        await shot('output-task-status');
      });

      await check('Cancel Task (the row\'s inline button) cancels it: the row goes, the output says cancelled', async () => {
        await taskRow().hover();
        await taskRow().getByRole('button', { name: 'Cancel Task' }).click();
        await taskRow().waitFor({ state: 'detached', timeout: 20_000 });
        await waitOutput(/cancelled by user\./);
        const kept = fs.readdirSync(tasksDir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(tasksDir, f), 'utf8')));
        if (!kept.some((t) => t.cancelled)) throw new Error('the server never heard of the cancel');
        await shot('task-cancelled');
      });

      await check('a task outlives a window reload: its row says so, and clicking it fetches the result into the output', async () => {
        await row(/^Deploy|^deploy/).filter({ hasNotText: 'task)' }).click();
        await taskRow().filter({ hasText: /working · step/ }).waitFor({ timeout: 20_000 });
        await page.reload();
        // The view comes back open by itself: clicking its tab before it is restored would close it.
        await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
        await viewTitle.waitFor({ timeout: 20_000 }).catch(() => openView());
        // After the reload the server starts again and is asked about the task: it still works.
        const earlier = taskRow().filter({ hasText: /working · step \d+ of \d+ · from an earlier session/ });
        await earlier.waitFor({ timeout: 60_000 }).catch((err) => {
          // What the server and the host kept, to tell a task cancelled on the way out from one never kept.
          const serverSide = fs.readdirSync(tasksDir).filter((f) => f.endsWith('.json')).map((f) => fs.readFileSync(path.join(tasksDir, f), 'utf8'));
          const kept = findFiles(path.join(runDir, 'ud'), 'tasks.json').map((f) => fs.readFileSync(f, 'utf8'));
          throw new Error(`${err.message}\nserver's tasks: ${serverSide.join(' ')}\nhost's kept tasks: ${kept.join(' ')}`);
        });
        await shot('task-after-reload', sidebar);
        await earlier.click();
        await waitOutput(/result \(\d+ ms\):\s*deploy finished after 45 s/, 75_000);
        await taskRow().waitFor({ state: 'detached', timeout: 10_000 });
        await shot('task-result-after-reload');
      });
    },
    async () => {
      await browser.close();
      fs.writeFileSync(userSettings, original);
      fs.rmSync(tasksDir, { recursive: true, force: true });
    },
  );
  return ui.results;
}
