// @mcp with more tools than mcpToolHost.chat.searchThreshold (issue 19): the model gets
// search_tools (and the tools the user named or pinned), finds the tool it needs, calls it through
// the approval prompt, and answers. Real servers (copies of the demo server), the offline test model.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import { ask, CHAT_WAIT_MS, chatConfig, EXTENSION_ID, fakeModel, recorded, serverEntry, setScript, setServers, type Turn, serversRunning } from './chatHarness';
import { allowDestructive, promptShown } from './wait';

describe('@mcp searches the tools past a threshold (issue 19)', function () {
  this.timeout(90_000);
  let api: McpToolHostApi;
  let extensionPath: string;
  const running = (...names: string[]) => serversRunning(api, ...names);

  before(async () => {
    const ext = vscode.extensions.getExtension<McpToolHostApi>(EXTENSION_ID)!;
    extensionPath = ext.extensionPath;
    api = await ext.activate();
    await fakeModel();
    // Servers of this file only: a deleted note here is no other test's note.
    await setServers({ vault: serverEntry(extensionPath), archive: serverEntry(extensionPath) });
    await running('vault', 'archive');
    api.pipeline.grants.clear();
  });
  beforeEach(() => chatConfig().update('searchThreshold', 10, vscode.ConfigurationTarget.Global));
  afterEach(async () => {
    await vscode.commands.executeCommand('mcpFakeLm.reset');
    for (const key of ['searchThreshold', 'enabledServers', 'disabledTools']) await chatConfig().update(key, undefined, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    api.pipeline.grants.clear();
    await setServers(undefined);
  });

  it('a request that needs a tool outside the first set searches, finds it, calls it through approval, and answers', async () => {
    await setScript([
      { calls: [{ tool: 'search_tools', input: { query: 'delete note', limit: 3 }, exact: true }] },
      { calls: [{ tool: 'vault_delete_note', input: { name: 'shopping' }, exact: true }] },
      { text: 'Removed your shopping list.' },
    ]);
    const shown = promptShown(api, /^Approve "Delete Note" \(delete_note\) on vault\?/, CHAT_WAIT_MS);
    const pending = ask(api, 'please get rid of my shopping list');
    await shown; // the same approval prompt as for a tool offered up front
    await allowDestructive('once');
    const { stream, meta } = await pending;

    const requests = await recorded();
    assert.deepEqual(requests[0].toolNames, ['search_tools'], 'the first round offers the search tool only');
    assert.equal(meta.searching, true);
    assert.deepEqual(meta.offered, ['search_tools']);
    assert.equal(meta.searches.length, 1);
    assert.equal(meta.searches[0].query, 'delete note');
    assert.ok(meta.searches[0].found.length <= 3);
    assert.ok(meta.searches[0].found.includes('vault/delete_note'), meta.searches[0].found.join());
    // What the model got back: the definitions of the tools found, now callable by these names.
    assert.match(requests[1].toolResults[0], /^Found \d tools; you can call them now by these names:/);
    const definitions = JSON.parse(requests[1].toolResults[0].split('\n')[1]) as { name: string; description: string; inputSchema: { properties: object } }[];
    const del = definitions.find((d) => d.name === 'vault_delete_note')!;
    assert.match(del.description, /MCP server "vault", tool "delete_note"/);
    assert.ok('name' in del.inputSchema.properties);
    assert.ok(requests[1].toolNames.includes('search_tools') && requests[1].toolNames.includes('vault_delete_note'));
    assert.ok(requests[1].toolNames.length <= 4, requests[1].toolNames.join());

    assert.deepEqual(meta.calls.map((c) => [c.server, c.tool, c.outcome]), [['vault', 'delete_note', 'ok']]);
    assert.match(stream.text, /more than 10: the model searches them/);
    assert.match(stream.text, /Searched the tools for "delete note": .*`vault\/delete_note`/);
    assert.match(stream.text, /vault › `delete_note` `\{"name":"shopping"\}`: done/);
    assert.match(stream.text, /Removed your shopping list\.$/);
    const check = await ask(api, 'vault read_note {"name": "shopping"}', { command: 'call' });
    assert.doesNotMatch(check.stream.text, /milk, bread, coffee/, 'the call really ran on the server');
  });

  it('a tool not offered or found cannot be called, even by its exact name; a search without a query is told what to send', async () => {
    await setScript([{ calls: [{ tool: 'archive_delete_note', input: { name: 'welcome' }, exact: true }, { tool: 'search_tools', input: { query: 42 }, exact: true }] }, { text: 'ok' }]);
    const { meta } = await ask(api, 'hello');
    assert.deepEqual(meta.calls.map((c) => c.outcome), ['unknown-tool']);
    const [, second] = await recorded();
    assert.match(second.toolResults[0], /There is no tool named "archive_delete_note"\. Use only the tools offered or the tools "search_tools" found\./);
    assert.match(second.toolResults[1], /search_tools needs a "query": a few words that say what the tool should do\./);
    assert.deepEqual(meta.searches, [{ query: '', found: [] }]);
    assert.deepEqual(second.toolNames, ['search_tools'], 'nothing was found, nothing more is offered');
  });

  it('search never finds the tools of a server or a tool turned off for chat', async () => {
    await chatConfig().update('enabledServers', ['vault'], vscode.ConfigurationTarget.Global);
    await chatConfig().update('disabledTools', ['vault/delete_note', 'echo'], vscode.ConfigurationTarget.Global);
    await chatConfig().update('searchThreshold', 0, vscode.ConfigurationTarget.Global);
    await setScript([
      { calls: [{ tool: 'search_tools', input: { query: 'delete note', limit: 10 }, exact: true }, { tool: 'search_tools', input: { query: 'echo text back archive', limit: 10 }, exact: true }, { tool: 'search_tools', input: { query: 'remove the archive note, echo it', limit: 1 }, exact: true }] },
      { calls: [{ tool: 'vault_delete_note', input: { name: 'welcome' }, exact: true }] },
      { text: 'ok' },
    ]);
    const { meta, stream } = await ask(api, 'hello');
    const found = meta.searches.flatMap((s) => s.found);
    assert.ok(found.length > 0, 'the searches found the enabled tools');
    assert.ok(found.every((f) => f.startsWith('vault/')), found.join());
    assert.ok(!found.includes('vault/delete_note') && !found.includes('vault/echo'), found.join());
    // The names listed for browsing are enabled tools too: nothing of the server or tools turned off.
    const listed = meta.searches.flatMap((s) => s.listed ?? []);
    assert.ok(listed.length > 0, 'the narrow search lists other tools of the best server');
    assert.ok(listed.every((f) => f.startsWith('vault/')) && !listed.includes('vault/delete_note') && !listed.includes('vault/echo'), listed.join());
    assert.match(stream.text, /The model searches the 7 enabled tools/);
    assert.deepEqual(meta.calls.map((c) => c.outcome), ['unknown-tool'], 'a disabled tool stays uncallable');
    const requests = await recorded();
    assert.ok(!requests.some((r) => r.toolNames.some((n) => n.includes('delete_note') || n.startsWith('archive_'))));
    // What the three searches answered (the next round's tool results) names none of them either.
    assert.ok(!requests[1].toolResults.some((t) => /delete_note|archive|\becho\b/.test(t)), requests[1].toolResults.join('\n'));
  });

  it('a narrow search lists the other tools of the best servers; searching one by server/name returns its definition to call', async () => {
    await setScript([
      { calls: [{ tool: 'search_tools', input: { query: 'remove a note', limit: 1 }, exact: true }] },
      { calls: [{ tool: 'search_tools', input: { query: 'vault/text_stats' }, exact: true }] },
      { calls: [{ tool: 'vault_text_stats', input: { text: 'two words' }, exact: true }] },
      { text: 'Two words.' },
    ]);
    const { meta } = await ask(api, 'how long is this text?');
    const [first, second] = meta.searches;
    assert.equal(first.found.length, 1);
    assert.ok(first.listed?.includes('vault/text_stats') && !first.listed.includes(first.found[0]), JSON.stringify(first));
    assert.deepEqual([second.found[0], second.listed], ['vault/text_stats', undefined]);
    const requests = await recorded();
    // What the model read: the names, server by server, and how to get one.
    assert.match(requests[1].toolResults[0], /\n\nOther tools of the servers that fit best \(not callable yet: search_tools with a name, or server\/name, returns its definition\):\n(vault|archive): [a-z_, ]*text_stats/);
    assert.match(requests[2].toolResults[0], /^Found \d tools; you can call them now by these names:\n\[\{"name":"vault_text_stats"/);
    assert.doesNotMatch(requests[2].toolResults[0], /Other tools/);
    assert.ok(requests[2].toolNames.includes('vault_text_stats'));
    assert.deepEqual(meta.calls.map((c) => [c.server, c.tool, c.outcome]), [['vault', 'text_stats', 'ok']]);
  });

  it('the tools of a server pinned with /use or named in the request are offered up front', async () => {
    const pinned: Turn[] = [{ prompt: 'archive', command: 'use', participant: 'mcpToolHost.mcp', references: [], toolReferences: [] }];
    await ask(api, 'hello', { history: pinned });
    let [request] = await recorded();
    assert.equal(request.toolNames[0], 'search_tools');
    assert.deepEqual(request.toolNames.slice(1).sort(), api.pool.get('archive')!.tools.map((t) => `archive_${t.name}`).sort());
    await vscode.commands.executeCommand('mcpFakeLm.reset');
    await ask(api, 'what does text_stats say about vault?');
    [request] = await recorded();
    assert.ok(request.toolNames.includes('vault_list_notes') && request.toolNames.includes('archive_text_stats'), request.toolNames.join());
  });

  it('at or under the threshold every tool is offered and there is no search tool', async () => {
    await chatConfig().update('searchThreshold', 100, vscode.ConfigurationTarget.Global);
    const { meta } = await ask(api, 'hello');
    const [request] = await recorded();
    assert.equal(meta.searching, false);
    assert.ok(!request.toolNames.includes('search_tools'));
    assert.equal(request.toolNames.length, api.pool.get('vault')!.tools.length * 2);
  });
});
