import * as assert from 'node:assert/strict';
import { ServerIndex } from '../../src/core/search/serverSearch';
import { ToolIndex, type SearchableTool } from '../../src/core/search/toolSearch';
import { CHAT_FILES_CALENDAR as TOOLS, searchableTool as tool } from './searchFixtures';
import { heldOutTools, labelledRequests, tuningTools } from '../../bench/search/catalogues';
import { browseReach } from '../../bench/search/searchCase';

describe('tool search: servers to browse', () => {
  it('ranks a server by all its tools together and lists their names in the order the server lists them', () => {
    // "post" and "workspace" are in two different tools of the chat server: as one document it wins.
    const query = 'post it in the workspace';
    const hits = new ServerIndex(TOOLS).search(query, 1);
    assert.deepEqual(hits.map((h) => [h.server, h.tools]), [['chat', ['post_message', 'list_channels', 'add_reaction']]]);
    assert.ok(hits[0].score > 0);
  });

  it('returns at most limit servers, best first; nothing for an empty query or limit 0', () => {
    const index = new ServerIndex(TOOLS);
    const hits = index.search('move the calendar file', 5);
    assert.ok(hits.length >= 2 && hits.length <= 3);
    assert.equal(hits[0].server, 'files');
    for (let i = 1; i < hits.length; i++) assert.ok(hits[i - 1].score >= hits[i].score);
    assert.deepEqual(index.search('', 3), []);
    assert.deepEqual(index.search('file', 0), []);
    assert.deepEqual(new ServerIndex([]).search('file'), []);
  });

  it('reads what tool search reads, cut: a hostile 1 MB description does not make its server win or the search slow', () => {
    const hostile = tool('evil', 'x', 'file '.repeat(200_000));
    const started = performance.now();
    const hits = new ServerIndex([...TOOLS, hostile]).search('read the contents of a file', 2);
    assert.ok(performance.now() - started < 2_000);
    assert.equal(hits[0].server, 'files');
  });

  it('with the names of the 3 best servers, browsing can reach more wanted tools than the top 5 (tuning set, and held-out servers >= 0.90)', () => {
    const tuning = labelledRequests('tuning.json');
    const top5 = (tools: readonly SearchableTool[], file: 'tuning.json' | 'heldout-servers.json') => {
      const index = new ToolIndex(tools);
      const asked = labelledRequests(file);
      return asked.reduce((sum, r) => {
        const top = new Set(index.search(r.request, 5).map((h) => `${h.server}/${h.tool}`));
        return sum + r.tools.filter((t) => top.has(t)).length / r.tools.length;
      }, 0) / asked.length;
    };
    const tuned = browseReach(tuningTools(), tuning, 3);
    assert.ok(tuned.reach > top5(tuningTools(), 'tuning.json'), `tuning: browsing ${tuned.reach.toFixed(3)}`);
    const held = browseReach(heldOutTools(), labelledRequests('heldout-servers.json'), 3);
    assert.ok(held.reach >= 0.9 && held.reach > top5(heldOutTools(), 'heldout-servers.json'), `held-out servers: browsing ${held.reach.toFixed(3)}`);
    assert.ok(held.tokens < 500, `${held.tokens} tokens of names per request`);
  });
});
