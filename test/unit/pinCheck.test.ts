import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerPool } from '../../src/core/connection/serverPool';
import type { DefinitionPins } from '../../src/core/policy/definitionPins';
import { storedPins } from '../../src/core/gateway/pinCheck';

const tool: Tool = { name: 'greet', inputSchema: { type: 'object' } };
const connection = { tools: [tool], state: { kind: 'running' } };
const pool = { get: () => connection } as unknown as ServerPool;
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A store whose file another process may change: `accepted` turns the change into none, as `pins accept` would. */
function store() {
  const s = { looks: 0, version: 'v1', changed: true, now: 1000 };
  const pins = { review: () => ({ changed: s.changed ? [{ tool: 'greet', parts: ['description'] }] : [] }) } as unknown as DefinitionPins;
  const version = () => {
    s.looks++;
    return s.version;
  };
  return { s, pins: storedPins(pins, pool, version, () => 'accept it', undefined, () => s.now) };
}

describe("the gateway's pins check (pinCheck.ts)", () => {
  it('calls of one moment share one look at the store, in one turn or not: a tool answering call by call does not stat the file a call', async () => {
    const { s, pins } = store();
    assert.deepEqual(pins.changeOf('srv', tool), ['description']);
    const afterFirst = s.looks;
    for (let i = 0; i < 20; i++) {
      await turn();
      s.now += 0.05;
      assert.deepEqual(pins.changeOf('srv', tool), ['description']);
    }
    assert.equal(s.looks, afterFirst);
  });

  it('an accept in another process counts from the next look, a few milliseconds on', async () => {
    const { s, pins } = store();
    assert.deepEqual(pins.changeOf('srv', tool), ['description']);
    s.version = 'v2';
    s.changed = false;
    s.now += 1;
    assert.deepEqual(pins.changeOf('srv', tool), ['description'], 'within a moment of the last look');
    s.now += 5;
    assert.equal(pins.changeOf('srv', tool), undefined);
  });
});
