import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { splitCommandLine } from '../core/config/newServerEntry';

/**
 * Characters a shell would act on. A browser command runs without a shell (its words are the
 * program's argv), so a command that leans on one (`a && b`, `$(...)`, a pipe, a redirect) would
 * not do what its author meant: it is refused with a clear error instead.
 */
const SHELL_CHARACTERS = /[;&|$`<>\n\r]/;

/** A browser command that cannot be used, with the sentence that says why. */
export class BrowserCommandError extends Error {
  constructor(message: string) {
    super(message);
    this.name = this.constructor.name;
  }
}

/**
 * The program and arguments of a browser command (`--browser`, or the `BROWSER` environment
 * variable as many command-line tools honour it): words split as Add Server splits a command
 * line (splitCommandLine: quotes group words with spaces, a path like "C:\Program Files\..."
 * in double quotes). Nothing else is interpreted. A value that is the path of an existing file
 * is that program alone, spaces and all (`BROWSER=/home/jane/My Tools/open-page`).
 * `source` names where the command came from, for the error.
 */
export function parseBrowserCommand(text: string, source: string): string[] {
  if (isFile(text)) return [text];
  if (SHELL_CHARACTERS.test(text)) {
    throw new BrowserCommandError(`${source} is run as a program with arguments, never by a shell: remove ; & | $ \` < > and line breaks from it.`);
  }
  const words = splitCommandLine(text);
  if (typeof words === 'string') throw new BrowserCommandError(`${source}: ${words}`);
  if (words.length === 0 || words[0] === '') throw new BrowserCommandError(`${source} is empty: give the program that opens a web page, as in --browser firefox.`);
  return words;
}

function isFile(text: string): boolean {
  try {
    return fs.statSync(text).isFile();
  } catch {
    return false;
  }
}

/** The argv that opens `url`: `%s` in an argument stands for the URL (the BROWSER convention); without one the URL comes last. */
export function browserArgv(command: readonly string[], url: string): string[] {
  const placed = command.some((word) => word.includes('%s'));
  return placed ? command.map((word) => word.split('%s').join(url)) : [...command, url];
}

/**
 * Runs a browser command on `url` without a shell. Resolves once the program started; rejects
 * when it cannot start (not found, not executable). `onExit` hears a non-zero exit later (a
 * headless browser that failed to load the page): the sign-in then ends instead of waiting.
 * The program's output is never shown: a browser may print the redirect URL, which carries the
 * authorization code.
 */
export function runBrowserCommand(command: readonly string[], url: string, onExit: (code: number | null, signal: NodeJS.Signals | null) => void): Promise<void> {
  const [program, ...args] = browserArgv(command, url);
  return new Promise<void>((resolve, reject) => {
    const child = spawn(program, args, { stdio: 'ignore', shell: false, windowsHide: true });
    child.once('error', (err: NodeJS.ErrnoException) => reject(new BrowserCommandError(`The browser command "${program}" could not be started (${err.code ?? err.message}).`)));
    child.once('spawn', () => {
      child.once('exit', (code, signal) => onExit(code, signal));
      child.unref(); // a real browser may stay open after the CLI is done
      resolve();
    });
  });
}

/** Where the CLI's browser command comes from: --browser, else the BROWSER environment variable. */
export interface BrowserChoice {
  /** The --browser value, already checked by parseArgs. */
  readonly flag?: string;
  /** The BROWSER environment variable, checked when a page is opened (a bad one must not break runs that open none). */
  readonly env?: string;
}

/** Which of the two names the browser command, if either does. */
export function browserSource(choice: BrowserChoice): '--browser' | 'BROWSER' | undefined {
  return choice.flag !== undefined ? '--browser' : choice.env ? 'BROWSER' : undefined;
}

/**
 * Opens `url` for the user: with their browser command (--browser, BROWSER), else the platform's
 * opener; always without a shell. False when nothing could be started (the caller then shows the
 * URL to copy); a browser command that cannot be used says why on stderr.
 */
export async function openInBrowser(choice: BrowserChoice, url: string): Promise<boolean> {
  const source = browserSource(choice);
  if (source) {
    try {
      await runBrowserCommand(parseBrowserCommand(source === '--browser' ? choice.flag! : choice.env!, source), url, () => undefined);
      return true;
    } catch (err) {
      if (!(err instanceof BrowserCommandError)) throw err;
      process.stderr.write(`${err.message}\n`);
      return false;
    }
  }
  return openSystemBrowser(url);
}

/** The platform's own opener. Windows: rundll32's URL handler, which takes the URL as an argument (`start` is a shell built-in). */
export function openSystemBrowser(url: string): Promise<boolean> {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['rundll32', ['url.dll,FileProtocolHandler', url]] : ['xdg-open', [url]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, shell: false });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
