import * as assert from 'node:assert/strict';
import { modelSchema } from '../../src/core/chat/modelSchema';
import { parseDirectCall, parseUse } from '../../src/core/chat/chatCommandLine';
import { callLine, outcomeWords, toolResultText } from '../../src/core/chat/callReport';
import { mdCode, mdText, shortArgs } from '../../src/core/chat/markdown';
import { MODEL_TOOL_NAME, modelToolNames } from '../../src/core/chat/modelToolNames';
import { MAX_CHAT_TOOLS, mentions, selectTools, words } from '../../src/core/chat/toolBudget';

describe('chat: model tool names (issue 6)', () => {
  it('joins server and tool, replaces what models refuse, and maps back', () => {
    const refs = [{ server: 'demo', tool: 'read_note' }, { server: 'my server.v2', tool: 'get/item' }, { server: 'ünï', tool: 'x' }];
    const names = modelToolNames(refs);
    assert.deepEqual([...names.keys()], ['demo_read_note', 'my_server_v2_get_item', 'n_x']);
    assert.equal(names.get('my_server_v2_get_item'), refs[1]);
  });

  it('keeps names unique across servers, case-insensitively', () => {
    const names = modelToolNames([{ server: 'a.b', tool: 'echo' }, { server: 'a b', tool: 'echo' }, { server: 'A_B', tool: 'echo' }]);
    assert.deepEqual([...names.keys()], ['a_b_echo', 'a_b_echo_2', 'A_B_echo_3']);
    assert.deepEqual([...names.values()].map((r) => r.server), ['a.b', 'a b', 'A_B']);
  });

  it('cuts long names to 64 characters with a hash, and every name is valid', () => {
    const long = 'x'.repeat(100);
    const refs = [{ server: 's', tool: long }, { server: 's', tool: `${long}y` }, { server: '', tool: '' }, { server: '!!!', tool: '???' }];
    const names = [...modelToolNames(refs).keys()];
    for (const n of names) assert.match(n, MODEL_TOOL_NAME);
    assert.equal(new Set(names).size, names.length);
    assert.equal(names[0].length, 64);
    assert.notEqual(names[0], names[1], 'two long names that share their beginning stay apart');
    assert.deepEqual(names.slice(2), ['tool', 'tool_2']);
  });

  it('is stable: the same tools get the same names', () => {
    const refs = Array.from({ length: 50 }, (_, i) => ({ server: `s${i % 3}`, tool: `t ${i % 7}` }));
    assert.deepEqual([...modelToolNames(refs).keys()], [...modelToolNames(refs).keys()]);
  });
});

describe('chat: tool budget (issue 6)', () => {
  const many = (server: string, n: number) => Array.from({ length: n }, (_, i) => ({ server, tool: `tool_${i}`, description: `Synthetic tool ${i}` }));

  it('offers everything when it fits', () => {
    const all = many('a', 10);
    const choice = selectTools(all, { prompt: 'anything' });
    assert.equal(choice.selected, all);
    assert.deepEqual(choice.leftOut, []);
  });

  it('prefers the servers the user names or pins, and keeps the given order', () => {
    const all = [...many('bulk', 200), ...many('notes', 5)];
    const named = selectTools(all, { prompt: 'ask notes please' });
    assert.equal(named.selected.length, MAX_CHAT_TOOLS);
    assert.equal(named.leftOut.length, 205 - MAX_CHAT_TOOLS);
    assert.equal(named.selected.filter((t) => t.server === 'notes').length, 5);
    assert.deepEqual(named.preferred.servers, ['notes']);
    assert.equal(named.selected[named.selected.length - 1].server, 'notes', 'the order given is kept');
    const pinned = selectTools(all, { prompt: 'hello', pinnedServers: ['notes', 'unknown'] });
    assert.equal(pinned.selected.filter((t) => t.server === 'notes').length, 5);
    assert.deepEqual(pinned.preferred.servers, ['notes']);
  });

  it('otherwise ranks by the words of the request, and named tools first', () => {
    const all = [...many('bulk', 150), { server: 'x', tool: 'weather_forecast', description: 'Forecast for a city' }];
    assert.ok(selectTools(all, { prompt: 'what is the forecast in Paris?' }).selected.some((t) => t.tool === 'weather_forecast'));
    assert.ok(selectTools(all, { prompt: 'run tool_149' }).selected.some((t) => t.tool === 'tool_149'));
    assert.ok(!selectTools(all, { prompt: 'hello', max: 3 }).selected.some((t) => t.tool === 'weather_forecast'));
  });

  it('words and mentions', () => {
    assert.deepEqual(words('readNote and the fetch_url'), ['read', 'note', 'fetch', 'url']);
    assert.ok(mentions('use my.server now', 'my.server'));
    assert.ok(!mentions('demonstrate', 'demo'));
  });
});

