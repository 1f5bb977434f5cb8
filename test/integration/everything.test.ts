import * as assert from 'node:assert/strict';
import { newResourceOffers } from '../../src/core/offers/later';
import { EVERYTHING, makeHost, node } from './helpers';

describe('@modelcontextprotocol/server-everything (real child process)', function () {
  const host = makeHost({ everything: node(EVERYTHING, { args: [EVERYTHING, 'stdio'] }) }, 'allow-once');
  before(async () => {
    await host.pool.get('everything')!.start();
  });
  after(() => host.close());

  it('starts and lists its tools', () => {
    const c = host.pool.get('everything')!;
    assert.equal(c.state.kind, 'running', JSON.stringify(c.state));
    assert.ok(c.tools.some((t) => t.name === 'echo'));
    assert.ok(c.tools.some((t) => t.name === 'get-tiny-image'));
  });

  it('calls echo and get-sum', async () => {
    const echo = await host.pipeline.call({ server: 'everything', tool: 'echo', args: { message: 'hello' }, origin: 'api' });
    assert.ok(echo.kind === 'ok' && echo.result.text.includes('hello'), JSON.stringify(echo));
    const sum = await host.pipeline.call({ server: 'everything', tool: 'get-sum', args: { a: 2, b: 3 }, origin: 'api' });
    assert.ok(sum.kind === 'ok' && sum.result.text.includes('5'), JSON.stringify(sum));
  });

  it('renders an image result', async () => {
    const img = await host.pipeline.call({ server: 'everything', tool: 'get-tiny-image', args: {}, origin: 'api' });
    assert.ok(img.kind === 'ok' && /\[image image\/png, \d+ bytes\] saved to/.test(img.result.text), JSON.stringify(img));
  });

  it('resource links are listed and can be read through resources/read', async () => {
    const outcome = await host.pipeline.call({ server: 'everything', tool: 'get-resource-links', args: { count: 2 }, origin: 'api' });
    assert.ok(outcome.kind === 'ok', JSON.stringify(outcome));
    if (outcome.kind !== 'ok') return;
    assert.equal(outcome.result.links?.length, 2);
    assert.match(outcome.result.text, /\[resource link\] .+ demo:\/\/resource\/(static|dynamic)\//);
    const offers = newResourceOffers({ pool: host.pool, pipeline: host.pipeline });
    const read = await offers.read({ server: 'everything', uri: outcome.result.links![0].uri, origin: 'api' });
    offers.dispose();
    assert.ok(read.kind === 'ok' && read.parts.length > 0, JSON.stringify(read));
  });

  it('structuredContent is shown and checked against the outputSchema', async () => {
    host.events.length = 0;
    const outcome = await host.pipeline.call({ server: 'everything', tool: 'get-structured-content', args: { location: 'Chicago' }, origin: 'api' });
    // shown once, pretty-printed (in place of its text twin when the tool sends one, as the spec asks)
    assert.ok(outcome.kind === 'ok' && /^\{\n {2}"/m.test(outcome.result.text), JSON.stringify(outcome));
    assert.ok(outcome.result.text.split('\n{\n').length <= 2 && !/^\{[^\n]/m.test(outcome.result.text), outcome.result.text);
    assert.ok(host.events.includes('structuredContent matches the outputSchema.'));
  });

  it('streams progress of a long-running operation, and cancelling it says "cancelled by user"', async () => {
    host.events.length = 0;
    const ok = await host.pipeline.call({ server: 'everything', tool: 'trigger-long-running-operation', args: { duration: 1, steps: 4 }, origin: 'api' });
    assert.equal(ok.kind, 'ok');
    assert.deepEqual(host.events.filter((e) => e.startsWith('progress')), ['progress 1/4', 'progress 2/4', 'progress 3/4', 'progress 4/4']);
    const controller = new AbortController();
    const running = host.pipeline.call({ server: 'everything', tool: 'trigger-long-running-operation', args: { duration: 10, steps: 10 }, origin: 'api', signal: controller.signal });
    setTimeout(() => controller.abort(), 1500);
    assert.equal((await running).kind, 'cancelled');
    assert.equal(host.events.at(-1), 'end cancelled by user.');
  });
});
