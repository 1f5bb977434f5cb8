import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { sandboxCheck } from '../../src/core/transport/sandbox';
import { callVerdict, toolAnnotations } from '../../src/core/policy/approvalPolicy';
import { DEMO_SERVER, FIXTURES, makeHost, node, ROOT } from './helpers';

const PROBE = path.join(FIXTURES, 'sandbox-probe.cjs');
const FILESYSTEM = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

/**
 * Issue 17: a sandboxed server (real processes, the real bubblewrap sandbox) can write only where
 * it was allowed, read nothing it was denied, reach no loopback server of ours, and neither can a
 * child it spawns; the same server unsandboxed can do all of it.
 */
describe('sandboxed stdio servers (bubblewrap; real processes)', function () {
  this.timeout(30_000);
  let home: string;
  let allowed: string;
  let outside: string;
  let listener: net.Server;
  let port: number;
  const hosts: ReturnType<typeof makeHost>[] = [];

  before(async function () {
    const check = await sandboxCheck();
    // The e2e setup installs bubblewrap, socat and ripgrep (scripts/e2e/setup.sh): a machine without them fails here, loudly.
    assert.ok(check.ok, `this machine cannot sandbox: ${check.ok ? '' : check.reason}`);
    listener = net.createServer((socket) => socket.end()).listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    port = (listener.address() as net.AddressInfo).port;
  });
  after(() => listener?.close());
  beforeEach(() => {
    home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-home-')));
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.writeFileSync(path.join(home, '.ssh', 'id_test'), 'PRIVATE KEY');
    allowed = path.join(home, 'allowed');
    outside = path.join(home, 'outside');
    fs.mkdirSync(allowed);
    fs.mkdirSync(outside);
  });
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
    fs.rmSync(home, { recursive: true, force: true });
  });

  const probeHost = (sandbox: unknown) => {
    const h = makeHost({ probe: node(PROBE, { env: { HOME: home }, ...(sandbox !== undefined && { sandbox }) }) }, 'allow-once');
    hosts.push(h);
    return h;
  };
  const SANDBOX = () => ({ filesystem: { allowWrite: [allowed], denyRead: ['~/.ssh'] }, network: 'none' });
  const probe = async (h: ReturnType<typeof makeHost>, action: string, target: string, child = false) => {
    const outcome = await h.pipeline.call({ server: 'probe', tool: 'probe', args: { action, target, child }, origin: 'api' });
    assert.equal(outcome.kind, 'ok', JSON.stringify(outcome));
    return outcome.kind === 'ok' ? outcome.result.text : '';
  };

  for (const child of [false, true]) {
    const who = child ? 'a child it spawns' : 'the server';
    it(`denies ${who} writes outside its folder, reads of a denied path and loopback connections; allows writes to its folder`, async () => {
      const h = probeHost(SANDBOX());
      const c = h.pool.get('probe')!;
      await c.start();
      assert.equal(c.state.kind, 'running', JSON.stringify(c.state));
      assert.match(await probe(h, 'write', path.join(outside, 'x.txt'), child), /^denied: EROFS/);
      assert.equal(fs.existsSync(path.join(outside, 'x.txt')), false);
      assert.match(await probe(h, 'read', path.join(home, '.ssh', 'id_test'), child), /^denied: /);
      assert.match(await probe(h, 'connect', String(port), child), /^denied: /);
      assert.equal(await probe(h, 'write', path.join(allowed, 'ok.txt'), child), 'allowed');
      assert.equal(fs.readFileSync(path.join(allowed, 'ok.txt'), 'utf8'), 'written by sandbox-probe');
    });

    it(`gives ${who} a minimal environment: none of the user's tokens, but its own env`, async () => {
      process.env.MCP_TEST_GITHUB_TOKEN = 'ghp_not_for_the_sandbox';
      try {
        const h = probeHost(SANDBOX());
        await h.pool.get('probe')!.start();
        assert.equal(await probe(h, 'env', 'MCP_TEST_GITHUB_TOKEN', child), 'denied: unset');
        assert.equal(await probe(h, 'env', 'PATH', child), 'allowed');
        assert.equal(await probe(h, 'env', 'HOME', child), 'allowed', 'its own env ("HOME") is given');
        const open = probeHost(undefined);
        await open.pool.get('probe')!.start();
        assert.equal(await probe(open, 'env', 'MCP_TEST_GITHUB_TOKEN', child), 'allowed', 'unsandboxed, it inherits everything');
      } finally {
        delete process.env.MCP_TEST_GITHUB_TOKEN;
      }
    });

    it(`allows ${who} all of it without a sandbox`, async () => {
      const h = probeHost(undefined);
      await h.pool.get('probe')!.start();
      assert.equal(await probe(h, 'write', path.join(outside, 'x.txt'), child), 'allowed');
      assert.equal(await probe(h, 'read', path.join(home, '.ssh', 'id_test'), child), 'allowed');
      assert.equal(await probe(h, 'connect', String(port), child), 'allowed');
    });
  }

  it('"offline is closed-world" holds in one place: what the tree, chat and picker show (rules.annotationsOf) and what the call does agree', async () => {
    const judged = async (offlineSandboxClosed: boolean) => {
      const h = makeHost({ demo: node(DEMO_SERVER, { sandbox: { network: 'none' } }) }, 'deny', { offlineSandboxClosed });
      hosts.push(h);
      await h.pool.get('demo')!.start();
      const tool = h.pool.get('demo')!.tools.find((t) => t.name === 'fetch_url')!;
      const shown = toolAnnotations(h.pipeline.rules, 'demo', tool, false);
      const verdict = callVerdict('demo', tool, shown, h.pipeline.rules).kind;
      const outcome = await h.pipeline.call({ server: 'demo', tool: 'fetch_url', args: { url: 'http://127.0.0.1:9/' }, origin: 'api' });
      return { openWorld: shown.openWorld, verdict, asked: h.approvals.length, sent: outcome.kind !== 'denied' };
    };
    assert.deepEqual(await judged(true), { openWorld: { value: false, source: 'sandbox' }, verdict: 'runs', asked: 0, sent: true });
    const open = await judged(false);
    assert.equal(open.openWorld.value, true);
    assert.deepEqual([open.verdict, open.asked, open.sent], ['asks', 1, false]);
  });

  it('"sandbox": false is an explicit "unsandboxed"', async () => {
    const h = probeHost(false);
    await h.pool.get('probe')!.start();
    assert.equal(await probe(h, 'write', path.join(outside, 'x.txt')), 'allowed');
  });

  it('a server that fails because the sandbox denied a write says so in its error', async () => {
    const h = makeHost({ probe: node(PROBE, { env: { HOME: home, WRITE_AT_START: path.join(outside, 'state.db') }, sandbox: SANDBOX() }) });
    hosts.push(h);
    const c = h.pool.get('probe')!;
    await c.start();
    assert.equal(c.state.kind, 'error', JSON.stringify(c.state));
    if (c.state.kind === 'error') assert.match(c.state.message, /Likely cause: the sandbox denied a write outside the folders it may write: .*(EROFS|read-only file system)/i);
  });

  it('the sandbox ends with its server: no proxy keeps running, a later start sets it up again', async () => {
    const h = probeHost(SANDBOX());
    const c = h.pool.get('probe')!;
    await c.start();
    await c.stop();
    await c.start();
    assert.equal(c.state.kind, 'running', JSON.stringify(c.state));
    assert.match(await probe(h, 'write', path.join(outside, 'y.txt')), /^denied: EROFS/);
  });

  it("npm's server-filesystem sandboxed to one folder still works in that folder", async () => {
    fs.writeFileSync(path.join(allowed, 'hello.txt'), 'hello');
    const h = makeHost({ fs: node(FILESYSTEM, { args: [FILESYSTEM, allowed], sandbox: { filesystem: { allowWrite: [allowed] } } }) }, 'allow-once');
    hosts.push(h);
    const c = h.pool.get('fs')!;
    await c.start();
    assert.equal(c.state.kind, 'running', JSON.stringify(c.state));
    const read = await h.pipeline.call({ server: 'fs', tool: 'read_text_file', args: { path: path.join(allowed, 'hello.txt') }, origin: 'api' });
    assert.equal(read.kind, 'ok', JSON.stringify(read));
    const written = await h.pipeline.call({ server: 'fs', tool: 'write_file', args: { path: path.join(allowed, 'new.txt'), content: 'from the sandbox' }, origin: 'api' });
    assert.equal(written.kind, 'ok', JSON.stringify(written));
    assert.equal(fs.readFileSync(path.join(allowed, 'new.txt'), 'utf8'), 'from the sandbox');
  });
});
