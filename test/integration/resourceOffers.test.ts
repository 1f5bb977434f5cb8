import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { AuditRecord } from '../../src/core/calls/ports';
import { documentBytes, newResourceOffers } from '../../src/core/offers/later';
import type { ResourceOffers } from '../../src/core/offers/offerTypes';
import { RELIST_GAP_MS } from '../../src/core/offers/resourceOffers';
import { EVERYTHING, FIXTURES, makeHost, node, until } from './helpers';

const HOSTILE = path.join(FIXTURES, 'offers-hostile.cjs');

/** A host with the offers on top, and the audit records they wrote. */
function offersHost(servers: Record<string, unknown>, answer: 'allow-once' | 'deny' = 'deny', trustAnnotations = false, inputs?: Record<string, string>) {
  const audit: AuditRecord[] = [];
  const host = makeHost(servers, answer, { audit: { append: (r) => void audit.push(r) }, inputs });
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
      assert.ok(capped.kind === 'failed' && /over the 4 bytes a read may bring/.test(capped.message), JSON.stringify(capped));
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

  it('a long text is made safe, masked and counted slice by slice: its UTF-8 bytes count against the cap, not its characters, and no secret is left', async () => {
    const h = offersHost({ hostile: node(HOSTILE, { env: { SECRET: '${input:token}' } }) }, 'deny', false, { token: 'sekret-value-42' });
    try {
      await h.host.pool.get('hostile')!.start();
      const over = await h.offers.read({ server: 'hostile', uri: 'hostile://wide', origin: 'cli', maxBytes: 2 * 1024 * 1024 });
      assert.ok(over.kind === 'failed' && /over the 2 MiB a read may bring/.test(over.message), JSON.stringify(over).slice(0, 300));
      const read = await h.offers.read({ server: 'hostile', uri: 'hostile://wide', origin: 'cli' });
      assert.ok(read.kind === 'ok' && read.parts[0].kind === 'text', JSON.stringify(read).slice(0, 300));
      const part = read.parts[0];
      assert.ok(part.kind === 'text' && (part.pieces?.length ?? 0) > 1, 'kept in its slices');
      assert.equal(part.kind === 'text' && part.pieces!.join(''), part.kind === 'text' && part.text);
      assert.ok(part.kind === 'text' && !part.text.includes('sekret-value-42'));
      assert.equal(read.bytes, Buffer.byteLength(part.kind === 'text' ? part.text : '', 'utf8'));
    } finally {
      await h.close();
    }
  });

  // How long the event loop stands still while a 50 MiB resource opens is measured in the bench
  // (BENCHMARKS.md case 11), not here: this checks what keeps it short, the pieces.
  it('a 50 MiB text is read in the pieces it arrived in, each short, that join to the whole', async function () {
    this.timeout(120_000);
    const h = offersHost({ hostile: node(HOSTILE) });
    try {
      await h.host.pool.get('hostile')!.start();
      const read = await h.offers.read({ server: 'hostile', uri: 'hostile://long', origin: 'cli' });
      assert.ok(read.kind === 'ok' && read.bytes > 50 << 20, JSON.stringify(read).slice(0, 300));
      const part = read.parts[0];
      assert.ok(part.kind === 'text' && part.pieces !== undefined, 'the long text came without its pieces');
      assert.ok(part.pieces.length > 1 && part.pieces.every((p) => p.length <= 4 << 20), `pieces of ${part.pieces.map((p) => p.length).join(', ')} characters`);
      assert.equal(part.pieces.join('').length, part.text.length);
      assert.equal((await documentBytes(read.parts)).byteLength, read.bytes);
    } finally {
      await h.close();
    }
  });

  it('a secret across the end of a slice of a long line is masked too', async () => {
    const h = offersHost({ hostile: node(HOSTILE, { env: { SECRET: '${input:token}' } }) }, 'deny', false, { token: 'sekret-value-42' });
    try {
      await h.host.pool.get('hostile')!.start();
      const read = await h.offers.read({ server: 'hostile', uri: 'hostile://one-line', origin: 'cli' });
      assert.ok(read.kind === 'ok' && read.parts[0].kind === 'text', JSON.stringify(read).slice(0, 300));
      const part = read.parts[0];
      assert.ok(part.kind === 'text' && !part.text.includes('sekret-value-42'), 'the secret is masked');
      assert.ok(part.kind === 'text' && !(part.pieces ?? []).join('').includes('sekret-value-42'));
      assert.equal(read.bytes, Buffer.byteLength(part.kind === 'text' ? part.text : '', 'utf8'));
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
  it('a server with resources but no resources/templates/list (method not found) has no templates, said once, not a failure asked again', async function () {
    const mini = path.join(FIXTURES, 'miniServer.cjs');
    const script = `require(${JSON.stringify(mini)}).makeServer({ capabilities: { tools: {}, resources: {} }, methods: { 'resources/list': () => ({ resources: [{ uri: 'note://a', name: 'a' }] }) } })`;
    const h = offersHost({ plain: { command: process.execPath, args: ['-e', script] } });
    try {
      await h.host.pool.get('plain')!.start();
      assert.deepEqual((await h.offers.resources('plain')).items.map((r) => r.uri), ['note://a']);
      for (let i = 0; i < 3; i++) assert.deepEqual((await h.offers.templates('plain')).items, []);
      const said = h.host.logs.filter((l) => /templates/.test(l));
      assert.deepEqual(said, ['plain info The server has no resources/templates/list (method not found): it offers no resource templates.']);
    } finally {
      await h.close();
    }
  });

  it('a server\'s first resources and templates listings go out together: the gap paces each kind, not one after the other', async function () {
    const h = offersHost({ hostile: node(HOSTILE) });
    try {
      await h.host.pool.get('hostile')!.start();
      const asked = Date.now();
      const [resources, templates] = await Promise.all([h.offers.resources('hostile'), h.offers.templates('hostile')]);
      const took = Date.now() - asked;
      assert.ok(resources.items.length > 0, 'resources listed');
      assert.ok(Array.isArray(templates.items), 'templates listed');
      // Paced one after the other, the templates waited a whole gap for the resources (a row drawn a second late).
      assert.ok(took < RELIST_GAP_MS, `both listed in ${took} ms: the second waited for the first's gap`);
    } finally {
      await h.close();
    }
  });

  it('a list_changed storm re-lists at most once a gap, and surfaces hear of it coalesced', async function () {
    this.timeout(30_000);
    const h = offersHost({ hostile: node(HOSTILE, { env: { STORM: '500' } }) });
    try {
      await h.host.pool.get('hostile')!.start();
      await h.offers.resources('hostile');
      const changes: string[] = [];
      h.offers.onDidChange((server) => {
        changes.push(server);
        void h.offers.resources(server);
      });
      await h.host.pipeline.call({ server: 'hostile', tool: 'storm', args: {}, origin: 'api' });
      await new Promise((r) => setTimeout(r, 2500));
      const listings = h.host.logs.filter((l) => l.includes('got resources/list ""')).length;
      assert.ok(changes.length >= 1 && changes.length <= 2, `told ${changes.length} times`);
      assert.ok(listings <= 3, `${listings} listings for 500 notices`);
      assert.equal((await h.offers.resources('hostile')).items.length, 121);
    } finally {
      await h.close();
    }
  });

  it('updates that never stop reach a subscriber at most once a second; dispose unsubscribes', async function () {
    this.timeout(30_000);
    const h = offersHost({ hostile: node(HOSTILE) });
    try {
      await h.host.pool.get('hostile')!.start();
      let updates = 0;
      const sub = h.offers.subscribe('hostile', 'hostile://ticker', () => updates++);
      await until('the subscription', () => h.host.logs.some((l) => l.includes('got resources/subscribe "hostile://ticker"')));
      await h.host.pipeline.call({ server: 'hostile', tool: 'endless', args: {}, origin: 'api' });
      await new Promise((r) => setTimeout(r, 2200));
      assert.ok(updates >= 2 && updates <= 4, `${updates} updates told in 2.2 s of one every 5 ms`);
      sub.dispose();
      await until('the unsubscription', () => h.host.logs.some((l) => l.includes('got resources/unsubscribe "hostile://ticker"')));
      const told = updates;
      await new Promise((r) => setTimeout(r, 1200));
      assert.equal(updates, told);
    } finally {
      await h.close();
    }
  });

  it('a restart subscribes again', async function () {
    this.timeout(30_000);
    const h = offersHost({ hostile: node(HOSTILE) });
    try {
      const c = h.host.pool.get('hostile')!;
      await c.start();
      const sub = h.offers.subscribe('hostile', 'hostile://r/1', () => undefined);
      await until('the subscription', () => h.host.logs.filter((l) => l.includes('got resources/subscribe "hostile://r/1"')).length === 1);
      await c.restart();
      await until('the subscription again', () => h.host.logs.filter((l) => l.includes('got resources/subscribe "hostile://r/1"')).length === 2);
      sub.dispose();
    } finally {
      await h.close();
    }
  });

  it('2026-07-28: resource list changes and subscriptions ride subscriptions/listen', async function () {
    this.timeout(30_000);
    const h = offersHost({ hostile: node(HOSTILE, { env: { MODERN: '1' } }) });
    try {
      await h.host.pool.get('hostile')!.start();
      assert.equal((await h.offers.resources('hostile')).items.length, 121);
      await until('the listen stream', () => h.host.logs.some((l) => l.includes('got subscriptions/listen {"resourcesListChanged":true}')));
      let updates = 0;
      const sub = h.offers.subscribe('hostile', 'hostile://ticker', () => updates++);
      await until('the stream again, with the URI', () => h.host.logs.some((l) => l.includes('got subscriptions/listen {"resourcesListChanged":true,"resourceSubscriptions":["hostile://ticker"]}')));
      assert.ok(!h.host.logs.some((l) => l.includes('got resources/subscribe')), 'no 2025 subscribe in this era');
      await h.host.pipeline.call({ server: 'hostile', tool: 'endless', args: {}, origin: 'api' });
      await until('an update', () => updates > 0);
      sub.dispose();
    } finally {
      await h.close();
    }
  });
});

