import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Client, ProtocolError, ProtocolErrorCode, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CLI } from './cliRun';
import { fixture, gatewayFolder } from './gatewayClients';

/** `mcp-tool-host serve --http --config FILE` as a real child process: its URL and token (from stderr), how it exits, and a kill for the cleanup. */
async function httpServe(config: string, stateDir: string): Promise<{ url: string; token: string; exited: Promise<number | null>; stderr: () => string; kill: (signal: NodeJS.Signals) => void }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '--config', config], { env: { PATH: process.env.PATH ?? '', HOME: stateDir, XDG_STATE_HOME: path.join(stateDir, 'state') }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const found = await new Promise<RegExpExecArray>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (t: string) => {
      stderr += t;
      const match = /http:\/\/127\.0\.0\.1:(\d+)\/([A-Za-z0-9_-]+)\/mcp/.exec(stderr);
      if (match) resolve(match);
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
  });
  return { url: `http://127.0.0.1:${found[1]}/mcp`, token: found[2], exited, stderr: () => stderr, kill: (signal) => void child.kill(signal) };
}

/** The official SDK client at a 2025 revision (a session, answers on SSE) or pinned at 2026-07-28 (per request). */
async function eraClient(url: string, token: string, era: '2025' | '2026-07-28'): Promise<Client> {
  const client = new Client({ name: `stop-test-${era}`, version: '1.0.0' }, { capabilities: {}, ...(era === '2026-07-28' && { versionNegotiation: { mode: { pin: '2026-07-28' } } }) });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** How one call ended, and when (ms after the gateway was told to stop). */
type Ended = { readonly error?: unknown; readonly at: number };

describe('gateway over Streamable HTTP: stopped with calls in flight (mcp-tool-host serve --http, SIGTERM)', function () {
  this.timeout(60_000);
  const folder = gatewayFolder();
  let gateway: Awaited<ReturnType<typeof httpServe>> | undefined;
  const clients: Client[] = [];
  afterEach(async () => {
    gateway?.kill('SIGKILL');
    await gateway?.exited;
    gateway = undefined;
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  });
  after(() => folder.cleanup());

  it('answers each open request of either era with a JSON-RPC error that says the gateway stopped, at once; the calls are audited as cancelled', async () => {
    gateway = await httpServe(folder.config({ slow: fixture('slow-calls.cjs') }), folder.dir);
    const legacy = await eraClient(gateway.url, gateway.token, '2025');
    const modern = await eraClient(gateway.url, gateway.token, '2026-07-28');
    clients.push(legacy, modern);
    // Calls that would run 30 s: with progress (a 2026-07-28 call then answers on SSE) and without (its answer is JSON).
    let stopAt = Number.POSITIVE_INFINITY;
    const running: Promise<void>[] = [];
    const ended: Ended[] = [];
    const call = (client: Client, progress: boolean) => {
      let started!: () => void;
      running.push(new Promise<void>((resolve) => (started = resolve)));
      // A timeout well past the test's wait: a call not answered when the gateway stops shows as one that waited.
      const options = { timeout: 20_000, ...(progress ? { onprogress: () => started() } : {}) };
      if (!progress) started();
      return client.callTool({ name: 'slow_wait', arguments: { ms: 30_000, progressMs: 50 } }, options).then(
        () => void ended.push({ at: performance.now() - stopAt }),
        (error: unknown) => void ended.push({ error, at: performance.now() - stopAt }),
      );
    };
    const calls = [call(legacy, true), call(legacy, false), call(modern, true), call(modern, false)];
    await Promise.all(running);
    // The calls without progress were sent with the others: give them the moment to reach the server.
    await new Promise((r) => setTimeout(r, 500));
    stopAt = performance.now();
    gateway.kill('SIGTERM');
    await Promise.all(calls);
    assert.equal(ended.length, 4);
    for (const { error, at } of ended) {
      assert.ok(error instanceof ProtocolError, `not a JSON-RPC error: ${String(error)}`);
      assert.equal(error.code, ProtocolErrorCode.InternalError, error.message);
      assert.match(error.message, /The MCP Tool Host gateway stopped before the call ended/);
      assert.ok(at < 5_000, `answered ${Math.round(at)} ms after the stop`);
    }
    assert.equal(await gateway.exited, 0, gateway.stderr());
    const audit = path.join(folder.dir, 'state', 'mcp-tool-host', 'audit.jsonl');
    const lines = fs.readFileSync(audit, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { server: string; tool: string; outcome: string });
    assert.deepEqual(lines.filter((l) => l.server === 'slow' && l.tool === 'wait').map((l) => l.outcome), ['cancelled', 'cancelled', 'cancelled', 'cancelled']);
  });
});
