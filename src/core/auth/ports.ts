import type { OfferedUrl } from '../elicitation/urlElicitation';

/**
 * Where secrets live: VS Code's SecretStorage in the extension, memory in tests. Values (tokens,
 * client registrations, PKCE verifiers) go in and out of here only; they are never logged.
 */
export interface SecretStore {
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** What signing in to a remote server (OAuth) needs from its host: VS Code, the CLI, a test. */
export interface OAuthHost {
  readonly secrets: SecretStore;
  /**
   * Shows the authorization page to the user (opens the browser). Resolves false when the user
   * declined or it could not be opened: the sign-in then ends as cancelled. A SignInError thrown
   * here ends it with that error's message. `onFailed`, when the host can tell, reports a
   * failure after the page was handed over (a browser command that exited with an error): the
   * sign-in then ends with that error instead of waiting for a callback that cannot come.
   * `page` says where the URL leads (the site first), to show before the user agrees.
   */
  openBrowser(url: string, serverName: string, onFailed?: (error: Error) => void, page?: OfferedUrl): Promise<boolean>;
  /**
   * The address a browser can reach for the loopback redirect URL `localUrl`. In VS Code remote
   * setups (SSH, containers, code-server) the extension host is not where the browser runs, and
   * `vscode.env.asExternalUri` forwards the port; elsewhere it is `localUrl` itself.
   */
  externalUrl?(localUrl: string): Promise<string>;
  /** How long to wait for the user to finish signing in (default SIGN_IN_TIMEOUT_MS, 5 minutes). */
  readonly signInTimeoutMs?: number;
}
