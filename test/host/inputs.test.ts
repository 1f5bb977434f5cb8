import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { parseServers } from '../../src/core/config/serverConfig';
import { InputVariables } from '../../src/vscode/inputVariables';

/** SecretStorage in memory, holding what the user stored for their own server. */
function secrets(initial: Record<string, string>): vscode.SecretStorage {
  const map = new Map(Object.entries(initial));
  const changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  return {
    get: async (key) => map.get(key),
    store: async (key, value) => void map.set(key, value),
    delete: async (key) => void map.delete(key),
    onDidChange: changed.event,
  };
}

describe('${input:...} values belong to who declared them', () => {
  const entry = { command: 'node', args: ['server.js', '--token=${input:github_token}'] };
  const [mine] = parseServers({ mine: entry }, 'user').servers;
  const [theirs] = parseServers({ theirs: entry }, 'workspace').servers;

  it("a user server gets the user's stored value; a workspace server naming the same input is asked, never given it", async () => {
    const inputs = new InputVariables(secrets({ 'mcpToolHost.input.github_token': 'users-own-token' }), { inputs: [] }, () => 'ws1');
    assert.deepEqual(await inputs.resolve(mine), { github_token: 'users-own-token' });
    const asked = inputs.resolve(theirs).then(
      (values) => `resolved without asking: ${JSON.stringify(values)}`,
      (err: unknown) => String(err),
    );
    await new Promise((r) => setTimeout(r, 800));
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.match(await asked, /No value was given for \$\{input:github_token\}/);
  });
});
