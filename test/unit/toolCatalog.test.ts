import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { ToolCatalog, type ToolCache, type ToolLister } from '../../src/core/connection/toolCatalog';
import type { ServerLog } from '../../src/core/serverLog';

const tool = (name: string): Tool => ({ name, inputSchema: { type: 'object' } });

function recordingLog(): ServerLog & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(`info: ${m}`), warn: (m) => lines.push(`warn: ${m}`), error: (m) => lines.push(`error: ${m}`), stderr: (m) => lines.push(`stderr: ${m}`) };
}

function memoryCache(initial?: readonly Tool[]): ToolCache & { saved: (readonly Tool[])[] } {
  const saved: (readonly Tool[])[] = [];
  return { saved, load: () => initial, save: (tools) => saved.push(tools) };
}

function lister(answer: () => Promise<Tool[]>, offersTools = true): ToolLister & { calls: number } {
  const l = { calls: 0, offersTools, listTools: () => (l.calls++, answer()) };
  return l;
}

describe('ToolCatalog', () => {
  it('shows the cached list at once, then the live list, which it saves and announces once', async () => {
    const cache = memoryCache([tool('old')]);
    const catalog = new ToolCatalog(recordingLog(), cache);
    assert.deepEqual(catalog.tools.map((t) => t.name), ['old']);
    assert.equal(catalog.fromCache, true);
    const fired: string[][] = [];
    catalog.onDidChange((tools) => fired.push(tools.map((t) => t.name)));
    await catalog.list(lister(async () => [tool('a'), tool('b')]), () => true);
    assert.deepEqual(catalog.tools.map((t) => t.name), ['a', 'b']);
    assert.equal(catalog.fromCache, false);
    assert.deepEqual(fired, [['a', 'b']]);
    assert.deepEqual(cache.saved.map((l) => l.length), [2]);
    assert.equal(catalog.find('b')?.name, 'b');
  });

  it('finds a tool by name in the list as it is now: the cached list, then each new listing', async () => {
    const catalog = new ToolCatalog(recordingLog(), memoryCache([tool('old')]));
    assert.equal(catalog.find('old')?.name, 'old');
    const first = { ...tool('x'), description: 'first' };
    await catalog.list(lister(async () => [first, ...Array.from({ length: 10_000 }, (_, i) => tool(`t${i}`))]), () => true);
    assert.equal(catalog.find('old'), undefined);
    assert.equal(catalog.find('x'), first);
    assert.equal(catalog.find('t9999')?.name, 't9999');
    assert.equal(catalog.find('__proto__'), undefined);
    const second = { ...tool('x'), description: 'second' };
    await catalog.list(lister(async () => [second]), () => true);
    assert.equal(catalog.find('x'), second);
  });

  it('drops a late answer that belongs to an older launch', async () => {
    const cache = memoryCache();
    const catalog = new ToolCatalog(recordingLog(), cache);
    await catalog.list(lister(async () => [tool('stale')]), () => false);
    assert.deepEqual(catalog.tools, []);
    assert.deepEqual(cache.saved, []);
  });

  it('records a failed listing as a fact (and logs it) until a listing succeeds', async () => {
    const log = recordingLog();
    const catalog = new ToolCatalog(log);
    await catalog.list(lister(async () => Promise.reject(new Error('boom'))), () => true);
    assert.equal(catalog.listingError, 'Listing tools failed: boom');
    assert.deepEqual(log.lines, ['error: Listing tools failed: boom']);
    await catalog.list(lister(async () => [tool('a')]), () => true);
    assert.equal(catalog.listingError, undefined);
  });

  it('does not ask a server that does not offer tools', async () => {
    const l = lister(async () => [tool('a')], false);
    await new ToolCatalog(recordingLog()).list(l, () => true);
    assert.equal(l.calls, 0);
  });

  it('re-lists once after a burst of list_changed, and not at all once cancelled', async () => {
    const catalog = new ToolCatalog(recordingLog());
    let relists = 0;
    for (let i = 0; i < 5; i++) catalog.relistSoon(async () => void relists++);
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(relists, 1);
    catalog.relistSoon(async () => void relists++);
    catalog.cancelRelist();
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(relists, 1);
    catalog.dispose();
  });
});
