import * as vscode from 'vscode';
import { requiredInputs } from '../core/config/launch';
import type { InputSpec } from '../core/config/formats';
import type { ServerDefinition } from '../core/config/serverConfig';

/**
 * Values for `${input:id}`: asked once with a password box, kept in SecretStorage (never in
 * settings or logs), and reused on every later start.
 */
export class InputVariables {
  constructor(private readonly _secrets: vscode.SecretStorage, private readonly _specs: () => readonly InputSpec[] = () => []) {}

  /** Every input the definition needs; throws when the user cancels a prompt. */
  async resolve(def: ServerDefinition): Promise<Record<string, string>> {
    const values: Record<string, string> = {};
    for (const id of requiredInputs(def)) {
      const key = `mcpToolHost.input.${id}`;
      let value = await this._secrets.get(key);
      if (value === undefined) {
        const spec = this._specs().find((s) => s.id === id);
        value = await vscode.window.showInputBox({
          title: `Server "${def.name}" needs "${id}"`,
          prompt: spec?.description ?? `A value for \${input:${id}}; it is kept in VS Code's secret storage.`,
          password: spec?.password ?? true,
          ignoreFocusOut: true,
        });
        if (value === undefined) throw new Error(`No value was given for \${input:${id}}.`);
        await this._secrets.store(key, value);
      }
      values[id] = value;
    }
    return values;
  }

  /** Forgets a stored value, so the next start asks again. */
  async forget(id: string): Promise<void> {
    await this._secrets.delete(`mcpToolHost.input.${id}`);
  }
}
