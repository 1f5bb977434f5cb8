import * as assert from 'node:assert/strict';
import { setMaxListeners } from 'node:events';
import * as http from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startHttpGateway } from '../../src/core/gateway/later';
import { MAX_SESSIONS } from '../../src/core/gateway/httpGateway';
import type { RunningHttpGateway } from '../../src/core/gateway/gatewayTypes';
import { everything, fixture, gatewayFolder, httpClient, textOf } from './gatewayClients';
import { makeHost } from './helpers';

/** One raw request to the gateway, headers exactly as given (no client library smoothing them); on `agent`'s connections when given. */
function rawPost(port: number, path: string, headers: Record<string, string>, body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, agent?: http.Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    // A string is sent as it is (a body that is not JSON).
    const data = typeof body === 'string' ? body : JSON.stringify(body);
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (t: string) => (text += t));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

/** A new session by a raw initialize (its client never ends it): its id. */
async function rawSession(port: number, token: string): Promise<string> {
  const id = await new Promise<string | undefined>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` } }, (res) => {
      res.resume().on('end', () => resolve(res.headers['mcp-session-id'] as string | undefined));
    });
    req.on('error', reject);
    req.end(JSON.stringify(initialize));
  });
  assert.ok(id, 'the gateway gave no session id');
  return id;
}

/** A GET stream of the session, held open until aborted; resolves once the gateway answered (its status). */
function openStream(port: number, token: string, session: string, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'GET', signal, headers: { accept: 'text/event-stream', authorization: `Bearer ${token}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } }, (res) => {
      res.on('error', () => undefined);
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (err) => (signal.aborted ? undefined : reject(err)));
    req.end();
  });
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

/** A 2026-07-28 tools/list as a client sends it (no session: the request carries its era and client itself), on `agent`'s connection. */
function modernList(port: number, token: string, agent: http.Agent, id: number): Promise<number> {
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'flooder', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  const headers = { authorization: `Bearer ${token}`, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
  return rawPost(port, '/mcp', headers, { jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: meta } }, agent).then((r) => r.status);
}

/** The official SDK client pinned at 2026-07-28 (served per request, no session). */
async function modernClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'newcomer-2026', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

