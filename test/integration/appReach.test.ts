import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { readAppDocument } from '../../src/core/apps/appRead';
import { newResourceOffers } from '../../src/core/offers/later';
import { appServerPlace } from '../../src/core/apps/appResource';
import { FIXTURES, makeHost, node } from './helpers';

// What a tool interface's CSP may name (issue 31), read from real servers through the pipeline:
// the same hostile interface (test/fixtures/servers/app-hostile.cjs) served by a remote server
// (Streamable HTTP) and by a local one (stdio), each declaring loopback, link-local and
// public-suffix origins beside public ones and, for the remote one, its own origin.
const FIXTURE = path.join(FIXTURES, 'app-hostile.cjs');
const APP = 'ui://hostile/app.html';
const declared = (self: string[]) => JSON.stringify({ connectDomains: ['http://127.0.0.1:2375', 'ws://localhost:9222', 'http://169.254.169.254', 'https://*.com', 'https://api.example.com', ...self], resourceDomains: ['http://2130706433', 'https://cdn.example.net'], frameDomains: ['http://192.168.1.1'], baseUriDomains: ['https://*.co.uk'] });

describe('what a tool interface may reach, from real servers (MCP Apps CSP)', function () {
  this.timeout(30_000);
  let remote: ChildProcess;
  let port = '';
  let host: ReturnType<typeof makeHost>;

  before(async () => {
    remote = spawn(process.execPath, [FIXTURE], { env: { ...process.env, HTTP_PORT: '0', APP_CSP: declared(['{self}']) }, stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: remote.stdout! }).once('line', resolve);
      remote.once('exit', (code) => reject(new Error(`the remote fixture exited with ${code}`)));
    });
    port = /listening (\d+)/.exec(line)![1];
    host = makeHost({ remote: { type: 'http', url: `http://127.0.0.1:${port}/mcp` }, local: { ...node(FIXTURE), env: { APP_CSP: declared([]) } } });
    await Promise.all([host.pool.get('remote')!.start(), host.pool.get('local')!.start()]);
  });
  after(async () => {
    await host?.close();
    remote?.kill();
  });

  const read = async (server: string) => {
    const doc = await readAppDocument(newResourceOffers({ pool: host.pool, pipeline: host.pipeline }), server, APP, appServerPlace(host.pool.get(server)!.definition.spec));
    assert.ok('html' in doc, 'html' in doc ? '' : doc.message);
    return doc;
  };

  it("a remote server's interface runs without loopback, private, link-local and public-suffix origins, each named; its own origin and public ones stay", async () => {
    const doc = await read('remote');
    assert.deepEqual(doc.refused.map((r) => r.origin), ['http://127.0.0.1:2375', 'ws://localhost:9222', 'http://169.254.169.254', 'https://*.com', 'http://2130706433', 'http://192.168.1.1', 'https://*.co.uk']);
    assert.match(doc.policy, new RegExp(`connect-src https://api\\.example\\.com http://127\\.0\\.0\\.1:${port};`));
    assert.match(doc.policy, /script-src 'unsafe-inline' https:\/\/cdn\.example\.net;/);
    assert.match(doc.policy, /frame-src 'none'/);
    assert.match(doc.policy, /base-uri 'self'/);
    assert.doesNotMatch(doc.policy, /2375|9222|169\.254|\*|192\.168|2130706433/);
  });

  it("a local server's interface keeps its machine's loopback and network (the server reaches them itself); public-suffix wildcards go all the same", async () => {
    const doc = await read('local');
    assert.deepEqual(doc.refused.map((r) => r.origin), ['https://*.com', 'https://*.co.uk']);
    assert.match(doc.policy, /connect-src http:\/\/127\.0\.0\.1:2375 ws:\/\/localhost:9222 http:\/\/169\.254\.169\.254 https:\/\/api\.example\.com;/);
    assert.match(doc.policy, /script-src 'unsafe-inline' http:\/\/127\.0\.0\.1 https:\/\/cdn\.example\.net;/);
  });
});
