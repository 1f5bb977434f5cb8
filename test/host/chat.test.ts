// The @mcp chat participant (issue 6) in the real extension host, with a real language model
// from the test-only provider (test/fakelm) whose replies are scripted. Most tests call the
// handler directly with a recording stream; the last one goes through the real Chat API.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import { MODEL_TOOL_NAME } from '../../src/core/chat/modelToolNames';
import { ask, CHAT_WAIT_MS, chatConfig, EXTENSION_ID, fakeModel, recorded, serverEntry, setScript, setServers, type Turn, serversRunning } from './chatHarness';
import { allowDestructive, promptShown, sleep, until } from './wait';

describe('@mcp in the Chat view (issue 6)', function () {
  this.timeout(90_000);
  let api: McpToolHostApi;
  let extensionPath: string;
  const running = (...names: string[]) => serversRunning(api, ...names);
  const baseServers = () => ({ demo: serverEntry(extensionPath), slow: serverEntry(extensionPath, { timeoutSeconds: 1 }) });

  before(async () => {
    const ext = vscode.extensions.getExtension<McpToolHostApi>(EXTENSION_ID)!;
    extensionPath = ext.extensionPath;
    api = await ext.activate();
    await fakeModel();
    await setServers(baseServers());
    await running('demo', 'slow');
    api.pipeline.grants.clear();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('mcpFakeLm.reset');
    for (const key of ['maxRounds', 'maxToolCalls', 'enabledServers', 'disabledTools', 'searchThreshold']) await chatConfig().update(key, undefined, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    api.pipeline.grants.clear();
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', undefined, vscode.ConfigurationTarget.Global);
    await setServers(undefined);
  });

  it('/servers and /tools answer from the catalog, grouped by server with badges', async () => {
    const servers = await ask(api, '', { command: 'servers' });
    assert.match(servers.stream.text, /\*\*demo\*\*: running, 9 tools/);
    const tools = await ask(api, '', { command: 'tools' });
    assert.match(tools.stream.text, /### demo\n\n9 tools, ~[\d,]+ tokens of definitions \(o200k_base, the GPT-4o tokenizer\)\n/);
    assert.match(tools.stream.text, /`delete_note` Delete Note \*\(destructive · idempotent\)\*/);
    assert.match(tools.stream.text, /`read_note` Read Note \*\(read\\-only · idempotent\)\*/);
    // Whether a call asks first: the pipeline's own verdict, as in the tree's tooltip.
    assert.match(tools.stream.text, /`delete_note` Delete Note \*\(destructive · idempotent\)\* · asks first/);
    assert.doesNotMatch(tools.stream.text, /`read_note` Read Note \*\(read\\-only · idempotent\)\* · asks first/);
  });

  it('/call SERVER TOOL {json} calls one tool through the pipeline and shows the result', async () => {
    const { stream, result } = await ask(api, 'demo read_note {"name": "shopping"}', { command: 'call' });
    assert.equal((result.metadata as { outcome: string }).outcome, 'ok');
    assert.match(stream.text, /demo › `read_note` `\{"name":"shopping"\}`: done/);
    assert.match(stream.text, /milk, bread, coffee/);
    const bad = await ask(api, 'demo read_note {oops', { command: 'call' });
    assert.match(bad.stream.text, /not valid JSON/);
  });

  it('loops over several rounds: each call runs, its result goes back to the model, then the answer', async () => {
    await setScript([
      { text: 'Let me look. ', calls: [{ tool: 'demo_list_notes' }] },
      { calls: [{ tool: 'demo_read_note', input: { name: 'welcome' } }, { tool: 'demo_text_stats', input: { text: 'one two three' } }] },
      { text: 'All done.' },
    ]);
    const { stream, meta } = await ask(api, 'what notes do I have?');
    assert.deepEqual(meta.calls.map((c) => [c.server, c.tool, c.outcome]), [['demo', 'list_notes', 'ok'], ['demo', 'read_note', 'ok'], ['demo', 'text_stats', 'ok']]);
    assert.equal(meta.rounds, 3);
    const requests = await recorded();
    assert.equal(requests.length, 3);
    assert.match(requests[1].toolResults[0], /welcome/);
    assert.match(requests[2].toolResults[0], /Notes live in the demo server/);
    assert.ok(requests[0].toolNames.includes('demo_read_note') && requests[0].toolNames.includes('slow_read_note'));
    assert.match(requests[0].tools.find((t) => t.name === 'demo_read_note')!.description, /MCP server "demo", tool "read_note"/);
    assert.match(stream.text, /^Let me look\. \n\n- demo › `list_notes`/);
    assert.match(stream.text, /demo › `list_notes` `\{\}`: done/);
    assert.match(stream.text, /demo › `read_note` `\{"name":"welcome"\}`: done/);
    assert.match(stream.text, /All done\.$/);
    assert.ok(stream.progressParts.some((p) => p.startsWith('Calling demo › read_note')));
  });

  it('a denied call is not sent: the model is told, and the reply says so', async () => {
    await setScript([{ calls: [{ tool: 'demo_delete_note', input: { name: 'welcome' } }] }, { text: 'You did not allow it.' }]);
    const shown = promptShown(api, /^Approve "Delete Note" \(delete_note\) on demo\?/, CHAT_WAIT_MS);
    const pending = ask(api, 'delete the welcome note');
    await shown; // the approval quick-pick, as for a click; Escape denies
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    const { stream, meta } = await pending;
    assert.deepEqual(meta.calls.map((c) => c.outcome), ['denied']);
    const requests = await recorded();
    assert.match(requests[1].toolResults[0], /The user denied this call; it was not sent/);
    assert.match(stream.text, /demo › `delete_note` `\{"name":"welcome"\}`: \*\*denied by you\*\*: not sent/);
    assert.match(stream.text, /You denied a call: nothing was sent for it\./);
    const check = await ask(api, 'demo read_note {"name": "welcome"}', { command: 'call' });
    assert.match(check.stream.text, /Notes live in the demo server/, 'the note is still there');
  });

  it('an approved destructive call runs', async () => {
    await setScript([{ calls: [{ tool: 'demo_delete_note', input: { name: 'shopping' } }] }]);
    const shown = promptShown(api, /^Approve "Delete Note" \(delete_note\) on demo\?/, CHAT_WAIT_MS);
    const pending = ask(api, 'delete the shopping note');
    await shown;
    await allowDestructive('once');
    const { stream, meta } = await pending;
    assert.deepEqual(meta.calls.map((c) => c.outcome), ['ok']);
    assert.match(stream.text, /FAKE-MODEL-REPLY: Deleted "shopping"\./);
  });

  it('cancelling the chat request aborts the MCP call in flight', async () => {
    await setScript([{ calls: [{ tool: 'demo_slow_count', input: { steps: 50, delayMs: 200 } }] }, { text: 'never' }]);
    const source = new vscode.CancellationTokenSource();
    const started = Date.now();
    const pending = ask(api, 'count slowly', { token: source.token });
    await until('the call in flight', () => api.pipeline.callsInFlight > 0, CHAT_WAIT_MS);
    await sleep(500);
    source.cancel();
    const { meta } = await pending;
    assert.ok(Date.now() - started < 5000, 'returned soon after the cancellation, not after 10 s of counting');
    assert.deepEqual(meta.calls.map((c) => c.outcome), ['cancelled']);
    assert.equal(meta.stopped, 'cancelled');
    assert.equal((await recorded()).length, 1, 'the model was not asked again');
  });

  it('a call that times out is reported to the model and the user', async () => {
    await setScript([{ calls: [{ tool: 'slow_slow_count', input: { steps: 2, delayMs: 3000 } }] }, { text: 'It timed out.' }]);
    const { stream, meta } = await ask(api, 'count slowly on slow');
    assert.deepEqual(meta.calls.map((c) => c.outcome), ['timeout']);
    assert.match((await recorded())[1].toolResults[0], /^The call timed out/);
    assert.match(stream.text, /slow › `slow_count` .*: timed out/);
  });

  it('stops at the maximum number of tool calls per request, and of rounds', async () => {
    await chatConfig().update('maxToolCalls', 2, vscode.ConfigurationTarget.Global);
    await setScript([{ calls: [{ tool: 'demo_list_notes' }, { tool: 'demo_list_notes' }, { tool: 'demo_list_notes' }] }, { text: 'Enough.' }]);
    const limited = await ask(api, 'list three times');
    assert.deepEqual(limited.meta.calls.map((c) => c.outcome), ['ok', 'ok', 'refused']);
    assert.match(limited.stream.text, /not sent: this request reached its limit of 2 tool calls/);
    const requests = await recorded();
    assert.equal(requests[1].toolNames.length, 0, 'the model must answer in words once the budget is spent');
    assert.match(requests[1].toolResults[2], /^Not sent: this chat request reached its limit of 2 tool calls/);

    await chatConfig().update('maxToolCalls', undefined, vscode.ConfigurationTarget.Global);
    await chatConfig().update('maxRounds', 2, vscode.ConfigurationTarget.Global);
    const again = { calls: [{ tool: 'demo_list_notes', exact: true }] };
    await setScript([again, again, again]);
    const rounds = await ask(api, 'keep listing');
    assert.equal(rounds.meta.calls.length, 2);
    assert.equal(rounds.meta.stopped, 'max-rounds');
    assert.match(rounds.stream.text, /Stopped after 2 rounds of tool calls \(setting `mcpToolHost\.chat\.maxRounds`\)/);
  });

  it('earlier turns of the conversation are part of the request', async () => {
    const history: Turn[] = [
      { prompt: 'my favourite note is shopping', participant: 'mcpToolHost.mcp', references: [], toolReferences: [] },
      { response: [new vscode.ChatResponseMarkdownPart('Noted: shopping.')], result: {}, participant: 'mcpToolHost.mcp' },
    ];
    const { stream } = await ask(api, 'which one is my favourite?', { history });
    const [request] = await recorded();
    assert.deepEqual(request.messages.slice(1).map((m) => [m.role, m.text]), [['user', 'my favourite note is shopping'], ['assistant', 'Noted: shopping.'], ['user', 'which one is my favourite?']]);
    assert.match(stream.text, /FAKE-MODEL-REPLY: \d+ tools offered; you said: which one is my favourite\?/);
  });

  it('settings turn servers and tools off for chat', async () => {
    await chatConfig().update('enabledServers', ['demo'], vscode.ConfigurationTarget.Global);
    await chatConfig().update('disabledTools', ['demo/delete_note', 'echo'], vscode.ConfigurationTarget.Global);
    await ask(api, 'hello');
    const [request] = await recorded();
    assert.ok(request.toolNames.every((n) => n.startsWith('demo_')), request.toolNames.join());
    assert.ok(!request.toolNames.includes('demo_delete_note') && !request.toolNames.includes('demo_echo'));
    assert.equal(request.toolNames.length, 7);
  });

  it('without a model, and with a server down, the answer says what to do', async () => {
    const none = await ask(api, 'hello', { model: null });
    assert.match(none.stream.text, /No language model is available for chat/);
    await setServers({ ...baseServers(), broken: serverEntry(extensionPath, {}, 'crash-at-start.cjs') });
    await until('broken in error', () => api.pool.get('broken')?.state.kind === 'error', CHAT_WAIT_MS);
    const { stream } = await ask(api, 'hello');
    assert.match(stream.text, /Server \*\*broken\*\* is not running \(error/);
    const direct = await ask(api, 'broken anything', { command: 'call' });
    assert.match(direct.stream.text, /failed: Server "broken" is not running/);
    await setServers(baseServers());
  });

  it('budget: at most 128 tools, the servers the user names first, and the rest said to be left out', async () => {
    await chatConfig().update('searchThreshold', 1000, vscode.ConfigurationTarget.Global); // the cut without search (issue 19)
    await setServers({ ...baseServers(), bulk: serverEntry(extensionPath, { env: { TOOLS: '200' } }, 'many-tools.cjs') });
    await running('demo', 'slow', 'bulk');
    const named = await ask(api, 'use demo to read my notes');
    let [request] = await recorded();
    assert.equal(request.toolNames.length, 128);
    for (const tool of ['list_notes', 'read_note', 'delete_note', 'slow_count']) assert.ok(request.toolNames.includes(`demo_${tool}`), tool);
    assert.match(named.stream.text, /tools are enabled, more than the 128 a request may offer: 90 left out/);
    assert.equal(named.meta.leftOut.length, 90);

    await vscode.commands.executeCommand('mcpFakeLm.reset');
    const pinned: Turn[] = [{ prompt: 'slow', command: 'use', participant: 'mcpToolHost.mcp', references: [], toolReferences: [] }];
    await ask(api, 'hello', { history: pinned });
    [request] = await recorded();
    assert.ok(request.toolNames.includes('slow_list_notes') && request.toolNames.includes('slow_echo'), '/use slow puts its tools in');

    await vscode.commands.executeCommand('mcpFakeLm.reset');
    await ask(api, 'synthetic tool 150');
    [request] = await recorded();
    assert.ok(request.toolNames.includes('bulk_tool_150'), 'ranked by the words of the request');
    await setServers(baseServers());
  });

  it('tool names are valid for every model, unique across servers, and map back to their server', async () => {
    await setServers({ ...baseServers(), 'a.b': serverEntry(extensionPath), 'a b': serverEntry(extensionPath) });
    await running('a.b', 'a b');
    await setScript([{ calls: [{ tool: 'a_b_list_notes', exact: true }, { tool: 'a_b_list_notes_2', exact: true }] }, { text: 'ok' }]);
    const { meta } = await ask(api, 'list notes on both');
    const [request] = await recorded();
    assert.ok(request.toolNames.every((n) => MODEL_TOOL_NAME.test(n)), request.toolNames.join());
    assert.equal(new Set(request.toolNames.map((n) => n.toLowerCase())).size, request.toolNames.length);
    assert.deepEqual(new Set(meta.calls.map((c) => c.server)), new Set(['a.b', 'a b']));
    assert.deepEqual(meta.calls.map((c) => c.outcome), ['ok', 'ok']);
    await setServers(baseServers());
  });

  it('through the real Chat API: "@mcp call list_notes" reaches the model, the tool and back', async () => {
    await vscode.workspace.getConfiguration('chat').update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    await running('demo');
    await vscode.commands.executeCommand('mcpFakeLm.reset');
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@mcp /use demo', blockOnResponse: true }); // returns once @mcp has answered
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@mcp call list_notes' });
    const requests = await until('the model to get the tool result', async () => {
      const all = await recorded();
      return all.length >= 2 && all;
    }, CHAT_WAIT_MS);
    assert.ok(requests[0].toolNames.includes('demo_list_notes'));
    assert.match(requests[1].toolResults[0], /welcome/);
    assert.ok(requests[0].messages.some((m) => m.text === '/use demo'), 'the earlier /use turn is in the history');
  });
});
