import * as assert from 'node:assert/strict';
import { listAllTools, MAX_LIST_PAGES, type PageFetcher } from '../../src/core/connection/toolListing';
import type { ServerLog } from '../../src/core/serverLog';

function recordingLog(): ServerLog & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(`info: ${m}`), warn: (m) => lines.push(`warn: ${m}`), error: (m) => lines.push(`error: ${m}`), stderr: (m) => lines.push(`stderr: ${m}`) };
}

/** Pages of `perPage` tools, `pages` of them (Infinity: endless), counting requests. */
function pager(perPage: number, pages: number, extra: Record<string, unknown> = {}): PageFetcher & { requests: number } {
  const fetch = Object.assign(
    async (cursor: string | undefined) => {
      fetch.requests++;
      const page = cursor === undefined ? 0 : Number(cursor);
      const tools = Array.from({ length: perPage }, (_, i) => ({ name: `t${page}_${i}`, inputSchema: { type: 'object' }, ...extra }));
      return { tools, ...(page + 1 < pages ? { nextCursor: String(page + 1) } : {}) };
    },
    { requests: 0 },
  );
  return fetch;
}

describe('listAllTools (tools/list paging with limits)', () => {
  it('walks every page and keeps every good tool', async () => {
    const tools = await listAllTools(pager(3, 4), {}, recordingLog());
    assert.equal(tools.length, 12);
    assert.equal(tools[11].name, 't3_2');
  });

  it('fails past the tool limit, naming the setting, and asks for no page after it', async () => {
    const fetch = pager(10, Infinity);
    await assert.rejects(listAllTools(fetch, { maxTools: 25 }, recordingLog()), {
      message: 'tools/list: more than 25 tools after 3 pages; the list was dropped (raise the setting mcpToolHost.maxToolsPerServer to accept more)',
    });
    assert.equal(fetch.requests, 3);
  });

  it('fails past the byte limit, naming the setting', async () => {
    const fetch = pager(1, Infinity, { description: 'x'.repeat(1024 * 1024) });
    await assert.rejects(listAllTools(fetch, { maxBytes: 2.5 * 1024 * 1024 }, recordingLog()), {
      message: 'tools/list: the tool list passed 2.5 MiB after 3 pages and was dropped (raise the setting mcpToolHost.maxToolListSize to accept more)',
    });
    assert.equal(fetch.requests, 3);
  });

  it('keeps the page cap, in the SDK words the tree and doctor show', async () => {
    const fetch = pager(0, Infinity);
    await assert.rejects(listAllTools(fetch, {}, recordingLog()), { message: `tools/list: exceeded listMaxPages (${MAX_LIST_PAGES}); server pagination did not terminate` });
    assert.equal(fetch.requests, MAX_LIST_PAGES);
  });

  it('keeps a tool nested 900 deep and leaves out one nested past 1,000, without printing either', async () => {
    const nested = (depth: number) => {
      const root: Record<string, unknown> = {};
      let at = root;
      for (let i = 0; i < depth; i++) at = (at.x = {}) as Record<string, unknown>;
      return root;
    };
    const log = recordingLog();
    const page = { tools: [{ name: 'deep', inputSchema: { type: 'object', properties: nested(900) } }, { name: 'deeper', inputSchema: { type: 'object', properties: nested(1001) } }] };
    assert.deepEqual((await listAllTools(async () => page, {}, log)).map((t) => t.name), ['deep']);
    assert.deepEqual(log.lines, ['warn: Tool "deeper" was left out: it is nested too deeply to read.']);
  });

  it('ends the walk when a page repeats under the same cursor', async () => {
    const tools = await listAllTools(async () => ({ tools: [{ name: 'a', inputSchema: { type: 'object' } }], nextCursor: 'same' }), {}, recordingLog());
    assert.deepEqual(tools.map((t) => t.name), ['a']);
  });

  it('leaves out a tool it cannot use, with a warning naming it; an answer without a tools list fails', async () => {
    const log = recordingLog();
    const deep: Record<string, unknown> = {};
    let at = deep;
    for (let i = 0; i < 20_000; i++) at = (at.x = {}) as Record<string, unknown>;
    const page = { tools: [{ name: 'good', inputSchema: { type: 'object' } }, { name: 'bad\u001b[31m', inputSchema: { type: 'object' }, description: 7 }, { name: 'deep', inputSchema: { type: 'object', properties: deep } }, 'tool'] };
    const tools = await listAllTools(async () => page, {}, log);
    assert.deepEqual(tools.map((t) => t.name), ['good']);
    assert.deepEqual(log.lines, [
      'warn: Tool "bad" was left out: its description is not text.',
      'warn: Tool "deep" was left out: it is nested too deeply to read.',
      'warn: Tool 4 of page 1 was left out: it has no name.',
    ]);
    await assert.rejects(listAllTools(async () => ({ tool: [] }), {}, log), { message: 'tools/list: page 1 has no "tools" list' });
  });
});
