import * as assert from 'node:assert/strict';
import { DEMO_SERVER, makeHost, node } from './helpers';
import { problemText } from '../../src/core/tools/schemaProblems';
import { appReferenceOf } from '../../src/core/apps/appReference';
import { readAppDocument } from '../../src/core/apps/appRead';
import { newResourceOffers } from '../../src/core/offers/later';
import { appServerPlace } from '../../src/core/apps/appResource';
import type { AuditRecord } from '../../src/core/calls/ports';

describe('the demo server through the CallPipeline (real child process)', function () {
  const audited: AuditRecord[] = [];
  const host = makeHost({ demo: node(DEMO_SERVER) }, 'deny', { audit: { append: (r) => audited.push(r) } });
  before(async () => {
    await host.pool.get('demo')!.start();
  });
  after(() => host.close());

  it('lists every demo tool with the badges it declares', () => {
    const demo = host.pool.get('demo')!;
    assert.equal(demo.state.kind, 'running');
    assert.deepEqual(demo.tools.map((t) => t.name).sort(), ['add_note', 'bar_chart', 'delete_note', 'echo', 'fetch_url', 'list_notes', 'read_note', 'slow_count', 'text_stats']);
  });

  it('bar_chart declares an interface: a ui:// resource of self-contained HTML with no network in its policy, read through the pipeline (audited)', async () => {
    const tool = host.pool.get('demo')!.tools.find((t) => t.name === 'bar_chart')!;
    const ref = appReferenceOf(tool);
    assert.deepEqual(ref, { kind: 'app', uri: 'ui://demo/bar-chart.html' });
    const doc = await readAppDocument(newResourceOffers({ pool: host.pool, pipeline: host.pipeline, audit: { append: (r) => audited.push(r) } }), 'demo', 'ui://demo/bar-chart.html', appServerPlace(host.pool.get('demo')!.definition.spec));
    assert.deepEqual(audited.map((r) => [r.origin, r.server, r.tool, r.decision, r.outcome]), [['app', 'demo', 'resources/read', "the tool's interface, opened with its call", 'ok']]);
    assert.ok('html' in doc, 'html' in doc ? '' : doc.message);
    assert.match(doc.html, /ui\/initialize/);
    assert.doesNotMatch(doc.html, /https?:\/\/|src=/, 'nothing loaded from elsewhere');
    assert.match(doc.policy, /connect-src 'none'/);
  });

  it('calls a read-only tool without asking', async () => {
    const outcome = await host.pipeline.call({ server: 'demo', tool: 'read_note', args: { name: 'shopping' }, origin: 'api' });
    assert.equal(outcome.kind, 'ok');
    if (outcome.kind === 'ok') assert.equal(outcome.result.text, 'milk, bread, coffee');
    assert.equal(host.approvals.length, 0);
  });

  it('asks before a destructive call, and sends nothing when denied', async () => {
    const outcome = await host.pipeline.call({ server: 'demo', tool: 'delete_note', args: { name: 'shopping' }, origin: 'api' });
    assert.equal(outcome.kind, 'denied');
    assert.equal(host.approvals.at(-1)?.tool.name, 'delete_note');
    assert.deepEqual(host.approvals.at(-1)?.reasons, ['may change or delete data (destructive)']);
    const list = await host.pipeline.call({ server: 'demo', tool: 'list_notes', args: {}, origin: 'api' });
    assert.ok(list.kind === 'ok' && list.result.text.includes('shopping'), 'the note must still exist');
  });

  it('asks for a tool with no annotations (spec defaults: destructive, open-world)', async () => {
    const before = host.approvals.length;
    await host.pipeline.call({ server: 'demo', tool: 'echo', args: { message: 'hi' }, origin: 'api' });
    assert.deepEqual(host.approvals[before].reasons, ['may change or delete data (destructive)', 'may reach the outside world (open-world)']);
  });

  it('rejects arguments that break the schema before sending, naming the field', async () => {
    const outcome = await host.pipeline.call({ server: 'demo', tool: 'slow_count', args: { steps: 1000 }, origin: 'api' });
    assert.equal(outcome.kind, 'invalid-arguments');
    if (outcome.kind === 'invalid-arguments') assert.match(problemText(outcome.problems[0]), /^\/steps: must be at most 100/);
  });

  it('delivers every progress notification before the result', async () => {
    host.events.length = 0;
    const outcome = await host.pipeline.call({ server: 'demo', tool: 'slow_count', args: { steps: 4, delayMs: 0 }, origin: 'api' });
    assert.equal(outcome.kind, 'ok');
    assert.deepEqual(host.events.filter((e) => e.startsWith('progress') || e.startsWith('end')), ['progress 1/4', 'progress 2/4', 'progress 3/4', 'progress 4/4', 'end result (' + host.events.at(-1)!.split('(')[1]]);
  });

  it('saves an image and shows where', async () => {
    const outcome = await host.pipeline.call({ server: 'demo', tool: 'bar_chart', args: { values: [1, 3, 2] }, origin: 'api' });
    assert.equal(outcome.kind, 'ok');
    if (outcome.kind === 'ok') assert.match(outcome.result.text, /\[image image\/png, \d+ bytes\] saved to \/saved\/image-1\.png/);
  });

  it('pretty-prints structuredContent once, in place of the text block that repeats it', async () => {
    const outcome = await host.pipeline.call({ server: 'demo', tool: 'text_stats', args: { text: 'a bb\nccc' }, origin: 'api' });
    assert.equal(outcome.kind, 'ok');
    if (outcome.kind === 'ok') assert.equal(outcome.result.text, '{\n  "characters": 8,\n  "words": 3,\n  "lines": 2,\n  "longestWord": "ccc"\n}');
  });

  it('reports isError results as tool errors', async () => {
    const outcome = await host.pipeline.call({ server: 'demo', tool: 'read_note', args: { name: 'missing' }, origin: 'api' });
    assert.equal(outcome.kind, 'tool-error');
  });

  it('cancels a running call and says so', async () => {
    const controller = new AbortController();
    const running = host.pipeline.call({ server: 'demo', tool: 'slow_count', args: { steps: 20, delayMs: 200 }, origin: 'api', signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    assert.equal((await running).kind, 'cancelled');
  });
});
