import * as vscode from 'vscode';
import { forgetCredentials } from '../core/auth/serverCredentials';
import type { ServerPool } from '../core/connection/serverPool';
import { ServerState } from '../core/connection/serverState';
import { sanitizeLine } from '../core/render/sanitize';
import { secretStoreOf } from './oauthHost';

export const SIGN_OUT_COMMAND = 'mcpToolHost.signOut';

/**
 * "MCP: Sign Out of Server...": forgets a remote server's OAuth tokens and client registration.
 * A server that is running (or waiting for a sign-in) is stopped, since its connection still
 * holds the tokens; starting it again asks the user to sign in.
 */
export function registerSignOutCommand(pool: ServerPool, secrets: vscode.SecretStorage): vscode.Disposable {
  return vscode.commands.registerCommand(SIGN_OUT_COMMAND, async (arg?: string | { server?: string }) => {
    const name = typeof arg === 'string' ? arg : (arg?.server ?? (await pickRemoteServer(pool)));
    if (!name) return;
    await forgetCredentials(secretStoreOf(secrets), name);
    const connection = pool.get(name);
    const wasActive = !!connection && ServerState.isActive(connection.state);
    if (wasActive) await connection.stop();
    void vscode.window.showInformationMessage(`Signed out of "${sanitizeLine(name)}".${wasActive ? ' It was stopped; start it to sign in again.' : ''}`);
  });
}

async function pickRemoteServer(pool: ServerPool): Promise<string | undefined> {
  const remote = pool.connections.filter((c) => c.definition.spec.type === 'http');
  if (remote.length === 0) {
    void vscode.window.showInformationMessage('No remote (http) server is configured, so there is nothing to sign out of.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    remote.map((c) => ({ label: sanitizeLine(c.name), description: sanitizeLine(c.launchLine ?? ''), name: c.name })),
    { title: 'Sign out of which server?', placeHolder: 'Its saved sign-in (OAuth tokens) is forgotten' },
  );
  return picked?.name;
}
