import * as vscode from 'vscode';
import { launchFingerprint, type ServerDefinition } from '../core/config/serverConfig';

interface Choice extends vscode.QuickPickItem {
  readonly start: boolean;
}

/**
 * Workspace trust for servers a workspace defines: their first start, and any start after their
 * launch definition (command, args, env, cwd, url) changed, asks the user, showing the exact
 * command line. Servers from user settings start without asking.
 */
export class LaunchGate {
  constructor(private readonly _state: vscode.Memento) {}

  async confirm(def: ServerDefinition, shownLaunch: string): Promise<boolean> {
    if (def.source !== 'workspace') return true;
    const key = `launchApproved:${def.name}`;
    const fingerprint = launchFingerprint(def.spec);
    const previous = this._state.get<string>(key);
    if (previous === fingerprint) return true;
    const start = await ask(def, shownLaunch, previous !== undefined);
    if (start) await this._state.update(key, fingerprint);
    return start;
  }
}

async function ask(def: ServerDefinition, shownLaunch: string, changed: boolean): Promise<boolean> {
  const qp = vscode.window.createQuickPick<Choice>();
  try {
    qp.title = changed ? `The workspace changed how server "${def.name}" starts. Run it?` : `Run server "${def.name}" defined by this workspace?`;
    qp.placeholder = shownLaunch;
    qp.ignoreFocusOut = true;
    const spec = def.spec;
    const where = spec.type === 'stdio' ? `${spec.cwd ? `in ${spec.cwd}; ` : ''}env: ${Object.keys(spec.env).join(', ') || '(inherited only)'}` : 'remote server';
    qp.items = [
      { label: '$(play) Start server', start: true, detail: shownLaunch },
      { label: '$(circle-slash) Do not start', start: false, detail: where },
    ];
    return await new Promise<boolean>((resolve) => {
      qp.onDidAccept(() => resolve(qp.selectedItems[0]?.start === true));
      qp.onDidHide(() => resolve(false));
      qp.show();
    });
  } finally {
    qp.dispose();
  }
}
