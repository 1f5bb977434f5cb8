// Issue 32, newcomer polish: what the first ten minutes show, in the real extension host.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import type { CallOutcome } from '../../src/core/calls/callPipeline';
import { until } from './wait';

const settings = () => vscode.workspace.getConfiguration('mcpToolHost');

/**
 * Records the notifications the extension shows and answers them with `answer` (the test and the
 * extension share one `vscode.window`: a modal dialog would otherwise wait for a click).
 */
function recordMessages(answer: (message: string) => string | undefined) {
  const shown: { kind: string; message: string; actions: string[] }[] = [];
  const window = vscode.window as unknown as Record<string, unknown>;
  const originals = new Map<string, unknown>();
  for (const kind of ['showInformationMessage', 'showWarningMessage'] as const) {
    originals.set(kind, window[kind]);
    window[kind] = (message: string, ...rest: unknown[]) => {
      const actions = rest.filter((r): r is string => typeof r === 'string');
      shown.push({ kind, message, actions });
      return Promise.resolve(answer(message));
    };
  }
  return { shown, restore: () => originals.forEach((f, kind) => (window[kind] = f)) };
}

describe('newcomer polish (issue 32)', function () {
  this.timeout(90_000);
  let api: McpToolHostApi;
  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    await vscode.commands.executeCommand('mcpToolHost.addDemoServer');
    await until('demo running', () => api.pool.get('demo')?.state.kind === 'running' && api.pool.get('demo')!.tools.length > 0);
  });
  after(async () => {
    api.pipeline.grants.clear();
    await settings().update('rules', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Reset Approvals counts one approval in the singular, and says that allow rules still allow', async () => {
    api.pipeline.grants.clear();
    api.pipeline.grants.add('tool-always', 'demo', undefined, 'delete_note', undefined);
    await settings().update('rules', [{ name: 'fetch local', server: 'demo', tool: 'fetch_url', effect: 'allow' }, { name: 'slow', server: 'demo', tool: 'slow_count', effect: 'allow' }], vscode.ConfigurationTarget.Global);
    api.ruleSet.changed();
    const messages = recordMessages(() => undefined);
    try {
      await vscode.commands.executeCommand('mcpToolHost.resetApprovals');
    } finally {
      messages.restore();
    }
    const asked = messages.shown.find((m) => m.kind === 'showWarningMessage');
    assert.ok(asked, `no question: ${JSON.stringify(messages.shown)}`);
    assert.doesNotMatch(asked.message, /1 approvals/);
    assert.doesNotMatch(asked.message, /Every destructive or open-world call will ask again/);
    assert.match(asked.message, /^Forget your 1 approval\? The calls it covered will ask again\. Your 2 allow rules \(mcpToolHost\.rules\) still allow what they match\.$/);
    assert.equal(api.pipeline.grants.all.length, 1, 'not answered: nothing forgotten');
  });

  it('an image result can be opened from its notification: "Open" shows the saved file in an editor', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await settings().update('apps.enabled', false, vscode.ConfigurationTarget.Global);
    const messages = recordMessages((m) => (/^The result saved 1 file: .*\.png\.$/.test(m) ? 'Open' : undefined));
    let outcome: CallOutcome | undefined;
    try {
      outcome = await vscode.commands.executeCommand<CallOutcome>('mcpToolHost.callTool', { server: 'demo', tool: 'bar_chart', args: { values: [3, 1, 4] } });
      assert.equal(outcome?.kind, 'ok');
      const file = outcome?.kind === 'ok' ? outcome.result.files[0] : undefined;
      assert.ok(file?.endsWith('.png'), `saved: ${file}`);
      const opened = await until('the image open in an editor', () =>
        vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => (t.input instanceof vscode.TabInputCustom || t.input instanceof vscode.TabInputText) && t.input.uri.fsPath === file), 15_000);
      assert.ok(opened);
    } finally {
      messages.restore();
      await settings().update('apps.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
    assert.ok(messages.shown.some((m) => /^The result saved 1 file: /.test(m.message) && m.actions.includes('Open')), JSON.stringify(messages.shown));
  });
});
