import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpToolHostApi } from '../../src/extension';
import { createChatHandler } from '../../src/vscode/chat/chatHandler';
import { RecordingStream } from './chatHarness';
import { promptShown, sleep, until } from './wait';

const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/servers/elicits.cjs');
const settings = () => vscode.workspace.getConfiguration('mcpToolHost');
const accept = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
/** A sign-in page's host padded so that a title cut at its end reads as Microsoft's (issue 31). */
const PADDED_URL = `https://login.microsoftonline.com.${'secure-session.'.repeat(12)}evil.xyz/common/oauth2/authorize`;

/** A server's form in the middle of a call (elicitation, form mode), answered in the real quick inputs. */
describe('elicitation in VS Code: a form during a call', () => {
  let api: McpToolHostApi;
  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    await settings().update('servers', { ...settings().inspect<Record<string, unknown>>('servers')?.globalValue, asks: { command: process.execPath, args: [FIXTURE] } }, vscode.ConfigurationTarget.Global);
    await until('asks running with its tools', () => api.pool.get('asks')?.state.kind === 'running' && api.pool.get('asks')!.tools.length > 0);
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

/** URL mode, credentials, chat, the shared prompt queue, and the 2026-07-28 round-trip (issue 15). */
describe('elicitation in VS Code: links, chat, one prompt at a time, MRTR', function () {
  this.timeout(90_000);
  let api: McpToolHostApi;
  const select = (command: 'Next' | 'Previous', times: number) => Array.from({ length: times }).reduce<Promise<unknown>>((p) => p.then(() => vscode.commands.executeCommand(`workbench.action.quickOpenSelect${command}`)), Promise.resolve());
  before(async () => {
    api = await vscode.extensions.getExtension<McpToolHostApi>('mcp-tool-host.mcp-tool-host')!.activate();
    const servers = settings().inspect<Record<string, unknown>>('servers')?.globalValue;
    const env = { ELECTRON_RUN_AS_NODE: '1' };
    const padded = { ...env, EVIL_URL: PADDED_URL };
    await settings().update('servers', { ...servers, links: { command: process.execPath, args: [FIXTURE], env }, modern: { command: process.execPath, args: [FIXTURE], env: { ...env, MODERN: '1' } }, padded: { command: process.execPath, args: [FIXTURE], env: padded } }, vscode.ConfigurationTarget.Global);
    await until('links, modern and padded running with their tools', () => ['links', 'modern', 'padded'].every((n) => api.pool.get(n)?.state.kind === 'running' && api.pool.get(n)!.tools.length > 0), 30_000);
  });
  after(async () => {
    const servers = { ...settings().inspect<Record<string, unknown>>('servers')?.globalValue };
    delete servers.links;
    delete servers.modern;
    delete servers.padded;
    await settings().update('servers', servers, vscode.ConfigurationTarget.Global);
  });
  const call = async (server: string, tool: string) => {
    const outcome = await api.pipeline.call({ server, tool, args: {}, origin: 'api' });
    return outcome.kind === 'ok' ? (JSON.parse(outcome.result.text) as Record<string, unknown>) : { outcome: outcome.kind };
  };

  it('a link: the prompt names server, domain and call; it starts on Decline; "Copy the URL" accepts and the server\'s completion ends the wait', async () => {
    const shown = promptShown(api, /^Open a page on 127\.0\.0\.1:\d+\? "links" asks during its call "url"$/);
    const answered = call('links', 'url');
    await shown;
    await accept(); // the active item: Decline
    assert.deepEqual(await answered, { action: 'decline' });
    const again = promptShown(api, /^Open a page on /);
    const copied = call('links', 'url');
    await again;
    await select('Previous', 1);
    await accept();
    // The user opens the copied URL themselves: the page is fetched and the server says it is done.
    const url = await until('the URL on the clipboard', async () => /^http:\/\/127\.0\.0\.1:\d+\/page\?id=e1$/.test(await vscode.env.clipboard.readText()) && vscode.env.clipboard.readText());
    await (await fetch(url)).text();
    assert.deepEqual(await copied, { action: 'accept', pageFetched: true });
  });

  it('a link whose host starts like another site\'s: the title names the site it leads to first, where VS Code cannot cut it off (issue 31)', async () => {
    const shown = promptShown(api, /^Open a page on evil\.xyz\? "padded" asks during its call "evil-url"$/);
    const answered = call('padded', 'evil-url');
    await shown;
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen'); // Escape: nothing opened
    assert.deepEqual(await answered, { action: 'cancel' });
  });

  it('a link the host refuses (javascript:) is declined without a prompt', async () => {
    const opened: string[] = [];
    const listener = api.onDidOpenPrompt((t) => opened.push(t));
    try {
      assert.deepEqual(await call('links', 'evil-url'), { action: 'decline' });
      assert.deepEqual(opened, []);
    } finally {
      listener.dispose();
    }
  });

  it('a call refused with -32042: the same link prompt; once the page is done the call is sent again and runs', async () => {
    const shown = promptShown(api, /^Open a page on 127\.0\.0\.1:\d+\? "links" asks during its call "needs-link"$/);
    const outcome = api.pipeline.call({ server: 'links', tool: 'needs-link', args: {}, origin: 'api' });
    await shown;
    await select('Previous', 1); // Copy the URL
    await accept();
    const url = await until('the URL on the clipboard', async () => /id=e2$/.test(await vscode.env.clipboard.readText()) && vscode.env.clipboard.readText());
    // The Done prompt is open meanwhile; the server's notice closes it and sends the call again, nothing pressed.
    await (await fetch(url)).text();
    const done = await outcome;
    assert.equal(done.kind, 'ok', JSON.stringify(done));
    assert.match(done.kind === 'ok' ? done.result.text : '', /linked: the call ran after the page was done/);
  });

  it('a call refused with -32042 by a server that never says the page is done: "Done — Retry the call" sends it again and it runs; the 2026-07-28 round too', async () => {
    for (const [server, ran] of [['links', /\(sent again\)$/], ['modern', /\(answer \{"action":"accept"\}\)$/]] as const) {
      await vscode.env.clipboard.writeText('');
      const shown = promptShown(api, new RegExp(`^Open a page on 127\\.0\\.0\\.1:\\d+\\? "${server}" asks during its call "quiet-link"$`));
      const outcome = api.pipeline.call({ server, tool: 'quiet-link', args: {}, origin: 'api' });
      await shown;
      const finished = promptShown(api, new RegExp(`^Finished on 127\\.0\\.0\\.1:\\d+\\? "${server}" needs the page done before "quiet-link" is sent again$`));
      await select('Previous', 1); // Copy the URL
      await accept();
      await finished;
      // The user finishes in the browser; the server says nothing: only Done sends the call again.
      const url = await until('the URL on the clipboard', async () => /quiet=1$/.test(await vscode.env.clipboard.readText()) && vscode.env.clipboard.readText());
      await (await fetch(url)).text();
      await accept(); // the active item: Done — Retry the call
      const done = await outcome;
      assert.equal(done.kind, 'ok', JSON.stringify(done));
      assert.match(done.kind === 'ok' ? done.result.text : '', ran);
    }
  });

  it('the Done prompt: Cancel fails the call without sending it again', async () => {
    const finished = promptShown(api, /^Finished on 127\.0\.0\.1:\d+\? "links" needs the page done before "stubborn-link" is sent again$/);
    const shown = promptShown(api, /^Open a page on 127\.0\.0\.1:\d+\? "links" asks during its call "stubborn-link"$/);
    const outcome = api.pipeline.call({ server: 'links', tool: 'stubborn-link', args: {}, origin: 'api' });
    await shown;
    await select('Previous', 1);
    await accept();
    await finished;
    await select('Next', 1); // Cancel
    await accept();
    const done = await outcome;
    assert.notEqual(done.kind, 'ok');
    assert.match(JSON.stringify(done), /You cancelled while the page on 127\.0\.0\.1:\d+ was open, so the request was not sent again/);
  });

  it('an approval for one call waits while an elicitation for another is open, then shows, naming its own call', async () => {
    const opened: string[] = [];
    const listener = api.onDidOpenPrompt((t) => opened.push(t));
    try {
      const asked = promptShown(api, /^"links" asks for input during its call "profile"$/);
      const form = call('links', 'profile');
      await asked;
      const approval = promptShown(api, /^Approve "erase" on links\?/);
      const erase = call('links', 'erase');
      await sleep(1500);
      assert.deepEqual(opened.filter((t) => t.startsWith('Approve')), [], 'the approval did not open over the form');
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await accept(); // Decline the form
      assert.deepEqual(await form, { action: 'decline' });
      await approval;
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen'); // Escape denies
      assert.equal((await erase).outcome, 'denied');
      assert.deepEqual(opened.map((t) => t.replace(/ \[.*$/, '')), ['"links" asks for input during its call "profile"', 'Approve "erase" on links?']);
    } finally {
      listener.dispose();
    }
  });

  it('a form field that looks like a credential: the first step warns, and the form still answers', async () => {
    const shown = promptShown(api, /^"links" asks for input during its call "secret"$/);
    const answered = call('links', 'secret');
    await shown;
    for (let i = 0; i < 3; i++) {
      await accept();
      await sleep(300);
    }
    assert.deepEqual(await answered, { action: 'accept', content: { user: 'ada' } });
  });

  it('a 2026-07-28 server asks by answering input_required: the same prompts, and the retried call\'s result', async () => {
    assert.equal(api.pool.get('modern')?.state.kind === 'running' && (api.pool.get('modern')!.state as { protocolVersion?: string }).protocolVersion, '2026-07-28');
    const started = promptShown(api, /^"modern" asks for input during its call "profile"$/, 20_000);
    const answered = call('modern', 'profile');
    await started;
    for (let i = 0; i < 8; i++) {
      await accept();
      await sleep(200);
    }
    assert.deepEqual(await answered, { action: 'accept', content: { name: 'Ada', age: 36, score: 9.5, status: 'away', verified: true, tags: ['a', 'c'] }, era: 'input_required', requestState: 'round-1' });
  });

  it('in chat (/call): the request appears in the response with Answer… and Decline, and waits there', async () => {
    const stream = new RecordingStream();
    const handler = createChatHandler({ pool: api.pool, pipeline: api.pipeline, asks: api.chatAsks });
    const request = { prompt: 'links profile {}', command: 'call', references: [], toolReferences: [], toolInvocationToken: undefined, model: undefined } as unknown as vscode.ChatRequest;
    const run = (s: RecordingStream) => handler(request, { history: [] } as unknown as vscode.ChatContext, s as unknown as vscode.ChatResponseStream, new vscode.CancellationTokenSource().token);
    const declined = run(stream);
    await until('the chat buttons', () => stream.buttons.length === 2);
    assert.match(stream.text, /\*\*links\*\* asks for input during its call `profile`: Who are you\?/);
    assert.deepEqual(stream.buttons.map((b) => b.title), ['Answer…', 'Decline']);
    await vscode.commands.executeCommand(stream.buttons[1].command, ...(stream.buttons[1].arguments ?? []));
    await declined;
    assert.match(stream.text, /\{"action":"decline"\}/);
    // Answer…: the fields open in quick inputs (no second "answer or decline" step).
    const second = new RecordingStream();
    const answered = run(second);
    await until('the chat buttons', () => second.buttons.length === 2);
    const first = promptShown(api, /^links \(1\/7\): Name/);
    await vscode.commands.executeCommand(second.buttons[0].command, ...(second.buttons[0].arguments ?? []));
    await first;
    for (let i = 0; i < 7; i++) {
      await accept();
      await sleep(200);
    }
    await answered;
    assert.match(second.text, /"action":"accept","content":\{"name":"Ada","age":36/);
    // A button pressed after its call ended changes nothing.
    await vscode.commands.executeCommand(second.buttons[1].command, ...(second.buttons[1].arguments ?? []));
  });
});
