import * as vscode from 'vscode';
import { createHash } from 'node:crypto';
import { inputSecretKey, requiredInputs } from '../core/config/launch';
import type { InputSpec } from '../core/config/formats';
import type { ServerDefinition } from '../core/config/serverConfig';
import { sanitizeLine } from '../core/render/sanitize';

/**
 * Values for `${input:id}`: asked once with a password box, kept in SecretStorage (never in
 * settings or logs), and reused on every later start. A workspace's servers have values of their
 * own (`inputSecretKey`): they never receive what the user typed for their own servers.
 */
export class InputVariables {
  /**
   * `_settings.inputs` says how to ask for each id: the `inputs` of the workspace's mcp.json files
   * as last read. `_workspaceKey` names the open workspace (its folders).
   */
  constructor(
    private readonly _secrets: vscode.SecretStorage,
    private readonly _settings: { readonly inputs: readonly InputSpec[] },
    private readonly _workspaceKey: () => string = workspaceKey,
  ) {}

  /** Every input the definition needs; throws when the user cancels a prompt. */
  async resolve(def: ServerDefinition): Promise<Record<string, string>> {
    const values: Record<string, string> = {};
    for (const id of requiredInputs(def)) {
      const key = inputSecretKey(def, id, this._workspaceKey());
      let value = await this._secrets.get(key);
      if (value === undefined) {
        const spec = this._settings.inputs.find((s) => s.id === id);
        value = await vscode.window.showInputBox({
          title: def.source === 'user'
            ? vscode.l10n.t('Server "{0}" needs "{1}"', sanitizeLine(def.name), sanitizeLine(id))
            : vscode.l10n.t('Server "{0}" of this workspace needs "{1}" (a value of its own, not one you gave another server)', sanitizeLine(def.name), sanitizeLine(id)),
          prompt: spec?.description !== undefined ? sanitizeLine(spec.description) : vscode.l10n.t('A value for {0}; it is kept in VS Code\'s secret storage.', `\${input:${sanitizeLine(id)}}`),
          password: spec?.password ?? true,
          ignoreFocusOut: true,
        });
        if (value === undefined) throw new Error(vscode.l10n.t('No value was given for {0}.', `\${input:${id}}`));
        await this._secrets.store(key, value);
      }
      values[id] = value;
    }
    return values;
  }

}

/** The open workspace, by its file or its folders: the scope of a workspace server's input values. */
function workspaceKey(): string {
  const where = vscode.workspace.workspaceFile?.toString() ?? (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()).join('|');
  return createHash('sha256').update(where).digest('hex').slice(0, 16);
}
