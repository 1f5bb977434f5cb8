import * as vscode from 'vscode';
import { inputSecretKey, requiredInputs } from '../../core/config/launch';
import type { ServerDefinition } from '../../core/config/serverConfig';
import { sanitizeLine, shownName } from '../../core/render/sanitize';

/**
 * Values for `${input:id}`: asked once with a password box, kept in SecretStorage (never in
 * settings or logs), and reused on every later start. A workspace's servers have values of their
 * own, per file that declares them (`inputSecretKey`): they never receive what the user typed for
 * their own servers, or for another file's.
 */
export class InputVariables {
  constructor(private readonly _secrets: vscode.SecretStorage) {}

  /** Every input the definition needs; throws when the user cancels a prompt. */
  async resolve(def: ServerDefinition): Promise<Record<string, string>> {
    const values: Record<string, string> = {};
    for (const id of requiredInputs(def)) {
      const key = inputSecretKey(def, id);
      let value = await this._secrets.get(key);
      if (value === undefined) {
        const spec = def.inputs?.find((s) => s.id === id);
        value = await vscode.window.showInputBox({
          title: def.source === 'user'
            ? vscode.l10n.t('Server "{0}" needs "{1}"', shownName(def.name), sanitizeLine(id))
            : vscode.l10n.t('Server "{0}" of {1} needs "{2}" (a value of its own, not one you gave another server or file)', shownName(def.name), sanitizeLine(def.declaredIn?.label ?? 'this workspace'), sanitizeLine(id)),
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
