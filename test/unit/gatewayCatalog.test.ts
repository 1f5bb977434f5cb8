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
});
