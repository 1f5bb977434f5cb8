import * as vscode from 'vscode';
import { launchFingerprint, type ServerDefinition } from '../core/config/serverConfig';
import { sanitizeLine, visibleLine } from '../core/render/sanitize';
import type { PromptEvents } from './promptEvents';

interface Choice extends vscode.QuickPickItem {
  readonly start?: boolean;
}

/**
 * Workspace trust for servers a workspace defines: their first start, and any start after their
 * launch definition (command, args, env, cwd, url) changed, asks the user, showing the exact
 * command line. Servers from user settings start without asking.
 */
export class LaunchGate {
  constructor(
    private readonly _state: vscode.Memento,
    private readonly _prompts: PromptEvents,
  ) {}

  async confirm(def: ServerDefinition, shownLaunch: string): Promise<boolean> {
    if (def.source !== 'workspace') return true;
    const key = `launchApproved:${def.name}`;
    const fingerprint = launchFingerprint(def.spec);
    const previous = this._state.get<string>(key);
    if (previous === fingerprint) return true;
    const start = await ask(def, shownLaunch, previous !== undefined, this._prompts);
    if (start) await this._state.update(key, fingerprint);
    return start;
  }
}

async function ask(def: ServerDefinition, shownLaunch: string, changed: boolean, prompts: PromptEvents): Promise<boolean> {
  const qp = vscode.window.createQuickPick<Choice>();
  try {
    qp.title = changed
      ? vscode.l10n.t('The workspace changed how server "{0}" starts. Run it?', def.name)
      : vscode.l10n.t('Run server "{0}" defined by this workspace?', def.name);
    qp.ignoreFocusOut = true;
    const spec = def.spec;
    // The workspace wrote these: one line each, nothing hidden.
    const env = spec.type === 'stdio' ? Object.keys(spec.env).map(sanitizeLine).join(', ') || vscode.l10n.t('(inherited only)') : '';
    qp.placeholder = spec.type !== 'stdio' ? vscode.l10n.t('remote server') : spec.cwd ? vscode.l10n.t('in {0}; env: {1}', sanitizeLine(spec.cwd), env) : vscode.l10n.t('env: {0}', env);
    // The trust the server will get: with untrusted hints every call asks.
    const trust = def.trustAnnotations ? vscode.l10n.t('tool hints trusted (your mcpToolHost.trustedWorkspaceServers)') : vscode.l10n.t('tool hints not trusted: each call asks');
    qp.items = [
      { label: `$(play) ${vscode.l10n.t('Start server')}`, start: true, description: trust, detail: visibleLine(shownLaunch) },
      { label: `$(circle-slash) ${vscode.l10n.t('Do not start')}`, start: false },
    ];
    return await new Promise<boolean>((resolve) => {
      qp.onDidAccept(() => resolve(qp.selectedItems[0]?.start === true));
      qp.onDidHide(() => resolve(false));
      prompts.show(qp);
    });
  } finally {
    qp.dispose();
  }
}