describe('chat: slash commands and text (issue 6)', () => {
  it('parses /call SERVER TOOL {json}, with quoted names', () => {
    assert.deepEqual(parseDirectCall('demo read_note {"name": "x"}'), { kind: 'call', server: 'demo', tool: 'read_note', args: { name: 'x' } });
    assert.deepEqual(parseDirectCall('"my server" list'), { kind: 'call', server: 'my server', tool: 'list', args: {} });
    assert.equal(parseDirectCall('demo').kind, 'error');
    assert.equal(parseDirectCall('demo {"a":1}').kind, 'error');
    assert.match((parseDirectCall('demo t [1]') as { message: string }).message, /must be a JSON object/);
    assert.match((parseDirectCall('demo t {x') as { message: string }).message, /not valid JSON/);
  });

  it('parses /use', () => {
    assert.deepEqual(parseUse('demo "my server" other'), ['demo', 'my server', 'other']);
    assert.deepEqual(parseUse('  '), []);
  });

  it('escapes server text in Markdown, and fences code', () => {
    assert.equal(mdText('**bold** [link](http://x) <img>\u202e'), '\\*\\*bold\\*\\* \\[link\\]\\(http\\://x\\) \\<img\\>');
    assert.equal(mdCode('a`b'), '``a`b``');
    assert.equal(mdCode('`x'), '`` `x ``');
    assert.equal(shortArgs({ text: 'y'.repeat(200) }, 20).length, 20);
  });

  it('tells the model what happened to every call, and the user in one line', () => {
    assert.match(toolResultText({ kind: 'denied' }), /The user denied this call; it was not sent/);
    assert.match(toolResultText({ kind: 'timeout', message: 'no answer in 1 s' }), /^The call timed out: no answer in 1 s/);
    const long = toolResultText({ kind: 'ok', durationMs: 1, result: { text: 'z'.repeat(70_000), isError: false, files: [] } });
    assert.match(long, /more characters not shown/);
    assert.equal(callLine('de*mo', 'read', { a: 1 }, { kind: 'denied' }), '- de\\*mo › `read` `{"a":1}`: **denied by you**: not sent\n');
  });
});

describe('the input schema a model reads', () => {
  it('is sanitised like any server text, keys and values, and a decoy nested too deep is cut', () => {
    const schema = { type: 'object', properties: { ['path\u200B']: { type: 'string', description: 'A file.\u{E0049}\u{E0067}\u{E006E}\u{E006F}\u{E0072}\u{E0065} \u202Eevil', enum: ['a\u200Db', 'c'] } } };
    assert.deepEqual(modelSchema(schema), { type: 'object', properties: { path: { type: 'string', description: 'A file. evil', enum: ['ab', 'c'] } } });
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 10_000; i++) deep = { items: deep };
    assert.doesNotThrow(() => JSON.stringify(modelSchema(deep)));
  });
});

describe('chat: a call a rule refused (issue 16)', () => {
  it('tells the model and the user which rule refused it, in escaped markdown', () => {
    const outcome = { kind: 'denied', rule: "denied by rule 'keep *main*' (user settings) [destructive]" } as const;
    assert.match(toolResultText(outcome), /^The user's rules refused this call \(denied by rule 'keep \*main\*'/);
    assert.equal(outcomeWords(outcome), "**denied by rule 'keep \\*main\\*' \\(user settings\\) \\[destructive\\]**: not sent");
    assert.equal(outcomeWords({ kind: 'denied' }), '**denied by you**: not sent');
  });
});
