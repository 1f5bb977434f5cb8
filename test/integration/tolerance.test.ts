import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { FIXTURES, makeHost, node, until } from './helpers';

const fixture = (file: string, env?: Record<string, string>) => node(path.join(FIXTURES, file), env ? { env } : {});
const callOptions = { timeoutMs: 10_000, maxTotalTimeoutMs: 10_000 };

/** Issue 13: a server's mistake or excess costs that listing or that item, never the host or the whole answer. */
describe('tolerance: unbounded listings and malformed items (real child processes)', function () {
  this.timeout(30_000);
  const hosts: ReturnType<typeof makeHost>[] = [];
  const host = (name: string, def: Record<string, unknown>) => {
    const h = makeHost({ [name]: def });
    hosts.push(h);
    return { ...h, connection: h.pool.get(name)! };
  };
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
  });

  it('endless 16 MiB pages: the listing stops past mcpToolHost.maxToolListSize (64 MiB), memory stays bounded, the session answers', async () => {
    const h = host('heavy', fixture('endless-pages.cjs', { TOOLS_PER_PAGE: '4', DESCRIPTION_KIB: '4000' }));
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    try {
      await h.connection.start();
    } finally {
      clearInterval(sampler);
    }
    const grewMiB = (peak - before) / (1024 * 1024);
    assert.equal(h.connection.state.kind, 'running', JSON.stringify(h.connection.state));
    assert.deepEqual(h.connection.tools, [], 'a partial list is not kept');
    const failed = 'heavy error Listing tools failed: tools/list: the tool list passed 64 MiB after 5 pages and was dropped (raise the setting mcpToolHost.maxToolListSize to accept more)';
    assert.ok(h.logs.includes(failed), h.logs.filter((l) => !l.includes('stderr')).join('\n'));
    await until('5 tools/list requests on stderr', () => h.logs.filter((l) => l.startsWith('heavy stderr tools/list request')).length >= 5, 3000);
    assert.equal(h.logs.filter((l) => l.startsWith('heavy stderr tools/list request')).length, 5, 'no page after the limit');
    // Without the bound the host held 64 pages (1 GiB of descriptions) before the page cap stopped it;
    // now it reads 5 (80 MiB) and grows ~230 MiB here, the transient copies of each page included.
    assert.ok(grewMiB < 400, `the host grew by ${grewMiB.toFixed(0)} MiB while listing`);
    const answer = await h.connection.callTool('tool_0_0', {}, callOptions);
    assert.deepEqual('content' in answer ? answer.content : answer, [{ type: 'text', text: 'called tool_0_0' }]);
  });

  it('endless pages of 1,000 tools: the listing stops past mcpToolHost.maxToolsPerServer (20,000) with the setting named', async () => {
    const h = host('many', fixture('endless-pages.cjs', { TOOLS_PER_PAGE: '1000' }));
    await h.connection.start();
    assert.equal(h.connection.state.kind, 'running');
    assert.deepEqual(h.connection.tools, []);
    const failed = 'many error Listing tools failed: tools/list: more than 20000 tools after 21 pages; the list was dropped (raise the setting mcpToolHost.maxToolsPerServer to accept more)';
    assert.ok(h.logs.includes(failed), h.logs.filter((l) => !l.includes('stderr')).join('\n'));
    assert.equal(h.connection.facts.listingError, failed.replace('many error ', ''));
  });

  // The same mistakes in both protocol eras: a 2026-07-28 server's answers pass the SDK's strict
  // codec too (sdkClient.ts keeps the raw answer for our own checks).
  for (const era of ['2025-11-25', '2026-07-28'] as const) {
    const env = era === '2026-07-28' ? { MODERN: '1' } : undefined;
    const connected = (logs: string[], name: string) => assert.ok(logs.some((l) => l.startsWith(`${name} info Connected:`) && l.endsWith(`protocol ${era}`)), logs.join('\n'));

    it(`${era}: tools without a usable inputSchema or name are left out with a warning naming each; the good ones list and answer`, async () => {
      const h = host('odd', fixture('odd-shapes.cjs', env));
      await h.connection.start();
      connected(h.logs, 'odd');
      assert.deepEqual(h.connection.tools.map((t) => t.name), ['echo', 'count'], h.logs.join('\n'));
      const warnings = h.logs.filter((l) => l.startsWith('odd warn '));
      for (const expected of [
        'odd warn Tool "no_schema" was left out: it has no inputSchema.',
        'odd warn Tool "null_schema" was left out: it has no inputSchema.',
        'odd warn Tool "string_schema" was left out: its inputSchema is not an object schema (type "object").',
        'odd warn Tool 5 of page 1 was left out: it has no name.',
        'odd warn Tool "forged [approved] ok" was left out: its inputSchema is not an object schema (type "object").',
      ]) {
        assert.ok(warnings.includes(expected), `${expected}\nnot in\n${warnings.join('\n')}`);
      }
      assert.ok(h.logs.includes('odd info 2 tools listed.'), h.logs.join('\n'));
      const echo = await h.pipeline.call({ server: 'odd', tool: 'echo', args: { text: 'hi' }, origin: 'api' });
      assert.ok(echo.kind === 'ok' && echo.result.text === 'hi', JSON.stringify(echo));
    });

    it(`${era}: a content block of an unknown type is shown as unknown; the blocks around it as usual`, async () => {
      const h = host('mixed', fixture('unknown-block.cjs', env));
      await h.connection.start();
      connected(h.logs, 'mixed');
      const outcome = await h.pipeline.call({ server: 'mixed', tool: 'mixed', args: {}, origin: 'api' });
      assert.equal(outcome.kind, 'ok', JSON.stringify(outcome).slice(0, 500));
      if (outcome.kind === 'ok') assert.equal(outcome.result.text, 'before\n[unknown content block "hologram"]\n[unknown content block]\nafter');
    });

    it(`${era}: an answer whose result is not an object fails that listing at once, saying so (it waited 60 s for a timeout)`, async () => {
      const h = host('odd', fixture('list-replay.cjs', env));
      await h.connection.start();
      connected(h.logs, 'odd');
      for (const [answer, what] of [['null', 'null'], ['"tools"', 'a string'], ['7', 'a number']]) {
        await h.connection.callTool('set_list', { list: answer }, callOptions);
        await h.connection.refreshTools();
        assert.equal(h.connection.facts.listingError, `Listing tools failed: The server answered with ${what} where a result object belongs`);
      }
      assert.equal(h.connection.state.kind, 'running');
    });
  }
});
