import type { OAuthHost, SecretStore } from '../core/auth/ports';
import { loadAuth } from '../core/auth/load';
import { sanitizeLine } from '../core/render/sanitize';
import { formatCommandLine } from '../core/transport/commandLine';
import { BrowserCommandError, browserSource, openSystemBrowser, parseBrowserCommand, runBrowserCommand, type BrowserChoice } from './browserCommand';

export type { BrowserChoice } from './browserCommand';

/** Secrets for one run, in memory: what a host without a credential store (a test's) signs in with. */
export function memorySecretStore(): SecretStore {
  const values = new Map<string, string>();
  return {
    get: async (key) => values.get(key),
    store: async (key, value) => void values.set(key, value),
    delete: async (key) => void values.delete(key),
  };
}

/** What the CLI's sign-in keeps and says, besides the browser it opens. */
export interface CliSignInOptions {
  /** Where sign-ins are kept (default: in memory, for this run only). */
  readonly secrets?: SecretStore;
  /** The command that signs in to a server once for later runs (`login`), named when this run cannot sign in. */
  readonly loginCommand?: (serverName: string) => string;
}

/**
 * Signing in from the command line. With a browser command (--browser, or BROWSER as many CLIs
 * honour it) the sign-in page opens with that program, run without a shell, on a terminal or
 * not (a headless machine, CI). Without one, a terminal gets the URL on stderr and the system
 * browser is tried; elsewhere nobody can sign in, so the sign-in ends at once with a reason and
 * the command that signs in for later runs, rather than waiting five minutes. The user always
 * sees exactly what is opened, and with what.
 */
export function cliOAuthHost(browser: BrowserChoice = {}, options: CliSignInOptions = {}): OAuthHost {
  return {
    secrets: options.secrets ?? memorySecretStore(),
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
        const login = options.loginCommand?.(serverName);
        if (login) throw new SignInError(`"${name}" needs you to sign in, and this run has no terminal to do it in: sign in once with ${sanitizeLine(login)} (on a terminal, or with --browser), and later runs use the kept sign-in; or name a program that opens web pages with --browser (or the BROWSER environment variable).`);
        throw new SignInError(`"${name}" needs you to sign in in a browser: run this command in a terminal, or name a program that opens web pages with --browser (or the BROWSER environment variable).`);
      }
      process.stderr.write(`Sign in to "${name}"${on} in your browser: ${shownUrl}\n`);
      void openSystemBrowser(url); // no browser here: the URL on stderr is enough
      return true;
    },
  };
}
