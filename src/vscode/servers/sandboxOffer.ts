// "Sandbox Every Local Server": turns on mcpToolHost.sandbox.stdioByDefault only where
// this machine can sandbox, since on one that cannot every local server would stop. Also sets the
// context key the walkthrough's two sandbox steps read. Loaded with dist/forms.js, off activation.
import * as vscode from 'vscode';
import { loadTransport } from '../../core/transport/load';
import { SECTION } from '../shared/section';

/** The context key the walkthrough reads: 'yes' where this machine can sandbox, 'no' where it cannot, unset until checked. */
const SUPPORT_KEY = 'mcpToolHost.sandboxSupport';

/** What the command did (tests read it): whether the setting is now on, and what the user was told. */
export interface SandboxOffer {
  readonly turnedOn: boolean;
  readonly message: string;
}

/** Checks whether this machine can sandbox and records it in the walkthrough's context key. */
export async function markSandboxSupport(): Promise<{ ok: true } | { ok: false; reason: string }> {
  const check = await loadTransport().sandboxCheck();
  await vscode.commands.executeCommand('setContext', SUPPORT_KEY, check.ok ? 'yes' : 'no');
  return check.ok ? { ok: true } : { ok: false, reason: check.reason };
}

/** The command: on where the machine can sandbox; elsewhere it says why not and what to install, and changes nothing. */
export async function sandboxEveryServer(): Promise<SandboxOffer> {
  const check = await markSandboxSupport();
  if (!check.ok) {
    // No button: the only one-click action here would be the setting, and it would stop every local server.
    const message = vscode.l10n.t('This machine cannot sandbox a server, so mcpToolHost.sandbox.stdioByDefault stays off (turned on, it would stop every local server): {0}', check.reason);
    void vscode.window.showWarningMessage(message);
    return { turnedOn: false, message };
  }
  await vscode.workspace.getConfiguration(SECTION).update('sandbox.stdioByDefault', true, vscode.ConfigurationTarget.Global);
  const message = vscode.l10n.t('Every local server without a sandbox of its own now runs in the default sandbox (mcpToolHost.sandbox.stdioByDefault).');
  void vscode.window.showInformationMessage(message);
  return { turnedOn: true, message };
}
