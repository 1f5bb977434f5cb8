// A server withdraws the question it asked (notifications/cancelled for its elicitation/create),
// in the real extension host: the open form closes at once, saying so, and nothing goes back.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import { promptShown, until } from './wait';

const ELICITS = path.resolve(__dirname, '../../../test/fixtures/servers/elicits.cjs');
const settings = () => vscode.workspace.getConfiguration('mcpToolHost');
const accept = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');

/** Records the warnings the extension shows (the test and the extension share one `vscode.window`). */
function recordWarnings() {
  const shown: string[] = [];
  const window = vscode.window as unknown as Record<string, unknown>;
  const original = window.showWarningMessage;
  window.showWarningMessage = (message: string) => {
    shown.push(message);
    return Promise.resolve(undefined);
  };
  return { shown, restore: () => (window.showWarningMessage = original) };
}

describe('a server withdraws its question while the form is open', function () {
  this.timeout(90_000);
  let api: McpToolHostApi;
  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    const servers = settings().inspect<Record<string, unknown>>('servers')?.globalValue;
    await settings().update('servers', { ...servers, wd: { command: process.execPath, args: [ELICITS], env: { ELECTRON_RUN_AS_NODE: '1' } } }, vscode.ConfigurationTarget.Global);
    await until('wd running with its tools', () => api.pool.get('wd')?.state.kind === 'running' && api.pool.get('wd')!.tools.length > 0, 30_000);
  });
  after(async () => {
    const servers = { ...settings().inspect<Record<string, unknown>>('servers')?.globalValue };
    delete servers.wd;
    await settings().update('servers', servers, vscode.ConfigurationTarget.Global);
  });

  it('the form closes with a message that the server withdrew it; the next form shows at once; no answer is sent', async () => {
    const warnings = recordWarnings();
    try {
      let shown = promptShown(api, /^"wd" asks for input during its call "withdraws"$/);
      // Withdrawn 3 s after it asked; the call goes on 6 s after that.
      const call = api.pipeline.call({ server: 'wd', tool: 'withdraws', args: { afterMs: 3000, waitMs: 6000 }, origin: 'api' });
      await shown;
      const field = promptShown(api, /^wd \(1\/1\): Colour/);
      await accept(); // Answer…: the field is open when the server withdraws the question
      await field;
      const said = await until('the message that the server withdrew it', () => warnings.shown.find((m) => /withdrew/.test(m)), 8_000);
      assert.equal(said, 'The prompt of "wd" was closed: the server withdrew its question during its call "withdraws". Nothing was sent back.');
      // The form is gone: another call's form shows while the first call still runs.
      shown = promptShown(api, /^"wd" asks for input during one of its calls "withdraws", "signup"$/, 3_000);
      const next = api.pipeline.call({ server: 'wd', tool: 'signup', args: {}, origin: 'api' });
      await shown;
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      const after = await next;
      assert.ok(after.kind === 'ok', JSON.stringify(after));
      assert.deepEqual(JSON.parse(after.result.text), { action: 'cancel' });
      const outcome = await call;
      assert.ok(outcome.kind === 'ok', JSON.stringify(outcome));
      assert.deepEqual(JSON.parse(outcome.result.text), { withdrawn: true, answered: null });
      assert.equal(warnings.shown.filter((m) => /^The prompt of "wd"/.test(m)).length, 1, warnings.shown.join('\n'));
    } finally {
      warnings.restore();
    }
  });
});
