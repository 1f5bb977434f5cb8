import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import { promptShown, until } from './wait';

const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/servers/elicits.cjs');
const settings = () => vscode.workspace.getConfiguration('mcpToolHost');
const accept = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');

/** A server's form in the middle of a call (elicitation, form mode), answered in the real quick inputs. */
describe('elicitation in VS Code: a form during a call', () => {
  let api: McpToolHostApi;
  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    await settings().update('servers', { ...settings().inspect<Record<string, unknown>>('servers')?.globalValue, asks: { command: process.execPath, args: [FIXTURE] } }, vscode.ConfigurationTarget.Global);
    await until('asks running', () => api.pool.get('asks')?.state.kind === 'running');
  });
  after(async () => {
    const servers = { ...settings().inspect<Record<string, unknown>>('servers')?.globalValue };
    delete servers.asks;
    await settings().update('servers', servers, vscode.ConfigurationTarget.Global);
  });

  /** Calls `tool`; the server's answer to what the user did is the result's text. */
  const call = async (tool: string) => {
    const outcome = await api.pipeline.call({ server: 'asks', tool, args: {}, origin: 'api' });
    assert.equal(outcome.kind, 'ok', JSON.stringify(outcome));
    return outcome.kind === 'ok' ? (JSON.parse(outcome.result.text) as Record<string, unknown>) : {};
  };

  it('names the server and the call it asks during, then asks field by field, each pre-filled with its default: accepting all sends the defaults', async () => {
    const started = promptShown(api, /^"asks" asks for input during its call "profile"$/, 20_000);
    const answered = call('profile');
    await started;
    for (const [i, field] of ['Name', 'age', 'score', 'status', 'verified', 'tags', 'note'].entries()) {
      const step = promptShown(api, new RegExp(`^asks \\(${i + 1}/7\\): ${field}`));
      await accept();
      await step;
    }
    await accept(); // the optional note, left empty
    assert.deepEqual(await answered, { action: 'accept', content: { name: 'Ada', age: 36, score: 9.5, status: 'away', verified: true, tags: ['a', 'c'] } });
  });

  it('"Decline" declines; Escape cancels', async () => {
    let started = promptShown(api, /asks for input during its call/);
    let answered = call('profile');
    await started;
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await accept();
    assert.deepEqual(await answered, { action: 'decline' });
    started = promptShown(api, /asks for input during its call/);
    answered = call('profile');
    await started;
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.deepEqual(await answered, { action: 'cancel' });
  });
});
