import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CLI, runCli } from './cliRun';
import { fixture, gatewayFolder, textOf } from './gatewayClients';

/** What the test's client got asked: each sampling/createMessage's params. */
type Asked = { messages: { content: { text?: string } }[]; systemPrompt?: string; includeContext?: string; _meta?: Record<string, unknown> }[];

/** The official SDK client on `mcp-tool-host serve` over stdio; with `sampling`, it declares sampling and answers each request as a model would. */
async function servedClient(config: string, stateDir: string, sampling: boolean): Promise<{ client: Client; asked: Asked; stderr: () => string }> {
  const asked: Asked = [];
  const client = new Client({ name: 'gateway-sampling-test', version: '1.0.0' }, { capabilities: sampling ? { sampling: {} } : {} });
  if (sampling) {
    client.setRequestHandler('sampling/createMessage', async (request) => {
      asked.push(request.params as Asked[number]);
      return { role: 'assistant', content: { type: 'text', text: 'Hi from the model' }, model: 'test-model', stopReason: 'endTurn' };
    });
  }
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--config', config], env: { PATH: process.env.PATH ?? '', HOME: stateDir, XDG_STATE_HOME: path.join(stateDir, 'state') }, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  await client.connect(transport);
  return { client, asked, stderr: () => stderr };
}

const answerOf = async (client: Client, tool: string, args: Record<string, unknown> = {}) => JSON.parse(textOf(await client.callTool({ name: tool, arguments: args }))) as Record<string, unknown>;

describe("gateway: a server's sampling during a call, relayed to the client that made it (mcp-tool-host serve)", function () {
  this.timeout(90_000);
  const folder = gatewayFolder();
  after(() => folder.cleanup());

  for (const era of ['2025', '2026-07-28'] as const) {
    it(`passes a ${era} server's sampling request to a client that declared sampling, naming the server, and the model's answer back`, async () => {
      const { client, asked } = await servedClient(folder.config({ sampler: fixture('samples.cjs', era === '2025' ? {} : { MODERN: '1' }) }), folder.dir, true);
      try {
        const answer = await answerOf(client, 'sampler_ask', { prompt: 'Say hello' });
        assert.deepEqual(answer.content, { type: 'text', text: 'Hi from the model' });
        assert.equal(answer.model, 'test-model');
        assert.equal(asked.length, 1);
        assert.equal(asked[0].messages[0].content.text, 'Say hello');
        // Which server asks: said in the request's _meta and in its system prompt, ahead of the server's own.
        assert.equal(asked[0]._meta?.['mcp-tool-host/server'], 'sampler');
        assert.match(asked[0].systemPrompt ?? '', /^The MCP server "sampler" asks this through the MCP Tool Host gateway\.\n\nYou are terse\.$/);
        // A server sees no context of the client's other servers: the gateway is all of them to the client.
        assert.equal(asked[0].includeContext, 'none');
      } finally {
        await client.close();
      }
    });
  }

  it('gives the server a clear error when the client did not declare sampling; the host declares sampling only where it relays it', async () => {
    const config = folder.config({ sampler: fixture('samples.cjs') });
    const { client } = await servedClient(config, folder.dir, false);
    try {
      const answer = await answerOf(client, 'sampler_ask');
      assert.match(String((answer.error as { message?: string }).message), /the gateway's client did not declare sampling/);
      assert.deepEqual((await answerOf(client, 'sampler_declared')).sampling, {});
    } finally {
      await client.close();
    }
    // `call` relays nothing to anybody: the server is not offered sampling there.
    const called = await runCli(['call', 'sampler', 'declared', '--config', config], { env: { PATH: process.env.PATH ?? '', HOME: folder.dir, XDG_STATE_HOME: path.join(folder.dir, 'state') } });
    assert.equal(called.code, 0, called.stderr);
    assert.doesNotMatch(called.stdout, /sampling/);
  });

  it('lets at most 10 of a flood through to the client, and none sent outside a call; one past the size cap is refused, naming it', async () => {
    const { client, asked } = await servedClient(folder.config({ sampler: fixture('samples.cjs', { SAMPLE_AT: 'initialized' }) }), folder.dir, true);
    try {
      assert.deepEqual(await answerOf(client, 'sampler_flood', { count: 30 }), { answered: 10, error: 20 });
      assert.equal(asked.length, 10);
      const outside = await answerOf(client, 'sampler_outside');
      assert.ok(outside.error, JSON.stringify(outside));
      assert.equal(asked.length, 10, 'the request sent outside any call never reached the client');
      const huge = await answerOf(client, 'sampler_huge', { kb: 2048 });
      assert.match(String((huge.error as { message?: string }).message), /larger than the 1 MiB the gateway passes on/);
      assert.equal(asked.length, 10);
    } finally {
      await client.close();
    }
  });
});
