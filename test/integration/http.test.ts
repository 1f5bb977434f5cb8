import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { newResourceOffers } from '../../src/core/offers/later';
import { EVERYTHING, FIXTURES, makeHost, until } from './helpers';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** server-everything over HTTP, in its own process, on a free loopback port. */
const everythingOverHttp = (mode: 'streamableHttp' | 'sse') => listening([EVERYTHING, mode]);

/** A node script serving HTTP on PORT, in its own process, on a free loopback port. */
async function listening(args: string[], env: Record<string, string> = {}): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => net.connect(port, '127.0.0.1').on('connect', function (this: net.Socket) { this.destroy(); resolve(true); }).on('error', () => resolve(false)));
    if (up) return { port, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`${args.join(' ')} did not listen`);
}

describe('remote servers over HTTP', function () {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** server-everything in `mode`, configured as the remote server `name` at `path`, started. */
  async function startRemote(mode: 'streamableHttp' | 'sse', name: string, path: string) {
    const { port, child } = await everythingOverHttp(mode);
    cleanups.push(() => void child.kill());
    const h = makeHost({ [name]: { type: 'http', url: `http://127.0.0.1:${port}${path}` } }, 'allow-once');
    cleanups.push(() => h.close());
    await h.pool.get(name)!.start();
    const state = h.pool.get(name)!.state;
    assert.equal(state.kind, 'running', JSON.stringify(state));
    return h;
  }

  it('talks Streamable HTTP to server-everything', async () => {
    const h = await startRemote('streamableHttp', 'remote', '/mcp');
    const echo = await h.pipeline.call({ server: 'remote', tool: 'echo', args: { message: 'over http' }, origin: 'api' });
    assert.ok(echo.kind === 'ok' && echo.result.text.includes('over http'), JSON.stringify(echo));
  });

  it('falls back to HTTP+SSE when the endpoint refuses a Streamable HTTP POST', async () => {
    const h = await startRemote('sse', 'legacy', '/sse');
    assert.ok(h.logs.some((l) => l.includes('trying the HTTP+SSE transport')));
    const sum = await h.pipeline.call({ server: 'legacy', tool: 'get-sum', args: { a: 20, b: 22 }, origin: 'api' });
    assert.ok(sum.kind === 'ok' && sum.result.text.includes('42'), JSON.stringify(sum));
  });

  it('2026-07-28 over HTTP with the tasks extension: a call runs as a task past its timeout, each request with its Mcp-Method header; cancel reaches the server', async () => {
    const { port, child } = await listening([path.join(FIXTURES, 'tasks-http.cjs')]);
    cleanups.push(() => void child.kill());
    const h = makeHost({ jobs: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, timeoutSeconds: 1 } }, 'allow-once');
    cleanups.push(() => h.close());
    await h.pool.get('jobs')!.start();
    const done = await h.pipeline.call({ server: 'jobs', tool: 'build', args: { seconds: 1.5 }, origin: 'api' });
    assert.ok(done.kind === 'ok' && done.result.text === 'build finished after 1.5 s', JSON.stringify(done));
    assert.ok(h.events.some((e) => /^task working: step \d$/.test(e)), h.events.join('\n'));
    const controller = new AbortController();
    const cut = h.pipeline.call({ server: 'jobs', tool: 'build', args: { seconds: 30 }, origin: 'api', signal: controller.signal });
    await new Promise((r) => setTimeout(r, 500));
    controller.abort();
    assert.deepEqual(await cut, { kind: 'cancelled' });
    const seen = await h.pipeline.call({ server: 'jobs', tool: 'seen', args: {}, origin: 'api' });
    assert.ok(seen.kind === 'ok', JSON.stringify(seen));
    const lines = seen.result.text.split('\n');
    for (const method of ['tools/call', 'tasks/get', 'tasks/cancel']) assert.ok(lines.includes(`${method} (Mcp-Method: ${method})`), `${method} with its header, in\n${seen.result.text}`);
    assert.ok(!lines.some((l) => /Mcp-Method: none/.test(l)), seen.result.text);
  });

  it('a 2026-07-28 server over HTTP that is slow to answer its first request still gets the 2026-07-28 era', async () => {
    const { port, child } = await listening([path.join(FIXTURES, 'starts-slowly.cjs')], { START_DELAY_MS: '2500' });
    cleanups.push(() => void child.kill());
    const h = makeHost({ slow: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } }, 'allow-once');
    cleanups.push(() => h.close());
    await h.pool.get('slow')!.start();
    const state = h.pool.get('slow')!.state;
    assert.equal(state.kind === 'running' ? state.protocolVersion : JSON.stringify(state), '2026-07-28');
  });

  it('2026-07-28 over HTTP: x-mcp-header arguments travel as Mcp-Param headers; tools that break its rules are left out', async () => {
    const { port, child } = await listening([path.join(FIXTURES, 'modern-http.cjs')]);
    cleanups.push(() => void child.kill());
    const h = makeHost({ modern: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } }, 'allow-once');
    cleanups.push(() => h.close());
    const connection = h.pool.get('modern')!;
    await connection.start();
    assert.ok(h.logs.some((l) => l.startsWith('modern info Connected:') && l.endsWith('protocol 2026-07-28')), h.logs.join('\n'));
    assert.deepEqual(connection.tools.map((t) => t.name), ['where']);
    for (const expected of [
      'modern warn Tool "number_header" was left out: x-mcp-header on "n" is on a property that is not a string, integer or boolean.',
      'modern warn Tool "items_header" was left out: x-mcp-header on "list.<items>" is not reached through "properties" alone.',
      'modern warn Tool "crlf_header" was left out: x-mcp-header on "a" is not a valid header name.',
    ]) {
      assert.ok(h.logs.includes(expected), `${expected}\nnot in\n${h.logs.join('\n')}`);
    }
    const call = (args: Record<string, unknown>) => h.pipeline.call({ server: 'modern', tool: 'where', args, origin: 'api' });
    const plain = await call({ region: 'eu-west', options: { dryRun: true, limit: 5 }, note: 'not a header' });
    assert.ok(plain.kind === 'ok', JSON.stringify(plain));
    assert.equal(plain.result.text, 'mcp-param-dry-run: true\nmcp-param-limit: 5\nmcp-param-region: eu-west');
    // A value that is not plain ASCII, or would end the header line, is sent base64-encoded, never raw.
    const odd = await call({ region: 'Zürich\r\nX-Injected: 1' });
    assert.ok(odd.kind === 'ok', JSON.stringify(odd));
    assert.equal(odd.result.text, `mcp-param-region: =?base64?${Buffer.from('Zürich\r\nX-Injected: 1').toString('base64')}?=`);
    const none = await call({});
    assert.ok(none.kind === 'ok' && none.result.text === '(no Mcp-Param headers)', JSON.stringify(none));
  });

  describe('failures a user can act on', () => {
    let port = 0;
    const seen: (string | undefined)[] = [];
    let server: http.Server;
    before(async () => {
      server = http.createServer((req, res) => {
        seen.push(req.headers.authorization);
        res.writeHead(req.url?.startsWith('/private') ? 401 : 404, { 'content-type': 'text/plain' });
        res.end('no');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      port = (server.address() as net.AddressInfo).port;
    });
    after(() => new Promise<void>((r) => server.close(() => r())));

    it('401 says credentials are needed and points at the headers; the headers were sent', async () => {
      const h = makeHost({ p: { type: 'http', url: `http://127.0.0.1:${port}/private/mcp`, headers: { Authorization: 'Bearer wrong-token' } } });
      cleanups.push(() => h.close());
      await h.pool.get('p')!.start();
      const state = h.pool.get('p')!.state;
      assert.ok(state.kind === 'error' && /answered 401 Unauthorized: it needs credentials\. Check the "headers"/.test(state.message), JSON.stringify(state));
      assert.ok(seen.includes('Bearer wrong-token'));
      assert.ok(!h.logs.some((l) => l.includes('wrong-token')), 'header values are never logged');
    });

    it('404 (on both transports) says to check the path', async () => {
      const h = makeHost({ n: { type: 'http', url: `http://127.0.0.1:${port}/nothing/here` } });
      cleanups.push(() => h.close());
      await h.pool.get('n')!.start();
      const state = h.pool.get('n')!.state;
      assert.ok(state.kind === 'error' && /answered 404 Not Found: check the URL's path/.test(state.message), JSON.stringify(state));
    });

    it('a refused connection says so', async () => {
      const closed = await freePort();
      const h = makeHost({ r: { type: 'http', url: `http://127.0.0.1:${closed}/mcp` } });
      cleanups.push(() => h.close());
      await h.pool.get('r')!.start();
      const state = h.pool.get('r')!.state;
      assert.ok(state.kind === 'error' && /^Could not connect to http:\/\/127\.0\.0\.1:\d+\/mcp: the connection was refused/.test(state.message), JSON.stringify(state));
    });
  });

  it('a remote server whose answers never end: each message is bounded as it streams (JSON and SSE, calls and reads), the error names the limit and the setting, the session goes on', async function () {
    this.timeout(120_000);
    // The server stops at 512 MiB, so that without the bound the client fails (on the unfinished JSON) rather than the machine.
    const { port, child } = await listening([path.join(FIXTURES, 'http-huge.cjs')], { MAX_MIB: '512' });
    cleanups.push(() => void child.kill());
    const hungUp: number[] = [];
    child.stderr!.on('data', (d: Buffer) => { for (const m of d.toString().matchAll(/hung up after (\d+) MiB/g)) hungUp.push(Number(m[1])); });
    const h = makeHost({ huge: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } }, 'allow-once', { maxMessageBytes: 8 * 1024 * 1024 });
    cleanups.push(() => h.close());
    await h.pool.get('huge')!.start();
    const offers = newResourceOffers({ pool: h.pool, pipeline: h.pipeline });
    cleanups.push(() => offers.dispose());
    const started = process.memoryUsage().rss;
    const limit = /exceeded the 8\.0 MiB limit and was dropped \(raise the setting mcpToolHost\.maxMessageSize to accept it\)/;
    for (const tool of ['endless_json', 'endless_sse']) {
      const call = await h.pipeline.call({ server: 'huge', tool, args: {}, origin: 'api' });
      assert.ok(call.kind === 'failed' && limit.test(call.message), `${tool}: ${JSON.stringify(call).slice(0, 400)}`);
    }
    for (const uri of ['huge://json', 'huge://sse']) {
      const read = await offers.read({ server: 'huge', uri, origin: 'cli' });
      assert.ok(read.kind === 'failed' && limit.test(read.message), `${uri}: ${JSON.stringify(read).slice(0, 400)}`);
    }
    assert.ok(process.memoryUsage().rss - started < 256 * 1024 * 1024, `RSS grew ${Math.round((process.memoryUsage().rss - started) / 1048576)} MiB`);
    assert.ok(h.logs.some((l) => l.startsWith('huge warn') && limit.test(l)), h.logs.join('\n'));
    const echo = await h.pipeline.call({ server: 'huge', tool: 'echo', args: { still: 'here' }, origin: 'api' });
    assert.ok(echo.kind === 'ok' && echo.result.text.includes('still'), JSON.stringify(echo));
    const small = await offers.read({ server: 'huge', uri: 'small://text', origin: 'cli' });
    assert.ok(small.kind === 'ok' && small.parts[0].kind === 'text' && small.parts[0].text === 'a small text', JSON.stringify(small));
    await until('the server saw each hang-up', () => hungUp.length === 4, 10_000);
    assert.ok(hungUp.every((mib) => mib < 64), `the server sent ${hungUp.join(', ')} MiB before the client hung up`);
  });
});
