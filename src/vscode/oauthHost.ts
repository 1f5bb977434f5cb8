import * as vscode from 'vscode';
import type { OAuthHost, SecretStore } from '../core/auth/ports';
import { shownName } from '../core/render/sanitize';

/** The core's SecretStore over VS Code's SecretStorage (the OS keychain). */
export function secretStoreOf(secrets: vscode.SecretStorage): SecretStore {
  return {
    get: async (key) => secrets.get(key),
    store: async (key, value) => secrets.store(key, value),
    delete: async (key) => secrets.delete(key),
  };
}

/**
 * Signing in to remote servers from VS Code: tokens in SecretStorage; the browser opens through
 * `vscode.env.openExternal` once the user agrees (servers start on their own, and a browser
 * window should never appear unasked); the loopback redirect is made reachable from the
 * user's browser with `asExternalUri` (remote windows forward the port; locally it is unchanged).
 */
export function vscodeOAuthHost(secrets: vscode.SecretStorage): OAuthHost {
  return {
    secrets: secretStoreOf(secrets),
    openBrowser: async (url, serverName) => {
      const signIn = vscode.l10n.t('Sign In');
      const choice = await vscode.window.showInformationMessage(
        vscode.l10n.t('MCP server "{0}" needs you to sign in. Sign In opens its sign-in page in your browser.', shownName(serverName)),
        signIn,
        vscode.l10n.t('Cancel'),
      );
      if (choice !== signIn) return false;
      return vscode.env.openExternal(vscode.Uri.parse(url, true));
    },
    externalUrl: async (localUrl) => (await vscode.env.asExternalUri(vscode.Uri.parse(localUrl, true))).toString(true),
  };
}
