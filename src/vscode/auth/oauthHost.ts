import * as vscode from 'vscode';
import type { OAuthHost } from '../../core/auth/ports';
import { secretStoreOf } from '../shared/secretStore';
import type * as Prompts from '../prompts/later';

/**
 * Signing in to remote servers from VS Code: tokens in SecretStorage; the browser opens through
 * `vscode.env.openExternal` once the user agrees (askToSignIn, which names the page's site); the
 * loopback redirect is made reachable from the user's browser with `asExternalUri` (remote
 * windows forward the port; locally it is unchanged).
 */
export function vscodeOAuthHost(secrets: vscode.SecretStorage, later: () => { readonly prompts: Pick<typeof Prompts, 'askToSignIn'> }): OAuthHost {
  return {
    secrets: secretStoreOf(secrets),
    // The core checked the page (a server's link rules) and says where it leads.
    openBrowser: async (_url, serverName, _onFailed, page) => (page ? later().prompts.askToSignIn(serverName, page) : false),
    externalUrl: async (localUrl) => (await vscode.env.asExternalUri(vscode.Uri.parse(localUrl, true))).toString(true),
  };
}
