import * as assert from 'node:assert/strict';
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
});
