import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import * as net from 'node:net';
import { EVERYTHING, makeHost } from './helpers';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** server-everything over HTTP, in its own process, on a free loopback port. */
async function everythingOverHttp(mode: 'streamableHttp' | 'sse'): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => net.connect(port, '127.0.0.1').on('connect', function (this: net.Socket) { this.destroy(); resolve(true); }).on('error', () => resolve(false)));
    if (up) return { port, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error('server-everything did not listen');
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
});
