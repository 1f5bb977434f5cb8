// Result budgets and agent-mode parity, in the real extension host with the test model: a real
// server returns a result far past the budget; @mcp and the language-model tools give the model its
// head, its size and a handle, and read_result reads on; #mcpCallTool opens a tool's interface as
// @mcp does, and arguments that miss a found tool's schema get its definition again.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import type { InterfaceEvent } from '../../src/vscode/apps/appPanel';
import { LM_CALL_TOOL, LM_READ_RESULT_TOOL } from '../../src/core/chat/lmToolNames';
import { ask, EXTENSION_ID, recorded, serverEntry, serversRunning, setScript, setServers } from './chatHarness';
import { until } from './wait';

/** Invokes one of our tools as agent mode does (no chat session), with an optional token budget from the chat. */
async function invoke(name: string, input: object, tokenBudget?: number): Promise<string> {
  const tokenizationOptions = tokenBudget ? { tokenBudget, countTokens: async (text: string) => Math.ceil(text.length / 4) } : undefined;
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined, tokenizationOptions }, new vscode.CancellationTokenSource().token);
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}
const handleIn = (text: string) => /"(mcpres_[A-Za-z0-9_-]{24})"/.exec(text)?.[1];
const PATTERN = '0123456789abcdef';

describe('result budgets: what the model gets of a huge result (@mcp and the language-model tools)', () => {
  let api: McpToolHostApi;
  const events: InterfaceEvent[] = [];
  let listener: vscode.Disposable | undefined;

  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>(EXTENSION_ID)!.activate();
    listener = api.onDidInterface((e) => events.push(e));
    const extensionPath = vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath;
    await setServers({
      huge: serverEntry(extensionPath, {}, 'huge-result.cjs'),
      tight: serverEntry(extensionPath, { resultTokens: 1_000, toolResultTokens: { log: 600 } }, 'huge-result.cjs'),
      hostile: serverEntry(extensionPath, {}, 'app-hostile.cjs'),
    });
    await serversRunning(api, 'huge', 'tight', 'hostile');
  });
  after(async () => {
    listener?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setServers(undefined);
  });

  it('#mcpCallTool: 20 MiB come back as a head within the default 10,000 tokens, the size and a handle; read_result pages on exactly', async function () {
    this.timeout(120_000);
    const text = await invoke(LM_CALL_TOOL, { server: 'huge', tool: 'blob', arguments: { mib: 20 } });
    assert.ok(text.length < 10_000 * 8, `${text.length} characters`);
    assert.match(text, /cut this result to fit its budget of 10,000 tokens/);
    assert.match(text, /20,971,520 characters/);
    const handle = handleIn(text)!;
    assert.ok(handle, text.slice(-600));
    const head = text.slice(0, text.indexOf('\n[The host cut'));
    assert.equal(head, PATTERN.repeat(Math.ceil(head.length / 16)).slice(0, head.length));
    const page = await invoke(LM_READ_RESULT_TOOL, { handle, offset: 20 * 1024 * 1024 - 20 });
    assert.ok(page.startsWith(PATTERN.slice(12) + PATTERN), page.slice(0, 80));
    assert.match(page, /the end of the result/);
  });

  it('#mcpCallTool: a server\'s and a tool\'s budget apply, and the chat\'s own token budget caps them', async function () {
    this.timeout(120_000);
    const server = await invoke(LM_CALL_TOOL, { server: 'tight', tool: 'blob', arguments: { mib: 1 } });
    assert.match(server, /budget of 1,000 tokens/);
    const tool = await invoke(LM_CALL_TOOL, { server: 'tight', tool: 'log', arguments: { lines: 5_000, needle: 4_000 } });
    assert.match(tool, /budget of 600 tokens/);
    const capped = await invoke(LM_CALL_TOOL, { server: 'huge', tool: 'blob', arguments: { mib: 1 } }, 700);
    assert.match(capped, /budget of 700 tokens/);
    const found = await invoke(LM_READ_RESULT_TOOL, { handle: handleIn(tool), pattern: 'needle' });
    assert.match(found, /> 4000\| entry 4000: the NEEDLE is here/);
  });

  it('attacker: read_result with a forged handle, a negative or huge offset, a catastrophic pattern: a sentence each', async function () {
    this.timeout(60_000);
    assert.match(await invoke(LM_READ_RESULT_TOOL, { handle: 'mcpres_AAAAAAAAAAAAAAAAAAAAAAAA' }), /no result "mcpres_A+" in this window/);
    assert.match(await invoke(LM_READ_RESULT_TOOL, { handle: '../secret' }), /must be the handle a cut result named/);
    const handle = handleIn(await invoke(LM_CALL_TOOL, { server: 'huge', tool: 'blob', arguments: { mib: 2 } }))!;
    assert.match(await invoke(LM_READ_RESULT_TOOL, { handle, offset: -1 }), /"offset" must be a whole number from 0 to 2097152/);
    assert.match(await invoke(LM_READ_RESULT_TOOL, { handle, offset: 1e15 }), /"offset" must be a whole number/);
    const started = Date.now();
    assert.match(await invoke(LM_READ_RESULT_TOOL, { handle, pattern: '(a+)+$' }), /No line contains/);
    assert.ok(Date.now() - started < 5_000);
  });

  it('@mcp: the huge result is cut for the model and the chat says so; the next round offers read_result, which finds the line', async function () {
    this.timeout(120_000);
    await setScript([
      { calls: [{ tool: 'huge_log', input: { lines: 200_000, needle: 150_000 } }] },
      { calls: [{ tool: 'read_result', input: { handle: '$HANDLE', pattern: 'NEEDLE' } }] },
      { text: 'Found it.' },
    ]);
    const before = (await recorded()).length;
    const { stream, meta } = await ask(api, 'find the needle in the huge log');
    assert.equal(meta.calls.length, 1);
    assert.match(stream.text, /The model got [\d,]+ of about [\d,]+ tokens of this result \(budget 10,000/);
    assert.match(stream.text, /searched a cut result for `NEEDLE`/);
    const requests = (await recorded()).slice(before);
    assert.ok(!requests[0].toolNames.includes('read_result'), 'no read tool before a result is cut');
    assert.ok(requests[1].toolNames.includes('read_result'), JSON.stringify(requests[1].toolNames));
    assert.ok(requests[1].toolResults[0].length < 10_000 * 8);
    assert.match(requests[1].toolResults[0], /cut this result to fit its budget of 10,000 tokens/);
    assert.match(requests[2].toolResults[0], /> 150000\| entry 150000: the NEEDLE is here/);
  });

  it('#mcpCallTool opens a tool\'s interface beside the chat, as @mcp and the Tools view do', async function () {
    this.timeout(60_000);
    const text = await invoke(LM_CALL_TOOL, { server: 'hostile', tool: 'show', arguments: { plan: 'ok' } });
    assert.ok(text.length > 0);
    await until('the interface fed', () => events.some((e) => e.tool === 'show' && e.what === 'result-sent'), 30_000);
    assert.ok(vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.label === 'show (interface)'));
  });

  it('#mcpCallTool: arguments that miss the schema get the tool\'s definition again, so the next call can be right', async () => {
    const text = await invoke(LM_CALL_TOOL, { server: 'huge', tool: 'log', arguments: { lines: 'many' } });
    assert.match(text, /Not sent: the arguments do not match/);
    assert.match(text, /The tool's definition; call mcpToolHost_callTool again/);
    assert.match(text, /"inputSchema": \{/);
    assert.match(text, /"needle"/);
  });
});
