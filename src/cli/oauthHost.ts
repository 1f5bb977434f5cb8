import type { OAuthHost, SecretStore } from '../core/auth/ports';
import { loadAuth } from '../core/auth/load';
import { sanitizeLine } from '../core/render/sanitize';
import { formatCommandLine } from '../core/transport/commandLine';
import { BrowserCommandError, browserSource, openSystemBrowser, parseBrowserCommand, runBrowserCommand, type BrowserChoice } from './browserCommand';

export type { BrowserChoice } from './browserCommand';

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
 * Signing in from the command line. With a browser command (--browser, or BROWSER as many CLIs
 * honour it) the sign-in page opens with that program, run without a shell, on a terminal or
 * not (a headless machine, CI). Without one, a terminal gets the URL on stderr and the system
 * browser is tried; elsewhere nobody can sign in, so the sign-in ends at once with a reason
 * rather than waiting five minutes. The user always sees exactly what is opened, and with what.
 */
export function cliOAuthHost(browser: BrowserChoice = {}): OAuthHost {
  return {
    secrets: memorySecretStore(),
    openBrowser: async (url, serverName, onFailed, page) => {
      const { SignInError } = loadAuth();
      const name = sanitizeLine(serverName);
      const shownUrl = sanitizeLine(url);
      const on = page ? ` on ${page.site}` : '';
      const source = browserSource(browser);
      if (source) {
        try {
          const command = parseBrowserCommand(source === '--browser' ? browser.flag! : browser.env!, source);
          process.stderr.write(`Sign in to "${name}"${on}: opening ${shownUrl} with ${sanitizeLine(formatCommandLine(command[0], command.slice(1)))} (${source})\n`);
          await runBrowserCommand(command, url, (code, signal) => {
            if (code !== 0) onFailed?.(new SignInError(`Signing in to "${name}" failed: the browser command (${source}) ended with ${code === null ? `signal ${signal}` : `exit code ${code}`} before the sign-in finished.`));
          });
        } catch (err) {
          if (err instanceof BrowserCommandError) throw new SignInError(`Cannot sign in to "${name}": ${err.message}`);
          throw err;
        }
        return true;
      }
      if (!process.stderr.isTTY) {
        throw new SignInError(`"${name}" needs you to sign in in a browser: run this command in a terminal, or name a program that opens web pages with --browser (or the BROWSER environment variable).`);
      }
      process.stderr.write(`Sign in to "${name}"${on} in your browser: ${shownUrl}\n`);
      void openSystemBrowser(url); // no browser here: the URL on stderr is enough
      return true;
    },
  };
}
