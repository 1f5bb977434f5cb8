import { spawn } from 'node:child_process';
import type { OAuthHost, SecretStore } from '../core/auth/ports';
import { SignInError } from '../core/auth/signInErrors';
import { sanitizeLine } from '../core/render/sanitize';

/** Secrets for one CLI run, in memory: tokens never touch the disk, so each run signs in again. */
export function memorySecretStore(): SecretStore {
  const values = new Map<string, string>();
  return {
    get: async (key) => values.get(key),
    store: async (key, value) => void values.set(key, value),
    delete: async (key) => void values.delete(key),
  };
}

/**
 * Signing in from a terminal: the sign-in URL goes to stderr and the system browser is tried.
 * Without a terminal (CI, pipes) nobody can sign in, so the sign-in ends at once with a reason
 * rather than waiting five minutes.
 */
export function cliOAuthHost(): OAuthHost {
  return {
    secrets: memorySecretStore(),
    openBrowser: async (url, serverName) => {
      if (!process.stderr.isTTY) throw new SignInError(`"${sanitizeLine(serverName)}" needs you to sign in in a browser: run this command in a terminal.`);
      process.stderr.write(`Sign in to "${sanitizeLine(serverName)}" in your browser: ${url}\n`);
      openSystemBrowser(url);
      return true;
    },
  };
}

function openSystemBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['rundll32', ['url.dll,FileProtocolHandler', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, shell: false });
    child.on('error', () => undefined); // no browser here: the URL on stderr is enough
    child.unref();
  } catch {
    // as above
  }
}
