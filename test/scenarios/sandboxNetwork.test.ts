import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { sandboxCheck, wrapLaunch } from '../../src/core/transport/sandbox';
import { DEFAULT_SANDBOX } from '../../src/core/config/sandboxConfig';
import { DEMO_SERVER, FIXTURES, makeHost, node } from '../integration/helpers';

const PROBE = path.join(FIXTURES, 'sandbox-probe.cjs');
/** The Node 24 the e2e setup installs (scripts/e2e/env.sh: in $E2E_CACHE when set, as CI sets it); the machine's own Node is the other. */
const E2E_CACHE = process.env.E2E_CACHE || path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'mcp-tool-host');
const NODE24 = path.join(E2E_CACHE, 'node-24.21.0/node_modules', `node-linux-${process.arch}`, 'bin/node');
/** Two loopback addresses: the proxy dials an allow-listed IP literal, and NO_PROXY names 127.0.0.1 only. */
const ALLOWED = '127.0.0.2';
const OTHER = '127.0.0.3';

/**
 * Issue 32: a sandboxed server reaches its allowed domains through the sandbox's proxy whatever
 * its runtime (Node 20 and 24, fetch() and http, a child it starts, Python's clients), and no
 * other host. Real servers under bubblewrap; the hosts are loopback servers of ours.
 */