describe('gateway over Streamable HTTP (loopback, token), driven by the official SDK client', function () {
  this.timeout(60_000);
  const folder = gatewayFolder();
  const host = makeHost({ everything, rules: fixture('rule-tools.cjs', { CALLS_FILE: folder.calls }), untrusted: fixture('rule-tools.cjs', { CALLS_FILE: folder.calls }) });
  let gateway: RunningHttpGateway;
  let port: number;
  before(async () => {
    // A flood budget small enough that the flood test floods whatever the machine's speed (the default refills 100 a second).
    gateway = await startHttpGateway({ pool: host.pool, pipeline: host.pipeline, asks: 'client', offers: (s) => s !== 'untrusted', clientVersion: 'test' }, { flood: { burst: 60, perSecond: 2 } });
    port = Number(new URL(gateway.url).port);
  });
  after(async () => {
    await gateway.close();
    await host.close();
    folder.cleanup();
  });

  it('listens on 127.0.0.1 only, and lists and calls echo and get-sum for a client with the token', async () => {
    assert.match(gateway.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.match(gateway.token, /^[A-Za-z0-9_-]{43}$/);
    const { client } = await httpClient(gateway.url, gateway.token);
    try {
      assert.equal(gateway.clients, 1);
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('everything_echo') && names.includes('rules_write_file'), names.join(', '));
      assert.equal(textOf(await client.callTool({ name: 'everything_echo', arguments: { message: 'over http' } })), 'Echo: over http');
      assert.match(textOf(await client.callTool({ name: 'everything_get-sum', arguments: { a: 20, b: 22 } })), /is 42/);
    } finally {
      await client.close();
    }
  });

  it('takes the token as the first path segment too (for clients that cannot set a header)', async () => {
    const res = await rawPost(port, `/${gateway.token}/mcp`, {}, initialize);
    assert.equal(res.status, 200, res.text);
  });

  it('refuses a client that is not ours before any MCP handling: no token, a wrong one, a foreign Origin, a rebound Host', async () => {
    const bearer = { authorization: `Bearer ${gateway.token}` };
    assert.equal((await rawPost(port, '/mcp', {}, initialize)).status, 401);
    assert.equal((await rawPost(port, '/mcp', { authorization: `Bearer ${gateway.token.slice(0, -1)}x` }, initialize)).status, 401);
    assert.equal((await rawPost(port, '/not-the-token/mcp', {}, initialize)).status, 401);
    assert.equal((await rawPost(port, '/mcp', { ...bearer, origin: 'https://evil.example' }, initialize)).status, 403);
    assert.equal((await rawPost(port, '/mcp', { ...bearer, origin: `http://evil.example:${port}` }, initialize)).status, 403);
    assert.equal((await rawPost(port, '/mcp', { ...bearer, host: `evil.example:${port}` }, initialize)).status, 403);
    assert.equal((await rawPost(port, '/mcp', { ...bearer, host: `127.0.0.1:${port + 1}` }, initialize)).status, 403);
    // A browser page on the gateway's own origin is fine.
    assert.equal((await rawPost(port, '/mcp', { ...bearer, origin: `http://localhost:${port}` }, initialize)).status, 200);
  });

  it('refuses a body over the cap (413), and one that is not JSON with JSON-RPC\'s parse error (-32700)', async () => {
    const res = await rawPost(port, '/mcp', { authorization: `Bearer ${gateway.token}` }, { ...initialize, params: { ...initialize.params, pad: 'x'.repeat(5 * 1024 * 1024) } });
    assert.equal(res.status, 413);
    const broken = await rawPost(port, '/mcp', { authorization: `Bearer ${gateway.token}` }, '{"jsonrpc": "2.0", "id": 1, "method": ');
    assert.equal(broken.status, 400);
    assert.deepEqual(JSON.parse(broken.text), { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not JSON.' } });
  });

  it('a client that floods calls is answered 429 (or rate-limited tool errors) and the gateway still answers a normal call after', async () => {
    const { client } = await httpClient(gateway.url, gateway.token);
    try {
      const results = await Promise.allSettled(Array.from({ length: 400 }, () => client.callTool({ name: 'everything_echo', arguments: { message: 'flood' } })));
      const refused = results.filter((r) => r.status === 'rejected' ? /429|Too many/i.test(String(r.reason)) : r.value.isError === true && /Too many|rate limit/i.test(textOf(r.value)));
      assert.ok(refused.length > 0, `some of the flood is refused: ${results.length - refused.length} went through`);
      // The gateway's own limit, per client, before anything is parsed: 429. A client without a session is its connection.
      const oneConnection = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const raw = await Promise.all(Array.from({ length: 400 }, () => rawPost(port, '/mcp', { authorization: `Bearer ${gateway.token}` }, undefined, oneConnection)));
      oneConnection.destroy();
      assert.ok(raw.some((r) => r.status === 429), raw.map((r) => r.status).slice(-5).join(', '));
      // Made-up session ids are refused as such, each before it could get a budget of its own.
      const madeUp = await Promise.all(Array.from({ length: 20 }, (_, i) => rawPost(port, '/mcp', { authorization: `Bearer ${gateway.token}`, 'mcp-session-id': `flooder-${i}` })));
      assert.deepEqual([...new Set(madeUp.map((r) => r.status))], [404]);
      await new Promise((r) => setTimeout(r, 2_500));
      assert.equal(textOf(await client.callTool({ name: 'everything_echo', arguments: { message: 'after the flood' } })), 'Echo: after the flood');
    } finally {
      await client.close();
    }
  });

  it('a 2026-07-28 client flooding over its connection gets 429, and a new client of either era still connects and calls meanwhile', async () => {
    // Its own gateway: the flooder spends the whole budget of the connection it floods on (60, then 2 a second).
    const flooded = await startHttpGateway({ pool: host.pool, pipeline: host.pipeline, asks: 'client', offers: (s) => s !== 'untrusted', clientVersion: 'test' }, { flood: { burst: 60, perSecond: 2 } });
    const floodedPort = Number(new URL(flooded.url).port);
    // One keep-alive connection carries all of the flooder's requests, as a client that reuses its connection sends them.
    const flooder = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const newcomers: Client[] = [];
    const statuses: number[] = [];
    let flooding = true;
    const flood = (async () => {
      for (let id = 0; flooding; id += 20) statuses.push(...(await Promise.all(Array.from({ length: 20 }, (_, i) => modernList(floodedPort, flooded.token, flooder, id + i)))));
    })();
    try {
      while (!statuses.includes(429)) await Promise.race([flood, new Promise((r) => setTimeout(r, 10))]);
      const before = statuses.length;
      // While it floods, clients that did nothing are not held to its rate: the 2025 one initializes and calls, the 2026-07-28 one discovers and calls.
      const { client: legacy } = await httpClient(flooded.url, flooded.token);
      newcomers.push(legacy);
      assert.equal(textOf(await legacy.callTool({ name: 'everything_echo', arguments: { message: 'newcomer 2025' } })), 'Echo: newcomer 2025');
      const modern = await modernClient(flooded.url, flooded.token);
      newcomers.push(modern);
      assert.ok((await modern.listTools()).tools.some((t) => t.name === 'everything_echo'));
      assert.equal(textOf(await modern.callTool({ name: 'everything_echo', arguments: { message: 'newcomer 2026' } })), 'Echo: newcomer 2026');
      // The flooder stays over its rate (two more of its rounds of 20, counted from before the newcomers came).
      while (statuses.length < before + 40) await Promise.race([flood, new Promise((r) => setTimeout(r, 10))]);
      const meanwhile = statuses.slice(before);
      assert.ok(meanwhile.filter((s) => s === 429).length > meanwhile.length / 2, meanwhile.join(' '));
    } finally {
      flooding = false;
      await flood;
      flooder.destroy();
      await Promise.all(newcomers.map((c) => c.close().catch(() => undefined)));
      await flooded.close();
    }
  });

  it('a client that leaves without ending its session locks nobody out: at the cap the idlest session makes room; only busy sessions make a 503', async () => {
    const roomy = await startHttpGateway({ pool: host.pool, pipeline: host.pipeline, asks: 'client', offers: (s) => s !== 'untrusted', clientVersion: 'test' }, { flood: { burst: 1_000, perSecond: 1_000 } });
    const roomyPort = Number(new URL(roomy.url).port);
    const streams = new AbortController();
    setMaxListeners(MAX_SESSIONS + 1, streams.signal);
    try {
      // Clients that initialized and went (the SDK's close() sends no DELETE): the table is full.
      const left: string[] = [];
      for (let i = 0; i < MAX_SESSIONS; i++) left.push(await rawSession(roomyPort, roomy.token));
      assert.equal(roomy.clients, MAX_SESSIONS);
      // A new client still gets in, and works; the session idle the longest (the first) made room.
      const { client } = await httpClient(roomy.url, roomy.token);
      try {
        assert.equal(textOf(await client.callTool({ name: 'everything_echo', arguments: { message: 'room made' } })), 'Echo: room made');
      } finally {
        await client.close();
      }
      assert.equal(roomy.clients, MAX_SESSIONS);
      const first = await rawPost(roomyPort, '/mcp', { authorization: `Bearer ${roomy.token}`, 'mcp-session-id': left[0] });
      assert.equal(first.status, 404, 'the idlest session was not the one ended');
      assert.match(first.text, /initialize again/);
      // Every session busy (a stream open on each): a new one is refused, and says why.
      const alive = left.slice(1);
      const held = await Promise.all(alive.map((id) => openStream(roomyPort, roomy.token, id, streams.signal)));
      assert.deepEqual([...new Set(held)], [200]);
      const extra = await rawSession(roomyPort, roomy.token);
      const busyOnes = [...alive, extra];
      assert.equal(busyOnes.length, MAX_SESSIONS);
      await openStream(roomyPort, roomy.token, extra, streams.signal);
      const refused = await rawPost(roomyPort, '/mcp', { authorization: `Bearer ${roomy.token}` }, initialize);
      assert.equal(refused.status, 503);
      assert.match(refused.text, new RegExp(`all ${MAX_SESSIONS} have a request or stream open`));
      // The streams closed (their clients gone): room again.
      streams.abort();
      let status = 0;
      for (const end = Date.now() + 10_000; status !== 200 && Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
        status = (await rawPost(roomyPort, '/mcp', { authorization: `Bearer ${roomy.token}` }, initialize)).status;
      }
      assert.equal(status, 200, 'no room once the streams closed');
    } finally {
      streams.abort();
      await roomy.close();
    }
  });

  it("never lists or runs a tool of a server it does not offer (a workspace not trusted), even called by name", async () => {
    const { client } = await httpClient(gateway.url, gateway.token);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(!names.some((n) => n.startsWith('untrusted_')), names.join(', '));
      const before = folder.called().length;
      // A name of a server not offered is no tool of this gateway: a JSON-RPC error that says why.
      await assert.rejects(client.callTool({ name: 'untrusted_read_file', arguments: { path: 'x' } }), (err: Error & { code?: number }) => err.code === -32602 && /Unknown tool: server "untrusted" is not offered through the gateway \(its workspace is not trusted\)/.test(err.message));
      assert.equal(folder.called().length, before);
      assert.equal(host.pool.get('untrusted')!.state.kind, 'stopped');
    } finally {
      await client.close();
    }
  });
});
