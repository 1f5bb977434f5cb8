import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { AuditRecord } from '../../src/core/calls/ports';
import { newResourceOffers } from '../../src/core/offers/later';
import type { ResourceOffers } from '../../src/core/offers/offerTypes';
import { EVERYTHING, FIXTURES, makeHost, node, until } from './helpers';

const HOSTILE = path.join(FIXTURES, 'offers-hostile.cjs');

/** A host with the offers on top, and the audit records they wrote. */
function offersHost(servers: Record<string, unknown>, answer: 'allow-once' | 'deny' = 'deny', trustAnnotations = false) {
  const audit: AuditRecord[] = [];
  const host = makeHost(servers, answer, { audit: { append: (r) => void audit.push(r) } });
  const offers: ResourceOffers = newResourceOffers({ pool: host.pool, pipeline: host.pipeline, audit: { append: (r) => void audit.push(r) } });
  void trustAnnotations;
  return { host, offers, audit, async close() { offers.dispose(); await host.close(); } };
}

describe('resources of a real server-everything (resources/list, templates, read, subscribe)', function () {
  const h = offersHost({ everything: node(EVERYTHING, { args: [EVERYTHING, 'stdio'] }) });
  before(() => h.host.pool.get('everything')!.start());
  after(() => h.close());

  it('lists its resources and templates, each checked, and reads one as text, audited with its origin', async () => {
    const list = await h.offers.resources('everything');
    assert.equal(list.cut, undefined);
    assert.ok(list.items.length > 0 && list.items.every((r) => r.server === 'everything' && r.uri.startsWith('demo://')), JSON.stringify(list.items.slice(0, 3)));
    const templates = await h.offers.templates('everything');
    const text = templates.items.find((t) => t.uriTemplate === 'demo://resource/dynamic/text/{resourceId}');
    assert.ok(text, JSON.stringify(templates.items));
    assert.deepEqual(text.variables, ['resourceId']);
    const expanded = h.offers.expand(text, { resourceId: '7' });
    assert.deepEqual(expanded, { uri: 'demo://resource/dynamic/text/7' });
    const read = await h.offers.read({ server: 'everything', uri: 'demo://resource/dynamic/text/7', origin: 'cli' });
    assert.ok(read.kind === 'ok' && read.parts[0].kind === 'text' && read.parts[0].text.startsWith('Resource 7:'), JSON.stringify(read));
    assert.deepEqual(h.audit.map((r) => [r.origin, r.tool, r.decision, r.outcome]), [['cli', 'resources/read', 'opened by the user (cli)', 'ok']]);
  });

  it('decodes a blob resource to its bytes', async () => {
    const read = await h.offers.read({ server: 'everything', uri: 'demo://resource/dynamic/blob/3', origin: 'api' });
    assert.ok(read.kind === 'ok' && read.parts[0].kind === 'binary' && read.parts[0].bytes.byteLength > 0, JSON.stringify(read));
  });

  it('subscribes (resources/subscribe) and hears of updates; dispose unsubscribes', async () => {
    let updates = 0;
    const sub = h.offers.subscribe('everything', 'demo://resource/dynamic/text/1', () => updates++);
    const toggled = await h.host.pipeline.call({ server: 'everything', tool: 'toggle-subscriber-updates', args: {}, origin: 'api' });
    assert.notEqual(toggled.kind, 'failed', JSON.stringify(toggled));
    await until('an update', () => updates > 0, 15_000);
    sub.dispose();
  });
});

