import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { inputSecretKey } from '../../src/core/config/launch';
import { parseServers } from '../../src/core/config/serverConfig';
import { InputVariables } from '../../src/vscode/config/inputVariables';

/** SecretStorage in memory, holding what the user stored for their own server. */
function secrets(initial: Record<string, string>): vscode.SecretStorage {
  const map = new Map(Object.entries(initial));
  const changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  return {
    get: async (key) => map.get(key),
    keys: async () => [...map.keys()],
    store: async (key, value) => void map.set(key, value),
    delete: async (key) => void map.delete(key),
    onDidChange: changed.event,
  };
}

describe('${input:...} values belong to who declared them', () => {
  const entry = { command: 'node', args: ['server.js', '--token=${input:github_token}'] };
  const [mine] = parseServers({ mine: entry }, 'user').servers;
  const declared = (file: string) => parseServers({ theirs: entry }, 'workspace', { declaredIn: { id: file, label: file } }).servers[0];
  const theirs = declared('/repo-a/.vscode/mcp.json');
  const other = declared('/repo-b/.mcp.json');

  /** Resolves `def`, expecting to be asked: the prompt is dismissed, which refuses. */
  const dismissed = async (inputs: InputVariables, def: typeof theirs) => {
    const asked = inputs.resolve(def).then(
      (values) => `resolved without asking: ${JSON.stringify(values)}`,
      (err: unknown) => String(err),
    );
    await new Promise((r) => setTimeout(r, 800));
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    return asked;
  };

  it("a user server gets the user's stored value; a workspace server naming the same input is asked, never given it", async () => {
    const inputs = new InputVariables(secrets({ 'mcpToolHost.input.github_token': 'users-own-token' }));
    assert.deepEqual(await inputs.resolve(mine), { github_token: 'users-own-token' });
    assert.match(await dismissed(inputs, theirs), /No value was given for \$\{input:github_token\}/);
  });

  it("a server of one repository's file never gets the value given to another file's server of the same name", async () => {
    const inputs = new InputVariables(secrets({ [inputSecretKey(theirs, 'github_token')]: 'repo-a-token' }));
    assert.deepEqual(await inputs.resolve(theirs), { github_token: 'repo-a-token' });
    assert.match(await dismissed(inputs, other), /No value was given for \$\{input:github_token\}/);
  });
});
