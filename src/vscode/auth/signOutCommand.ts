import * as vscode from 'vscode';
import { forgetCredentials } from '../../core/auth/credentialKeys';
import type { ServerPool } from '../../core/connection/serverPool';
import { ServerState } from '../../core/connection/serverState';
import { sanitizeLine, shownName } from '../../core/render/sanitize';
import { secretStoreOf } from '../shared/secretStore';

/**
 * "MCP Tool Host: Sign Out of Server...": forgets a remote server's OAuth tokens and client registration.
 * A server that is running (or waiting for a sign-in) is stopped, since its connection still
 * holds the tokens; starting it again asks the user to sign in. Signs out of the named server
 * (a name or a tree row), or asks which. Loaded with dist/forms.js at its first use.
 */
export async function signOut(pool: ServerPool, secrets: vscode.SecretStorage, arg?: string | { server?: string }): Promise<void> {
  const name = typeof arg === 'string' ? arg : (arg?.server ?? (await pickRemoteServer(pool)));
  if (!name) return;
  await forgetCredentials(secretStoreOf(secrets), name);
  const connection = pool.get(name);
  const wasActive = !!connection && ServerState.isActive(connection.state);
  if (wasActive) await connection.stop();
  const message = wasActive
    ? vscode.l10n.t('Signed out of "{0}". It was stopped; start it to sign in again.', shownName(name))
    : vscode.l10n.t('Signed out of "{0}".', shownName(name));
  void vscode.window.showInformationMessage(message);
}

async function pickRemoteServer(pool: ServerPool): Promise<string | undefined> {
  const remote = pool.connections.filter((c) => c.definition.spec.type === 'http');
  if (remote.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No remote (http) server is configured, so there is nothing to sign out of.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    remote.map((c) => ({ label: shownName(c.name), description: sanitizeLine(c.launchLine ?? ''), name: c.name })),
    { title: vscode.l10n.t('Sign out of which server?'), placeHolder: vscode.l10n.t('Its saved sign-in (OAuth tokens) is forgotten') },
  );
  return picked?.name;
}
