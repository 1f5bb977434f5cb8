import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ProtocolError } from '@modelcontextprotocol/client';
import { startHttpGateway } from '../../src/core/gateway/later';
import { everything, fixture, gatewayFolder, httpClient, stdioClient, textOf, type FormAnswer } from './gatewayClients';
import { FIXTURES, makeHost } from './helpers';

/** The JSON-RPC error a request was refused with (the SDK client throws it). */
async function refusal(request: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await request;
  } catch (err) {
    assert.ok(err instanceof ProtocolError, String(err));
    return { code: err.code, message: err.message, data: err.data };
  }
  assert.fail('the request was answered, not refused');
}

describe('gateway: resources, prompts, completion, logging and a server\'s forms, driven by the official SDK client', function () {
  this.timeout(90_000);
  const folder = gatewayFolder();
  after(() => folder.cleanup());

  it("offers server-everything's resources, templates, prompts and completions, and reads and gets them through the host", async () => {
    const { client } = await stdioClient(folder.config({ everything }), folder.dir);
    try {
      const caps = client.getServerCapabilities();
      assert.ok(caps?.resources && caps.prompts && caps.completions && caps.logging, JSON.stringify(caps));
      const { resources } = await client.listResources();
      const doc = resources.find((r) => r.uri.startsWith('demo://resource/static/document/'));
      assert.ok(doc, resources.map((r) => r.uri).join(', '));
      const read = await client.readResource({ uri: doc.uri });
      assert.equal(read.contents[0].uri, doc.uri);
      assert.ok('text' in read.contents[0] && read.contents[0].text.length > 0);
      const { resourceTemplates } = await client.listResourceTemplates();
      const dynamic = resourceTemplates.find((t) => t.uriTemplate.startsWith('demo://resource/dynamic/text/'));
      assert.ok(dynamic, resourceTemplates.map((t) => t.uriTemplate).join(', '));
      const fromTemplate = await client.readResource({ uri: 'demo://resource/dynamic/text/1' });
      assert.ok(fromTemplate.contents.length > 0);

      const { prompts } = await client.listPrompts();
      const names = prompts.map((p) => p.name);
      assert.ok(names.includes('everything_simple-prompt'), names.join(', '));
      const simple = await client.getPrompt({ name: 'everything_simple-prompt' });
      assert.equal(simple.messages[0].content.type, 'text');
      const args = prompts.find((p) => p.name === 'everything_args-prompt')!;
      const withArgs = await client.getPrompt({ name: args.name, arguments: { city: 'Paris', state: 'Texas' } });
      assert.match(JSON.stringify(withArgs.messages), /Paris/);
      // A required argument left out is refused here, as invalid params, naming it.
      const noCity = await refusal(client.getPrompt({ name: args.name, arguments: { state: 'Texas' } }));
      assert.equal(noCity.code, -32602);
      assert.match(noCity.message, /The prompt "everything_args-prompt" needs "city" \(required by its listing\); nothing was asked of its server/);

      const completions = prompts.find((p) => p.name === 'everything_completable-prompt');
      assert.ok(completions, names.join(', '));
      const completed = await client.complete({ ref: { type: 'ref/prompt', name: completions.name }, argument: { name: 'department', value: 'E' } });
      assert.deepEqual(completed.completion.values, ['Engineering']);

      const missing = await refusal(client.readResource({ uri: 'demo://no/such/resource' }));
      assert.equal(missing.code, -32602);
      assert.deepEqual(missing.data, { uri: 'demo://no/such/resource' });
      assert.equal((await refusal(client.getPrompt({ name: 'everything_no-such-prompt' }))).code, -32602);
      const unknownTool = await refusal(client.callTool({ name: 'everything_no-such-tool', arguments: {} }));
      assert.equal(unknownTool.code, -32602);
      assert.match(unknownTool.message, /Unknown tool: no tool named "everything_no-such-tool"/);
    } finally {
      await client.close();
    }
  });

  it("keeps two servers' same resource URIs apart: each offered wrapped under its server, read from that server; the plain URI is refused as ambiguous", async () => {
    const { client } = await stdioClient(folder.config({ one: everything, two: everything }), folder.dir);
    try {
      const uris = (await client.listResources()).resources.map((r) => r.uri);
      const shared = uris.find((u) => u.startsWith('mcp-tool-host://one/demo://resource/static/document/'));
      assert.ok(shared, uris.join(', '));
      const plain = shared.slice('mcp-tool-host://one/'.length);
      assert.ok(uris.includes(`mcp-tool-host://two/${plain}`));
      assert.ok(!uris.includes(plain), 'a URI two servers list is never offered plain');
      const fromOne = await client.readResource({ uri: shared });
      assert.equal(fromOne.contents[0].uri, shared);
      const ambiguous = await refusal(client.readResource({ uri: plain }));
      assert.equal(ambiguous.code, -32602);
      assert.match(ambiguous.message, /ambiguous: more than one server offers it; read it as one of mcp-tool-host:\/\/one\/.*, mcp-tool-host:\/\/two\//);
      // A prefix of no offered server reads nothing.
      assert.equal((await refusal(client.readResource({ uri: `mcp-tool-host://three/${plain}` }))).code, -32602);
      const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
      assert.ok(prompts.includes('one_simple-prompt') && prompts.includes('two_simple-prompt'), prompts.join(', '));
    } finally {
      await client.close();
    }
  });

  it('relays the log level and a server\'s log messages during a call to the client that made it', async () => {
    const { client } = await stdioClient(folder.config({ logs: fixture('log-levels.cjs') }), folder.dir);
    const messages: { level: string; logger?: string; data: unknown }[] = [];
    client.setNotificationHandler('notifications/message', (n) => void messages.push(n.params));
    try {
      await client.setLoggingLevel('warning');
      assert.equal(textOf(await client.callTool({ name: 'logs_chatty', arguments: {} })), 'logged');
      const seen = messages.map((m) => `${m.level} ${String(m.data)}`);
      assert.ok(seen.some((s) => s.startsWith('warning') && s.includes('cache is cold')), seen.join(' | '));
      assert.ok(seen.some((s) => s.startsWith('error') && s.includes('disk almost full')), seen.join(' | '));
      assert.ok(!seen.some((s) => s.startsWith('debug')), `below the level asked for: ${seen.join(' | ')}`);
      assert.ok(messages.every((m) => m.logger === 'logs'));
    } finally {
      await client.close();
    }
  });

  it("passes a server's form during a call to the calling client and its answer back; a flood of forms reaches it at most 10 times", async () => {
    const forms: string[] = [];
    const { client } = await stdioClient(folder.config({ ask: fixture('elicits.cjs') }), folder.dir, (message): ReturnType<FormAnswer> => {
      forms.push(message);
      return message === 'Create your account' ? { action: 'accept', content: { handle: 'ada' } } : { action: 'accept', content: { ok: true } };
    });
    try {
      const signup = textOf(await client.callTool({ name: 'ask_signup', arguments: {} }));
      assert.match(signup, /"handle":"ada"/);
      assert.deepEqual(forms, ['Create your account']);
      forms.length = 0;
      const flood = JSON.parse(textOf(await client.callTool({ name: 'ask_flood', arguments: { count: 60 } }))) as Record<string, number>;
      assert.equal(forms.length, 10, `forms the client saw: ${forms.length}`);
      assert.equal(flood.accept, 10);
      assert.equal(flood.decline, 50);
    } finally {
      await client.close();
    }
  });

  it('tells its servers it takes forms, not links: it passes forms on and opens no page (they may fall back to a form)', async () => {
    const caps = path.join(folder.dir, 'declared.json');
    const mini = path.join(FIXTURES, 'miniServer.cjs');
    const writes = `require(${JSON.stringify(mini)}).makeServer({ tools: [{ name: 'noop', inputSchema: { type: 'object' } }], beforeReply: (m) => m.method === 'initialize' && require('fs').writeFileSync(${JSON.stringify(caps)}, JSON.stringify(m.params.capabilities)) })`;
    const { client } = await stdioClient(folder.config({ told: { command: process.execPath, args: ['-e', writes] } }), folder.dir, () => ({ action: 'decline' }));
    try {
      await client.listTools();
      const declared = JSON.parse(fs.readFileSync(caps, 'utf8')) as { elicitation?: Record<string, unknown> };
      assert.deepEqual(declared.elicitation, { form: {} });
    } finally {
      await client.close();
    }
  });

  it('refuses a resource read past the size cap, naming the cap, and sends the client nothing of it', async () => {
    const host = makeHost({ everything }, 'allow-once');
    const gateway = await startHttpGateway({ pool: host.pool, pipeline: host.pipeline, asks: 'host', clientVersion: 'test', maxReadBytes: () => 64 });
    try {
      const { client } = await httpClient(gateway.url, gateway.token);
      try {
        const doc = (await client.listResources()).resources.find((r) => r.uri.startsWith('demo://resource/static/document/'))!;
        const refused = await refusal(client.readResource({ uri: doc.uri }));
        assert.match(refused.message, /Not read: The resource is .* over the 64 bytes a read may bring/);
        assert.deepEqual(refused.data, { uri: doc.uri });
      } finally {
        await client.close();
      }
    } finally {
      await gateway.close();
      await host.close();
    }
  });
});
