import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI } from './cliRun';
import { everything, fixture, gatewayFolder } from './gatewayClients';

/** One JSON-RPC message as it came out of the gateway. */
type Message = { id?: unknown; method?: string; params?: Record<string, unknown>; result?: { content?: { text?: string }[] }; error?: { code: number; message: string } };

/**
 * A hostile stdio client: `mcp-tool-host serve` as a child process, fed lines as written (not
 * through an SDK, which would refuse to send most of them), every line it answers kept.
 */
class LineClient {
  readonly received: Message[] = [];
  private _waiters: (() => void)[] = [];
  private constructor(private readonly _child: ChildProcessWithoutNullStreams) {
    let rest = '';
    _child.stdout.on('data', (chunk: Buffer) => {
      const lines = (rest + chunk.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) this.received.push(JSON.parse(line) as Message);
      const waiters = this._waiters;
      this._waiters = [];
      waiters.forEach((w) => w());
    });
  }

  static async start(config: string, rules: string, dir: string): Promise<LineClient> {
    const child = spawn(process.execPath, [CLI, 'serve', '--config', config, '--rules', rules], { env: { PATH: process.env.PATH ?? '', HOME: dir, XDG_STATE_HOME: path.join(dir, 'state') } });
    const client = new LineClient(child);
    client.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } } });
    await client.answerTo('init');
    client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return client;
  }

  send(message: unknown): void {
    this._child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  }

  /** Writes `text` as it is: part of a line, or several. */
  write(text: string): void {
    this._child.stdin.write(text);
  }

  answersTo(id: unknown): Message[] {
    return this.received.filter((m) => m.method === undefined && Object.hasOwn(m, 'id') && m.id === id);
  }

  async answerTo(id: unknown, timeoutMs = 30_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.answersTo(id)[0];
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no answer to ${JSON.stringify(id)}; got ${JSON.stringify(this.received).slice(0, 2000)}`);
      await new Promise<void>((resolve) => {
        this._waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** Ends the gateway and waits for it: it writes its last audit lines as it exits, into the folder the test then removes. */
  async close(): Promise<void> {
    const child = this._child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill();
    await exited;
  }
}

const call = (id: unknown, params: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params });
const echo = (message: string) => ({ name: 'everything_echo', arguments: { message } });
const textOf = (m: Message) => m.result?.content?.[0]?.text;

describe('gateway: a hostile stdio client gets the answers the SDK server gives (tools/call past the SDK)', function () {
  this.timeout(120_000);
  const folder = gatewayFolder();
  let client: LineClient;
  before(async () => {
    const rules = path.join(folder.dir, 'rules.json');
    fs.writeFileSync(rules, JSON.stringify([{ name: 'all', server: '*', tool: '*', effect: 'allow' }]));
    client = await LineClient.start(folder.config({ everything, slow: fixture('slow-calls.cjs') }), rules, folder.dir);
  });
  after(async () => {
    await client?.close();
    folder.cleanup();
  });

  it('answers a plain call, and skips a line that is not JSON without losing the connection', async () => {
    client.send('{"jsonrpc":"2.0","id":"torn","method":"tools/call","params":{"name":');
    client.send('not json at all');
    client.send(call(1, echo('after the torn lines')));
    assert.equal(textOf(await client.answerTo(1)), 'Echo: after the torn lines');
    assert.deepEqual(client.answersTo('torn'), []);
  });

  it('reads a line ended by CRLF, a line split over two writes, and two lines in one write', async () => {
    client.write(`${JSON.stringify(call('crlf', echo('crlf')))}\r\n`);
    const split = JSON.stringify(call('split', echo('split')));
    client.write(split.slice(0, 25));
    // The first part is read alone (a later write may still join it: then the line is read whole, as it should be).
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.write(`${split.slice(25)}\n`);
    client.write(`${JSON.stringify(call('two-a', echo('a')))}\n${JSON.stringify(call('two-b', echo('b')))}\n`);
    assert.equal(textOf(await client.answerTo('crlf')), 'Echo: crlf');
    assert.equal(textOf(await client.answerTo('split')), 'Echo: split');
    assert.equal(textOf(await client.answerTo('two-a')), 'Echo: a');
    assert.equal(textOf(await client.answerTo('two-b')), 'Echo: b');
  });

  it('refuses wrong types with the error the SDK gives, or drops what its JSON-RPC schema drops, message by message', async () => {
    const long = 'x'.repeat(64 * 1024);
    const cases: { readonly id: unknown; readonly message: unknown; readonly expect: 'result' | 'dropped' | number }[] = [
      { id: 'name-number', message: call('name-number', { name: 5 }), expect: -32602 },
      { id: 'args-array', message: call('args-array', { name: 'everything_echo', arguments: ['hi'] }), expect: -32602 },
      { id: 'args-string', message: call('args-string', { name: 'everything_echo', arguments: 'hi' }), expect: -32602 },
      { id: 'args-null', message: call('args-null', { name: 'everything_echo', arguments: null }), expect: -32602 },
      { id: 'no-params', message: { jsonrpc: '2.0', id: 'no-params', method: 'tools/call' }, expect: -32602 },
      { id: 'params-array', message: call('params-array', ['everything_echo']), expect: 'dropped' },
      { id: 'token-object', message: call('token-object', { ...echo('x'), _meta: { progressToken: {} } }), expect: 'dropped' },
      { id: 'token-fraction', message: call('token-fraction', { ...echo('x'), _meta: { progressToken: 1.5 } }), expect: 'dropped' },
      { id: 'jsonrpc-1', message: { jsonrpc: '1.0', id: 'jsonrpc-1', method: 'tools/call', params: echo('x') }, expect: 'dropped' },
      { id: 'top-extra', message: { ...call('top-extra', echo('x')), extra: true }, expect: 'dropped' },
      { id: 'params-extra', message: call('params-extra', { ...echo('extra keys'), extra: { deep: 1 } }), expect: 'result' },
      { id: 'meta-extra', message: call('meta-extra', { ...echo('meta keys'), _meta: { progressToken: 'p', other: 1 } }), expect: 'result' },
      { id: 'unknown-tool', message: call('unknown-tool', { name: 'nobody_nothing', arguments: {} }), expect: -32602 },
      { id: long, message: call(long, echo('a 64 KB id')), expect: 'result' },
      { id: Number.MAX_SAFE_INTEGER, message: call(Number.MAX_SAFE_INTEGER, echo('largest safe id')), expect: 'result' },
      { id: -7, message: call(-7, echo('negative id')), expect: 'result' },
    ];
    for (const c of cases) client.send(c.message);
    // Ids the JSON-RPC schema refuses: none is answered (there is no id to answer).
    for (const raw of ['null', 'true', '1.5', '1e300', '9007199254740993', '{"a":1}']) client.send(`{"jsonrpc":"2.0","id":${raw},"method":"tools/call","params":{"name":"everything_echo","arguments":{"message":"bad id"}}}`);
    client.send(call('last', echo('last')));
    await client.answerTo('last');
    for (const c of cases.filter((c) => c.expect !== 'dropped')) await client.answerTo(c.id);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const c of cases) {
      const answers = client.answersTo(c.id);
      const shown = typeof c.id === 'string' ? c.id.slice(0, 20) : String(c.id);
      if (c.expect === 'dropped') assert.deepEqual(answers, [], shown);
      else {
        assert.equal(answers.length, 1, shown);
        if (c.expect === 'result') assert.match(textOf(answers[0]) ?? '', /^Echo: /, `${shown}: ${JSON.stringify(answers[0])}`);
        else assert.equal(answers[0].error?.code, c.expect, `${shown}: ${JSON.stringify(answers[0])}`);
      }
    }
    const badIds = client.received.filter((m) => m.id === null || m.id === true || m.id === 1.5 || (typeof m.id === 'number' && !Number.isSafeInteger(m.id)) || (typeof m.id === 'object' && m.id !== null));
    assert.deepEqual(badIds, []);
    assert.match(client.answersTo('unknown-tool')[0].error?.message ?? '', /Unknown tool/);
  });

  it('answers each of two calls that reuse one id, as the SDK does', async () => {
    client.send(call('twice', echo('first')));
    client.send(call('twice', echo('second')));
    await client.answerTo('twice');
    const deadline = Date.now() + 30_000;
    while (client.answersTo('twice').length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(client.answersTo('twice').map(textOf).sort(), ['Echo: first', 'Echo: second']);
  });

  it("sends progress on the request's own token, and a cancelled call is stopped and never answered", async () => {
    const long = { name: 'everything_trigger-long-running-operation', arguments: { duration: 4, steps: 4 } };
    client.send(call('slow', { ...long, _meta: { progressToken: 'slow-progress' } }));
    const progressOf = (token: string) => client.received.filter((m) => m.method === 'notifications/progress' && m.params?.progressToken === token);
    const deadline = Date.now() + 30_000;
    while (progressOf('slow-progress').length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(progressOf('slow-progress')[0]?.params?.progress, 1, JSON.stringify(client.received.slice(-5)));
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'slow', reason: 'the user stopped it' } });
    // A numeric id 7 and a string id "7" are two requests: cancelling one leaves the other.
    client.send(call(7, { ...long, arguments: { duration: 1, steps: 1 } }));
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: '7' } });
    assert.match(textOf(await client.answerTo(7)) ?? '', /Long running operation completed/);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    assert.deepEqual(client.answersTo('slow'), []);
    client.send(call('after-cancel', echo('still here')));
    assert.equal(textOf(await client.answerTo('after-cancel')), 'Echo: still here');
  });

  it("passes a client's cancellation on to the backend, which is told to stop its call", async () => {
    client.send(call('held', { name: 'slow_wait', arguments: { ms: 60_000 } }));
    // The call is at the backend once the gateway has sent it: a later call of the same server is answered after it was sent.
    client.send(call('first-look', { name: 'slow_cancellations', arguments: {} }));
    assert.equal(textOf(await client.answerTo('first-look')), '[]');
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'held', reason: 'the user stopped it' } });
    let told: { requestId?: unknown; reason?: unknown }[] = [];
    const deadline = Date.now() + 30_000;
    for (let look = 0; told.length === 0 && Date.now() < deadline; look++) {
      client.send(call(`look-${look}`, { name: 'slow_cancellations', arguments: {} }));
      told = JSON.parse(textOf(await client.answerTo(`look-${look}`)) ?? '[]') as typeof told;
    }
    assert.equal(told.length, 1, 'the backend got one notifications/cancelled');
    assert.equal(typeof told[0].requestId, 'string', "for the gateway's own request id");
    assert.deepEqual(client.answersTo('held'), [], 'and the client is not answered');
  });
});
