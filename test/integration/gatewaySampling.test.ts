import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { Client, LOG_LEVEL_META_KEY, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
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

  it('tells the server why, not that sampling was undeclared, when the client speaks 2026-07-28 (it declared sampling, but nothing can be sent to it during a call)', async () => {
    const client = new Client({ name: 'gateway-2026-stdio', version: '1.0.0' }, { capabilities: { sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve', '--config', folder.config({ sampler: fixture('samples.cjs') })], env: { PATH: process.env.PATH ?? '', HOME: folder.dir, XDG_STATE_HOME: path.join(folder.dir, 'state') }, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    await client.connect(transport);
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
      const message = String(((await answerOf(client, 'sampler_ask')).error as { message?: string }).message);
      assert.match(message, /the gateway's client speaks the 2026-07-28 revision, where nothing can be sent to it during a call/);
      assert.doesNotMatch(message, /did not declare/);
      assert.match(stderr, /its client speaks 2026-07-28, which cannot be sent a request during a call: refused/);
    } finally {
      await client.close();
    }
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

/** `mcp-tool-host serve --http --config FILE` as a real child process: its URL (token in the path) from stderr. */
async function httpServe(config: string, stateDir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '--config', config], { env: { PATH: process.env.PATH ?? '', HOME: stateDir, XDG_STATE_HOME: path.join(stateDir, 'state') }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (t: string) => {
      stderr += t;
      const found = /http:\/\/127\.0\.0\.1:\d+\/\S+\/mcp/.exec(stderr)?.[0];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
  });
  // Stopped is gone: it writes its last audit lines as it exits, into the folder the suite removes next.
  const exited = new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The official SDK client at the 2026-07-28 revision, declaring no capabilities; `statuses` has the HTTP status of each answer. */
async function modernClient(url: string): Promise<{ client: Client; statuses: number[] }> {
  const statuses: number[] = [];
  const client = new Client({ name: 'gateway-2026-sampling-test', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const fetching: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    statuses.push(response.status);
    return response;
  };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: fetching }));
  return { client, statuses };
}

describe('gateway: what a 2026-07-28 client did not declare or ask for (mcp-tool-host serve --http)', function () {
  this.timeout(90_000);
  const folder = gatewayFolder();
  after(() => folder.cleanup());

  it("answers -32021 (HTTP 400) naming sampling when a server's call needed the client's model and the client did not declare sampling", async () => {
    const served = await httpServe(folder.config({ sampler: fixture('samples.cjs', { MODERN: '1' }) }), folder.dir);
    const { client, statuses } = await modernClient(served.url);
    try {
      const refused = await client.callTool({ name: 'sampler_ask', arguments: {} }).then(() => undefined, (err: unknown) => err);
      assert.ok(refused instanceof ProtocolError, `not refused: ${String(refused)}`);
      assert.equal(refused.code, -32021);
      assert.deepEqual((refused.data as { requiredCapabilities?: unknown }).requiredCapabilities, { sampling: {} });
      assert.match(refused.message, /"sampler" needed the client's sampling/);
      assert.equal(statuses.at(-1), 400);
    } finally {
      await client.close();
      await served.stop();
    }
  });

  it("sends no server's log messages to a request that did not ask for a log level, and those at or above the level one asked for", async () => {
    const served = await httpServe(folder.config({ logs: fixture('log-levels.cjs') }), folder.dir);
    const { client } = await modernClient(served.url);
    const messages: unknown[] = [];
    client.setNotificationHandler('notifications/message', (n) => void messages.push(n.params));
    try {
      assert.equal(textOf(await client.callTool({ name: 'logs_chatty', arguments: {} })), 'logged');
      assert.deepEqual(messages, []);
      assert.equal(textOf(await client.callTool({ name: 'logs_chatty', arguments: {}, _meta: { [LOG_LEVEL_META_KEY]: 'warning' } })), 'logged');
      assert.deepEqual(messages.map((m) => (m as { level: string }).level), ['warning', 'error']);
    } finally {
      await client.close();
      await served.stop();
    }
  });
});
