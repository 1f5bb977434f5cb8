import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import * as path from 'node:path';
import type { McpToolHostApi } from '../../src/extension';
import type { InterfaceEvent } from '../../src/vscode/apps/appPanel';
import { ask, EXTENSION_ID, serverEntry, setScript, setServers } from './chatHarness';
import { until } from './wait';

// A tool interface (MCP Apps) opened by an @mcp call, with the test language model: it opens beside
// the chat (extensions get no inline webview in a chat response), the response offers "Open
// Interface", and only such an interface may offer a message to the chat, which the user sees first.
describe('@mcp and tool interfaces (MCP Apps)', () => {
  let api: McpToolHostApi;
  const events: InterfaceEvent[] = [];
  let listener: vscode.Disposable | undefined;
  const reportFile = path.join(os.tmpdir(), `chat-apps-${process.pid}.jsonl`);
  const reports = () => (fs.existsSync(reportFile) ? fs.readFileSync(reportFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { tool: string; args: { what?: { plan?: string; answer?: { isError?: boolean } } } }) : []);

  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>(EXTENSION_ID)!.activate();
    listener = api.onDidInterface((e) => events.push(e));
    const extensionPath = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    await setServers({ hostile: serverEntry(extensionPath, { env: { REPORT_FILE: reportFile } }, 'app-hostile.cjs') });
    await until('hostile running', () => api.pool.get('hostile')?.state.kind === 'running' && api.pool.get('hostile')!.tools.length === 3, 30_000);
  });
  after(async () => {
    listener?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setServers(undefined);
    fs.rmSync(reportFile, { force: true });
  });

  it('a chat call opens the interface with an "Open Interface" button; its ui/message is taken (put in the chat input for the user), not sent', async () => {
    await setScript([{ calls: [{ tool: 'show', input: { plan: 'message', text: 'Summarise this' } }] }, { text: 'Shown.' }]);
    const { stream, meta } = await ask(api, 'show me the interface');
    assert.equal(meta.calls.length, 1);
    assert.ok(stream.buttons.some((b) => b.command === 'mcpToolHost.openInterface' && JSON.stringify(b.arguments) === JSON.stringify([{ server: 'hostile', tool: 'show' }])), JSON.stringify(stream.buttons));
    const message = await until('the interface reported', () => reports().find((r) => r.args.what?.plan === 'message'), 30_000);
    assert.notEqual(message.args.what?.answer?.isError, true, 'the host took the message');
    await until('the interface fed', () => events.some((e) => e.tool === 'show' && e.what === 'result-sent'));
    assert.ok(vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.label === 'show (interface)'));
  });
});