describe('resources of a hostile server', function () {
  it('lists every page, leaving out each bad entry with a log line', async () => {
    const h = offersHost({ hostile: node(HOSTILE) });
    try {
      await h.host.pool.get('hostile')!.start();
      const list = await h.offers.resources('hostile');
      assert.equal(list.items.length, 121, JSON.stringify(list.cut));
      assert.equal(list.cut, undefined);
      assert.equal(list.items.filter((r) => r.uri.startsWith('hostile://r/')).length, 120);
      assert.equal(h.host.logs.filter((l) => /resources\/list: entry \d+ of page 1 was left out/.test(l)).length, 4, h.host.logs.join('\n'));
      const templates = await h.offers.templates('hostile');
      assert.deepEqual(templates.items.map((t) => t.uriTemplate), ['hostile://files/{name}', 'hostile://tree/{+path}{?q}']);
    } finally {
      await h.close();
    }
  });

  it('a pagination that never ends stops at the page limit and says so', async () => {
    const h = offersHost({ hostile: node(HOSTILE, { env: { ENDLESS_PAGES: '1' } }) });
    try {
      await h.host.pool.get('hostile')!.start();
      const list = await h.offers.resources('hostile');
      assert.match(list.cut ?? '', /stopped after 64 pages/);
    } finally {
      await h.close();
    }
  });

  it('a 2 GiB resource fails with a clear error, and the session goes on', async function () {
    this.timeout(120_000);
    const h = offersHost({ hostile: node(HOSTILE) });
    try {
      await h.host.pool.get('hostile')!.start();
      const started = process.memoryUsage().rss;
      const read = await h.offers.read({ server: 'hostile', uri: 'hostile://huge', origin: 'cli' });
      assert.ok(read.kind === 'failed' && /exceeded the 64\.0 MiB limit/.test(read.message), JSON.stringify(read));
      assert.ok(process.memoryUsage().rss - started < 512 * 1024 * 1024, 'never buffered whole');
      const next = await h.offers.read({ server: 'hostile', uri: 'hostile://r/1', origin: 'cli' });
      assert.ok(next.kind === 'ok', JSON.stringify(next));
    } finally {
      await h.close();
    }
  });

  it('a read over maxBytes is refused with the sizes in words; text that is bytes comes back as bytes; odd item uris are data', async () => {
    const h = offersHost({ hostile: node(HOSTILE) });
    try {
      await h.host.pool.get('hostile')!.start();
      const capped = await h.offers.read({ server: 'hostile', uri: 'hostile://r/1', origin: 'cli', maxBytes: 4 });
      assert.ok(capped.kind === 'failed' && /over the 0 MiB a read may bring/.test(capped.message), JSON.stringify(capped));
      const binary = await h.offers.read({ server: 'hostile', uri: 'hostile://binary', origin: 'cli' });
      assert.ok(binary.kind === 'ok' && binary.parts[0].kind === 'binary', JSON.stringify(binary));
      const blob = await h.offers.read({ server: 'hostile', uri: 'hostile://blob', origin: 'cli' });
      assert.ok(blob.kind === 'ok' && blob.parts[0].kind === 'binary' && Buffer.from(blob.parts[0].bytes).includes('PNG'));
      const bad = await h.offers.read({ server: 'hostile', uri: 'hostile://not-base64', origin: 'cli' });
      assert.ok(bad.kind === 'failed', JSON.stringify(bad));
      const odd = await h.offers.read({ server: 'hostile', uri: 'hostile://odd', origin: 'cli' });
      assert.ok(odd.kind === 'ok');
      assert.deepEqual(odd.parts.map((p) => p.uri), ['file:///etc/passwd', 'javascript:alert(1)', 'other-server://x', 'hostile://r/../../secret']);
      assert.ok(odd.parts.every((p) => p.kind === 'text'));
    } finally {
      await h.close();
    }
  });

  it('a read the model asks for goes through the approval of a call (open-world): denied, nothing is read and the audit says so', async () => {
    const h = offersHost({ hostile: node(HOSTILE, { trustAnnotations: false }) });
    try {
      await h.host.pool.get('hostile')!.start();
      const read = await h.offers.read({ server: 'hostile', uri: 'hostile://r/1', origin: 'lm-tool', byModel: true });
      assert.equal(read.kind, 'denied', JSON.stringify(read));
      assert.equal(h.host.approvals.length, 1);
      const asked = h.host.approvals[0];
      assert.equal(asked.tool.name, 'resources/read');
      assert.deepEqual(asked.args, { uri: 'hostile://r/1' });
      assert.deepEqual(asked.reasons, ['may reach the outside world (open-world)']);
      assert.ok(!h.host.logs.some((l) => l.includes('got resources/read')), 'nothing was read');
      assert.deepEqual(h.audit.map((r) => [r.origin, r.tool, r.outcome]), [['lm-tool', 'resources/read', 'denied']]);
    } finally {
      await h.close();
    }
  });

  it('a read the model asks for, of a server whose annotations are trusted, runs without asking', async () => {
    const h = offersHost({ hostile: node(HOSTILE, { trustAnnotations: true }) });
    try {
      await h.host.pool.get('hostile')!.start();
      const read = await h.offers.read({ server: 'hostile', uri: 'hostile://r/1', origin: 'lm-tool', byModel: true });
      assert.equal(read.kind, 'ok', JSON.stringify(read));
      assert.equal(h.host.approvals.length, 0);
      assert.match(h.audit[0].decision, /^not needed/);
    } finally {
      await h.close();
    }
  });
});
