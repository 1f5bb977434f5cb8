import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { FIXTURES, makeHost, node } from './helpers';

// Issue 13: no schema a server sends can block the host. A backtracking engine spends seconds on
// each of these checks (minutes with a few more a's); the linear engine answers at once.
describe('pathological schema patterns through the pipeline', function () {
  const host = makeHost({ p: node(path.join(FIXTURES, 'pathological-schemas.cjs')) }, 'allow-once');
  before(() => host.pool.get('p')!.start());
  after(() => host.close());

  it('an outputSchema pattern that backtracks checks structuredContent in milliseconds, and flags it', async () => {
    const start = Date.now();
    const outcome = await host.pipeline.call({ server: 'p', tool: 'evil_output', args: {}, origin: 'api' });
    const ms = Date.now() - start;
    assert.ok(outcome.kind === 'ok' && outcome.outputWarning === 'structuredContent does not match the outputSchema: /id: must match the pattern ^(a+)+$', JSON.stringify(outcome));
    assert.ok(ms < 500, `took ${ms} ms`);
  });

  it('an inputSchema pattern that backtracks rejects the arguments in milliseconds', async () => {
    const start = Date.now();
    const outcome = await host.pipeline.call({ server: 'p', tool: 'evil_input', args: { id: 'a'.repeat(28) + '!' }, origin: 'api' });
    const ms = Date.now() - start;
    assert.equal(outcome.kind, 'invalid-arguments', JSON.stringify(outcome));
    assert.ok(ms < 500, `took ${ms} ms`);
  });

  it('a pattern the linear engine cannot run leaves the result shown, unchecked, with a warning naming it', async () => {
    host.events.length = 0;
    const outcome = await host.pipeline.call({ server: 'p', tool: 'lookahead_output', args: {}, origin: 'api' });
    assert.equal(outcome.kind, 'ok', JSON.stringify(outcome));
    assert.ok(host.events.some((e) => e.startsWith('warning: the tool\'s outputSchema does not compile (pattern "^(?=a)a+$" is not supported')), host.events.join('\n'));
  });
});
