import * as assert from 'node:assert/strict';
import { MAX_APP_MESSAGES_PER_SECOND, openAppConversation, type AppConversation, type AppHostHandlers } from '../../src/core/apps/appBridge';

// The view side is ext-apps' own App class (the library every example app uses), over a transport
// whose other end is our conversation: the real protocol, in one process.
type Sent = (message: unknown) => void;
interface ViewTransport {
  onmessage?: (m: never) => void;
  onclose?: () => void;
  onerror?: (e: Error) => void;
  start(): Promise<void>;
  send(m: unknown): Promise<void>;
  close(): Promise<void>;
}

async function pair(handlers: Partial<AppHostHandlers>) {
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  const dropped: string[] = [];
  let toHost: Sent = () => undefined;
  const view: ViewTransport = {
    start: async () => undefined,
    send: async (m) => toHost(JSON.parse(JSON.stringify(m))),
    close: async () => view.onclose?.(),
  };
  const conversation: AppConversation = await openAppConversation({
    hostInfo: { name: 'test-host', version: '1' },
    hostContext: { theme: 'dark' },
    post: (m) => setImmediate(() => view.onmessage?.(JSON.parse(JSON.stringify(m)) as never)),
    handlers: {
      callTool: async (name, args) => (calls.push({ name, args }), { content: [{ type: 'text', text: `ran ${name}` }] }),
      openLink: async () => false,
      log: () => undefined,
      dropped: (why) => dropped.push(why),
      ...handlers,
    },
  });
  toHost = (m) => conversation.receive(m);
  const { App } = await import('@modelcontextprotocol/ext-apps');
  const app = new App({ name: 'test-app', version: '1' }, {}, { autoResize: false });
  return { app, view, conversation, calls, dropped, toHost: (m: unknown) => toHost(m) };
}

describe('an interface\'s conversation with the host (MCP Apps)', () => {
  it('initialises, hears the tool input and result, and its tools/call reaches our handler only', async () => {
    const { app, view, conversation, calls } = await pair({});
    const heard: unknown[] = [];
    app.ontoolinput = (p) => heard.push(['input', p.arguments]);
    app.ontoolresult = (p) => heard.push(['result', p.content]);
    await app.connect(view as never);
    await conversation.initialized;
    assert.equal(app.getHostContext()?.theme, 'dark');
    await conversation.sendToolInput({ n: 1 });
    await conversation.sendToolResult({ content: [{ type: 'text', text: 'done' }] });
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(heard, [['input', { n: 1 }], ['result', [{ type: 'text', text: 'done' }]]]);
    const result = await app.callServerTool({ name: 'wipe', arguments: { all: true } });
    assert.deepEqual(calls, [{ name: 'wipe', args: { all: true } }]);
    assert.deepEqual(result.content, [{ type: 'text', text: 'ran wipe' }]);
    await conversation.close();
  });

  it('a link the user did not open reaches the app as an error; a message to the model is refused', async () => {
    const asked: string[] = [];
    const { app, view, conversation } = await pair({ openLink: async (url) => (asked.push(url), false) });
    await app.connect(view as never);
    const link = await app.openLink({ url: 'https://example.com/x' });
    assert.equal(link.isError, true);
    assert.deepEqual(asked, ['https://example.com/x']);
    const message = await app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'hi' }] });
    assert.equal(message.isError, true);
    await conversation.close();
  });

  it('drops a flood and a huge message, says so once, and still answers afterwards', async () => {
    const { app, view, conversation, calls, dropped, toHost } = await pair({});
    await app.connect(view as never);
    for (let i = 0; i < MAX_APP_MESSAGES_PER_SECOND * 20; i++) toHost({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: i } });
    toHost({ jsonrpc: '2.0', id: 999, method: 'tools/call', params: { name: 'big', arguments: { x: 'y'.repeat(2 * 1024 * 1024) } } });
    toHost('not json-rpc');
    assert.ok(dropped.some((d) => /messages a second/.test(d)), dropped.join(' | '));
    assert.equal(dropped.filter((d) => /messages a second/.test(d)).length, 1);
    await new Promise((r) => setTimeout(r, 1_100));
    toHost({ jsonrpc: '2.0', id: 1000, method: 'tools/call', params: { name: 'big', arguments: { x: 'y'.repeat(2 * 1024 * 1024) } } });
    assert.ok(dropped.some((d) => /over 1024 KiB/.test(d)), dropped.join(' | '));
    assert.deepEqual(calls, []);
    const result = await app.callServerTool({ name: 'after', arguments: {} });
    assert.deepEqual(result.content, [{ type: 'text', text: 'ran after' }]);
    await conversation.close();
  });

  it('with a message handler (an interface chat opened), ui/message is declared and its text handed over; too long or without text is refused', async () => {
    const offered: string[] = [];
    const { app, view, conversation } = await pair({ message: async (text) => (offered.push(text), true) });
    await app.connect(view as never);
    await conversation.initialized;
    assert.deepEqual(app.getHostCapabilities()?.message, { text: {} });
    assert.deepEqual(await app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] }), {});
    assert.equal((await app.sendMessage({ role: 'user', content: [{ type: 'text', text: 'x'.repeat(4_001) }] })).isError, true);
    assert.equal((await app.sendMessage({ role: 'user', content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }] })).isError, true);
    assert.deepEqual(offered, ['one\ntwo']);
    await conversation.close();
  });
});
