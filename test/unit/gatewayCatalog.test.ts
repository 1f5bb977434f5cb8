import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { Emitter } from '../../src/core/events';
import { GatewayCatalog } from '../../src/core/gateway/gatewayCatalog';
import type { GatewayDeps } from '../../src/core/gateway/gatewayTypes';

const tool = (name: string): Tool => ({ name, description: `does ${name}`, inputSchema: { type: 'object' } });

/** One running server whose tool list the test replaces, as a re-listing does. */
function onePool() {
  const changed = new Emitter<undefined>();
  const connection = { name: 'notes', state: { kind: 'running' }, tools: [tool('read'), tool('write')], start: async () => undefined, listed: async () => undefined };
  const pool = { connections: [connection], onDidChange: changed.event };
  return { connection, relist: (tools: Tool[]) => ((connection.tools = tools), changed.fire(undefined)), deps: { pool } as unknown as GatewayDeps };
}

describe('the gateway catalogue (GatewayCatalog)', () => {
  it('offers the objects the server listed last, even when a new listing equals the old', async () => {
    const { connection, relist, deps } = onePool();
    const catalog = new GatewayCatalog(deps);
    let told = 0;
    catalog.onDidChange(() => told++);
    await catalog.ready();
    relist([tool('read'), tool('write')]);
    const found = catalog.lookup('notes_read');
    assert.equal(found.kind, 'tool');
    // The pins' check knows a tool by the object the server holds: a stale one made it review at every call.
    assert.equal(found.kind === 'tool' && found.offered.tool, connection.tools[0]);
    assert.equal(catalog.tools[0].tool, connection.tools[0]);
    assert.equal(told, 0, 'clients are not told of a change that changed nothing');
    catalog.dispose();
  });

  it('tells clients when a listing differs', async () => {
    const { relist, deps } = onePool();
    const catalog = new GatewayCatalog(deps);
    let told = 0;
    catalog.onDidChange(() => told++);
    await catalog.ready();
    relist([tool('read')]);
    assert.equal(told, 1);
    assert.equal(catalog.lookup('notes_write').kind, 'unknown');
    catalog.dispose();
  });

  it('a tool of a server that is not running now is said to be that, not unknown: how it stands, and when it runs again', async () => {
    const { connection, relist, deps } = onePool();
    const catalog = new GatewayCatalog(deps);
    await catalog.ready();
    (connection as { state: unknown }).state = { kind: 'error', message: 'The server exited with code 7.', restartInMs: 1500 };
    relist(connection.tools);
    assert.deepEqual(catalog.lookup('notes_read'), { kind: 'not-running', server: 'notes', why: 'it stopped (The server exited with code 7.) and starts again in 2 s: call again then' });
    (connection as { state: unknown }).state = { kind: 'starting' };
    assert.deepEqual(catalog.lookup('notes_read'), { kind: 'not-running', server: 'notes', why: 'it is starting: call again in a moment' });
    assert.equal(catalog.lookup('other_read').kind, 'unknown', 'a name of no server is still unknown');
    catalog.dispose();
  });
});
