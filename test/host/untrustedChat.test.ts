// @mcp in a folder not trusted yet: /servers and /tools name the servers the folder defines (as the
// Tools view does), escaped for markdown, instead of saying that no server is configured.
import * as assert from 'node:assert/strict';
import { ServerPool } from '../../src/core/connection/serverPool';
import { serversMarkdown, toolsMarkdown } from '../../src/vscode/chat/catalogMarkdown';
import { readChatSettings } from '../../src/vscode/chat/chatSettings';
import { waitingMessage } from '../../src/vscode/tree/waitingServers';

describe('@mcp in a folder not trusted yet', () => {
  const pool = new ServerPool(() => {
    throw new Error('no server is started here');
  });
  after(() => pool.dispose());

  it('/servers and /tools name the waiting servers, a hostile name escaped (no link, no control character), and say how to trust', () => {
    const hostile = '\u001b[31m\u202e[Trust me](command:workbench.action.quit)';
    const waiting = waitingMessage({ names: ['notes', hostile], unread: [] });
    for (const markdown of [serversMarkdown(pool, readChatSettings(), waiting), toolsMarkdown(pool, readChatSettings(), { approveAll: () => false }, waiting)]) {
      assert.match(markdown, /not trusted/);
      assert.match(markdown, /notes/);
      assert.match(markdown, /Manage Workspace Trust/);
      assert.doesNotMatch(markdown, /No MCP server is configured/);
      assert.doesNotMatch(markdown, /\]\(command:/, 'a name is never a link');
      assert.ok(!markdown.includes('\u001b') && !markdown.includes('\u202e'), 'no raw control or direction character');
    }
    assert.match(serversMarkdown(pool, readChatSettings(), undefined), /No MCP server is configured/);
  });
});
