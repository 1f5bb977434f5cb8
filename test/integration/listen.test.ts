import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { FIXTURES, makeHost, node, until } from './helpers';

const FIXTURE = path.join(FIXTURES, 'modern-listen.cjs');

/** 2026-07-28: tool list changes reach a client that listens (subscriptions/listen), and only one that asks. */
describe('tool list changes in the 2026-07-28 era (subscriptions/listen, ttlMs)', function () {
  this.timeout(30_000);

  it('listens for tool list changes for the session, and a change lists the tools again', async () => {
    const host = makeHost({ m: node(FIXTURE) }, 'allow-once');
    try {
      const connection = host.pool.get('m')!;
      await connection.start();
      assert.equal(connection.state.kind === 'running' && connection.state.protocolVersion, '2026-07-28');
      await until('the subscription', () => host.logs.some((l) => l.includes('got subscriptions/listen {"toolsListChanged":true}')));
      assert.deepEqual(connection.tools.map((t) => t.name), ['grow']);
      const outcome = await host.pipeline.call({ server: 'm', tool: 'grow', args: {}, origin: 'api' });
      assert.equal(outcome.kind, 'ok');
      await until('the new tool', () => connection.tools.some((t) => t.name === 'grown_1'));
      // Stopping ends the subscription quietly: no warning about it.
      await connection.stop();
      assert.ok(!host.logs.some((l) => /Listening for tool list changes failed/.test(l)), host.logs.join('\n'));
    } finally {
      await host.close();
    }
  });

  it('a server that refuses to be listened to: a warning that says Refresh lists the tools, and the server runs on', async () => {
    const host = makeHost({ m: node(FIXTURE, { env: { LISTEN: 'refuse' } }) }, 'allow-once');
    try {
      const connection = host.pool.get('m')!;
      await connection.start();
      await until('the warning', () => host.logs.some((l) => /m warn Listening for tool list changes failed \(subscriptions\/listen: .*Method not found.*\): Refresh lists the tools again\./.test(l)));
      assert.equal(connection.state.kind, 'running');
      assert.equal((await host.pipeline.call({ server: 'm', tool: 'grow', args: {}, origin: 'api' })).kind, 'ok');
    } finally {
      await host.close();
    }
  });

  it('a 2025-era server is not asked to listen: its list changes come unasked', async () => {
    const host = makeHost({ m: node(FIXTURE, { env: { LEGACY: '1' } }) }, 'allow-once');
    try {
      const connection = host.pool.get('m')!;
      await connection.start();
      assert.notEqual(connection.state.kind === 'running' && connection.state.protocolVersion, '2026-07-28');
      await host.pipeline.call({ server: 'm', tool: 'grow', args: {}, origin: 'api' });
      assert.ok(!host.logs.some((l) => l.includes('got subscriptions/listen')), host.logs.join('\n'));
    } finally {
      await host.close();
    }
  });

  it('a listing that says how long it stays fresh (ttlMs) is fetched again when it goes stale, not sooner than 2 s', async () => {
    const host = makeHost({ m: node(FIXTURE, { env: { NO_LISTEN: '1', TTL_MS: '10' } }) }, 'allow-once');
    try {
      const connection = host.pool.get('m')!;
      const listings = () => host.logs.filter((l) => l.includes('got tools/list')).length;
      await connection.start();
      // The server says what it got on stderr, which may arrive after the answer that ended start().
      await until('the first listing in the server\'s log', () => listings() === 1, 5_000);
      await new Promise((r) => setTimeout(r, 1_000));
      assert.equal(listings(), 1, 'a 10 ms ttl is not polled flat out');
      await until('the listing to be fetched again', () => listings() === 2, 5_000);
      assert.ok(!host.logs.some((l) => l.includes('got subscriptions/listen')), 'no listen without tools.listChanged');
    } finally {
      await host.close();
    }
  });

  it('a client that listens does not fetch stale listings: changes come pushed', async () => {
    const host = makeHost({ m: node(FIXTURE, { env: { TTL_MS: '10' } }) }, 'allow-once');
    try {
      await host.pool.get('m')!.start();
      await new Promise((r) => setTimeout(r, 3_000));
      assert.equal(host.logs.filter((l) => l.includes('got tools/list')).length, 1, host.logs.join('\n'));
    } finally {
      await host.close();
    }
  });
});
