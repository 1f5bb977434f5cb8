import { spawn } from 'node:child_process';

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
 * variable as many command-line tools honour it): words split at spaces, `"..."` and `'...'`
 * group words with spaces (a path like "C:\Program Files\..."). Nothing else is interpreted.
 * `source` names where the command came from, for the error.
 */
export function parseBrowserCommand(text: string, source: string): string[] {
  if (SHELL_CHARACTERS.test(text)) {
    throw new BrowserCommandError(`${source} is run as a program with arguments, never by a shell: remove ; & | $ \` < > and line breaks from it.`);
  }
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = undefined;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new BrowserCommandError(`${source} has an unclosed ${quote} quote.`);
  if (inWord) words.push(word);
  if (words.length === 0 || words[0] === '') throw new BrowserCommandError(`${source} is empty: give the program that opens a web page, as in --browser firefox.`);
  return words;
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
