// @mcp in the Chat view, where a call's server asks the user mid-call: a 2025-11-25 task that goes
// input_required (server-everything's Simulate Research Query), and a question the server withdraws.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import { ask, CHAT_WAIT_MS, EXTENSION_ID, fakeModel, recorded, RecordingStream, serversRunning, setScript, setServers } from './chatHarness';
import { promptShown, until } from './wait';

const EVERYTHING = path.resolve(__dirname, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const ELICITS = path.resolve(__dirname, '../../../test/fixtures/servers/elicits.cjs');
const env = { ELECTRON_RUN_AS_NODE: '1' };
const accept = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
/** Presses a button the chat response showed, as a click would. */
const press = (button: vscode.Command) => vscode.commands.executeCommand(button.command, ...(button.arguments ?? []));

describe('@mcp in the Chat view: a task that asks, a question withdrawn', function () {
  this.timeout(90_000);
  let api: McpToolHostApi;
  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>(EXTENSION_ID)!.activate();
    await fakeModel();
    // Idle timeout 1 s on everything: the question is answered well after it.
    await setServers({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], env, timeoutSeconds: 1 }, wd: { command: process.execPath, args: [ELICITS], env } });
    await serversRunning(api, 'everything', 'wd');
  });
  afterEach(() => vscode.commands.executeCommand('mcpFakeLm.reset'));
  after(() => setServers(undefined));

  it('the model calls a tool that runs as a task and asks: the question appears in chat, the answer goes to the task, and its result reaches the model and the user', async () => {
    await setScript([{ calls: [{ tool: 'everything_simulate-research-query', input: { topic: 'python', ambiguous: true } }] }, { text: 'Researched it.' }]);
    const stream = new RecordingStream();
    const pending = ask(api, 'research python for me', { stream });
    await until('the question in the chat, with its buttons', () => stream.buttons.length === 2, CHAT_WAIT_MS);
    assert.match(stream.text, /> \*\*everything\*\* asks for input during its call `simulate-research-query`: The research query "python" could have multiple interpretations/);
    assert.deepEqual(stream.buttons.map((b) => b.title), ['Answer…', 'Decline']);
    // The task waits for the answer: its row says so.
    assert.ok(api.tasks.entries().some((t) => t.status === 'input_required'), JSON.stringify(api.tasks.entries()));
    await new Promise((r) => setTimeout(r, 2_000)); // the user reads: longer than the 1 s idle timeout
    const field = promptShown(api, /^everything \(1\/1\): Clarification/, CHAT_WAIT_MS);
    await press(stream.buttons[0]); // Answer…: the field opens in a quick input
    await field;
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext'); // the second choice: the snake
    await accept();
    const { meta } = await pending;
    assert.deepEqual(meta.calls.map((c) => [c.server, c.tool, c.outcome]), [['everything', 'simulate-research-query', 'ok']]);
    const requests = await recorded();
    assert.equal(requests.length, 2);
    assert.match(requests[1].toolResults[0], /\*\*Clarification\*\*: snake/);
    assert.match(stream.text, /everything › `simulate-research-query` .*: done/);
    assert.match(stream.text, /Researched it\.$/);
    await until('the task to leave the board', () => !api.tasks.entries().some((t) => t.server === 'everything'));
  });

  it('a question the server withdraws while it waits in the chat: the response says so, and nothing is sent back', async () => {
    const stream = new RecordingStream();
    const pending = ask(api, 'wd withdraws {"afterMs": 2000}', { command: 'call', stream });
    await until('the question in the chat, with its buttons', () => stream.buttons.length === 2, CHAT_WAIT_MS);
    assert.match(stream.text, /\*\*wd\*\* asks for input during its call `withdraws`: Which colour\?/);
    await until('the chat to say the server withdrew it', () => /\*\*wd\*\* withdrew its question: nothing was sent back\./.test(stream.text), 5_000);
    await pending;
    assert.match(stream.text, /\{"withdrawn":true,"answered":null\}/);
  });
});
