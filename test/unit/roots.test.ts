import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import { pathToFileURL } from 'node:url';
import { rootsOffer } from '../../src/core/config/roots';
import { parseServers, sameLaunch } from '../../src/core/config/serverConfig';

const folders = () => [{ name: 'proj', path: '/work/proj' }];
const def = (entry: Record<string, unknown>) => parseServers({ s: entry }, 'user').servers[0];

describe('which roots a server is told about', () => {
  it('the workspace folders by default', () => {
    const offer = rootsOffer(def({ command: 'node', args: ['server.js', '--port', '1'] }), folders);
    assert.ok(offer.kind === 'offered');
    assert.deepEqual(offer.roots(), [{ uri: 'file:///work/proj', name: 'proj' }]);
  });

  it('none when the launch names a folder that exists: the configured folder is not swapped for the workspace', () => {
    const home = os.homedir();
    const offer = rootsOffer(def({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', home] }), folders);
    assert.equal(offer.kind, 'none');
    assert.match(offer.why, new RegExp(`the launch names ${home.replace(/[/\\]/g, '.')}`));
  });

  it('"roots" decides when set: workspace, none, or a list', () => {
    const home = os.homedir();
    const forced = rootsOffer(def({ command: 'npx', args: [home], roots: 'workspace' }), folders);
    assert.ok(forced.kind === 'offered' && forced.roots().length === 1);
    assert.equal(rootsOffer(def({ command: 'node', roots: 'none' }), folders).kind, 'none');
    const listed = rootsOffer(def({ command: 'node', roots: ['/data/a', '${workspaceFolder}/b'] }), folders);
    assert.ok(listed.kind === 'offered');
    assert.deepEqual(listed.roots().map((r) => r.uri), [pathToFileURL('/data/a').href, pathToFileURL('/work/proj/b').href]);
    assert.equal(parseServers({ s: { command: 'x', roots: 5 } }, 'user').errors[0]?.message, 'Server "s": "roots" must be "workspace", "none", or a list of folders.');
  });

  it('a change of roots restarts the server, like a launch change', () => {
    assert.equal(sameLaunch(def({ command: 'x' }), def({ command: 'x', roots: 'none' })), false);
    assert.equal(sameLaunch(def({ command: 'x', roots: 'none' }), def({ command: 'x', roots: 'none', timeoutSeconds: 5 })), true);
  });
});