describe('scenario: a sandboxed server on the network (bubblewrap; real processes)', function () {
  this.timeout(60_000);
  const servers: http.Server[] = [];
  const seen: string[] = [];
  let allowedUrl: string;
  let otherUrl: string;
  const hosts: ReturnType<typeof makeHost>[] = [];

  const listen = async (address: string) => {
    const server = http.createServer((req, res) => {
      seen.push(`${address} ${req.url}`);
      res.end(`hello from ${address}`);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, address, resolve));
    return `http://${address}:${(server.address() as { port: number }).port}`;
  };

  before(async function () {
    const check = await sandboxCheck();
    assert.ok(check.ok, `this machine cannot sandbox: ${check.ok ? '' : check.reason}`);
    allowedUrl = await listen(ALLOWED);
    otherUrl = await listen(OTHER);
  });
  after(() => servers.forEach((s) => s.close()));
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
    seen.length = 0;
  });

  const network = { allowedDomains: [ALLOWED] };
  const probe = async (h: ReturnType<typeof makeHost>, action: string, target: string, child: boolean) => {
    const outcome = await h.pipeline.call({ server: 'probe', tool: 'probe', args: { action, target, child }, origin: 'api' });
    assert.equal(outcome.kind, 'ok', JSON.stringify(outcome));
    return outcome.kind === 'ok' ? outcome.result.text : '';
  };

  const runtimes = [{ name: `Node ${process.versions.node}`, exec: process.execPath }, ...(fs.existsSync(NODE24) ? [{ name: 'Node 24', exec: NODE24 }] : [])];
  it('runs on Node 20 and Node 24 (the e2e setup installs Node 24)', () => assert.equal(runtimes.length, 2, `no Node 24 at ${NODE24}: run scripts/e2e/setup.sh`));

  for (const runtime of runtimes) {
    it(`${runtime.name}: fetch() and http.get, in the server and in a child it starts, reach the allowed host and no other`, async () => {
      const h = makeHost({ probe: { command: runtime.exec, args: [PROBE], sandbox: { network } } }, 'allow-once');
      hosts.push(h);
      await h.pool.get('probe')!.start();
      for (const action of ['fetch', 'http']) {
        for (const child of [false, true]) {
          const where = `${action}${child ? ' in a child' : ''}`;
          assert.equal(await probe(h, action, `${allowedUrl}/${action}`, child), `allowed: 200 hello from ${ALLOWED}`, where);
          const refused = await probe(h, action, `${otherUrl}/${action}`, child);
          assert.match(refused, /^(denied: |allowed: 403 Connection blocked)/, `${where}: ${refused}`);
        }
      }
      assert.deepEqual(seen.filter((s) => s.startsWith(OTHER)), [], 'the other host got no request');
      assert.equal(seen.length, 4);
    });
  }

  it('https through the proxy to the real allowed domain (registry.npmjs.org), with fetch() and https.get; another https host refused', async () => {
    const h = makeHost({ probe: node(PROBE, { sandbox: true }) }, 'allow-once');
    hosts.push(h);
    await h.pool.get('probe')!.start();
    for (const action of ['fetch', 'http']) {
      assert.match(await probe(h, action, 'https://registry.npmjs.org/-/ping', false), /^allowed: 200 /, action);
      assert.match(await probe(h, action, 'https://example.com/', false), /^denied: /, action);
    }
  });

  it("the demo server's Fetch URL: the allowed domain answers; another is a tool error that says the sandbox denied it", async () => {
    const h = makeHost({ demo: node(DEMO_SERVER, { sandbox: { network } }) }, 'allow-once');
    hosts.push(h);
    await h.pool.get('demo')!.start();
    const ok = await h.pipeline.call({ server: 'demo', tool: 'fetch_url', args: { url: `${allowedUrl}/demo` }, origin: 'api' });
    assert.equal(ok.kind, 'ok', JSON.stringify(ok));
    assert.match(ok.kind === 'ok' ? ok.result.text : '', new RegExp(`HTTP 200 .*\\nhello from ${ALLOWED.replace(/\./g, '\\.')}`));
    const refused = await h.pipeline.call({ server: 'demo', tool: 'fetch_url', args: { url: `${otherUrl}/demo` }, origin: 'api' });
    assert.equal(refused.kind, 'tool-error', JSON.stringify(refused));
    assert.match(refused.kind === 'tool-error' ? refused.result.text : '', new RegExp(`the sandbox denied a connection to ${OTHER.replace(/\./g, '\\.')}:\\d+`, 'i'));
  });

  it('the demo server\'s Fetch URL with "network": "none": a tool error that says the sandbox gives it no network (it failed inside, unseen by the proxy)', async () => {
    const h = makeHost({ demo: node(DEMO_SERVER, { sandbox: { network: 'none' } }) }, 'allow-once');
    hosts.push(h);
    await h.pool.get('demo')!.start();
    const refused = await h.pipeline.call({ server: 'demo', tool: 'fetch_url', args: { url: `${allowedUrl}/demo` }, origin: 'api' });
    assert.equal(refused.kind, 'tool-error', JSON.stringify(refused));
    assert.match(refused.kind === 'tool-error' ? refused.result.text : '', /The sandbox denied the network: this server may reach no host \("sandbox\.network" is "none" or allows no domain\)/);
  });

  it("Python's urllib and requests (they read HTTP_PROXY themselves): the allowed host answers, another is refused (the proxy's 403)", async function () {
    const python = spawnSync('python3', ['-c', 'import requests'], { encoding: 'utf8' });
    if (python.status !== 0) this.skip(); // no python3 with requests on this machine
    const script = [
      'import sys, urllib.request, requests',
      'def tryit(f):',
      '    try: return f()',
      '    except Exception as e: return "denied: " + type(e).__name__',
      'for url in sys.argv[1:]:',
      '    print(tryit(lambda: urllib.request.urlopen(url, timeout=10).read().decode()))',
      '    print(tryit(lambda: (lambda r: r.text if r.ok else "denied: " + str(r.status_code))(requests.get(url, timeout=10))))',
    ].join('\n');
    const wrapped = await wrapLaunch({ command: 'python3', args: ['-c', script, `${allowedUrl}/py`, `${otherUrl}/py`], env: { PATH: process.env.PATH ?? '', HOME: os.homedir() } }, { ...DEFAULT_SANDBOX, network: { allowedDomains: [ALLOWED], deniedDomains: [] } });
    assert.equal(wrapped.kind, 'sandboxed');
    if (wrapped.kind !== 'sandboxed') return;
    try {
      const run = await new Promise<string>((resolve) => {
        const child = spawn(wrapped.launch.command, wrapped.launch.args, { env: wrapped.launch.env });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d));
        child.on('close', () => resolve(out));
      });
      assert.deepEqual(run.trim().split('\n'), [`hello from ${ALLOWED}`, `hello from ${ALLOWED}`, 'denied: HTTPError', 'denied: 403']);
    } finally {
      wrapped.release();
    }
  });
});
