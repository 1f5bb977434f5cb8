/**
 * What "Add Server..." writes: a settings entry from a command line or a URL, and a name for it.
 * Pure functions, so the wizard's faces (VS Code input boxes, tests) only ask and show.
 */

/** The entry as it lands in `mcpToolHost.servers` (the same keys parseServers reads). */
export type NewServerEntry = { readonly command: string; readonly args: readonly string[] } | { readonly type: 'http'; readonly url: string };

/** Server names parseServers accepts (letters, digits, space, ".", "@", "_", "-"; at most 64). */
const NAME_PATTERN = /^[\w.@-][\w .@-]{0,63}$/;

/**
 * Splits a command line the way a POSIX shell would for plain words: whitespace separates,
 * single quotes keep everything, double quotes keep all but `\"` and `\\`, a backslash outside
 * quotes escapes the next character. Returns a string with the problem for an unclosed quote.
 */
export function splitCommandLine(text: string): string[] | string {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
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
  if (quote) return `The ${quote === '"' ? 'double' : 'single'} quote is not closed.`;
  if (inWord) words.push(word);
  return words;
}

/** The entry for a stdio command line, or the problem with it. */
export function entryFromCommandLine(text: string): NewServerEntry | string {
  const words = splitCommandLine(text.trim());
  if (typeof words === 'string') return words;
  if (words.length === 0) return 'Enter the command that starts the server, like: npx -y @modelcontextprotocol/server-everything';
  const [command, ...args] = words;
  return { command, args };
}

/** The entry for an http(s) URL, or the problem with it. */
export function entryFromUrl(text: string): NewServerEntry | string {
  const url = text.trim();
  if (!/^https?:\/\//i.test(url)) return 'The URL must start with http:// or https://';
  try {
    new URL(url);
  } catch {
    return 'This is not a valid URL.';
  }
  return { type: 'http', url };
}

/**
 * A short name from what the entry runs: the npm package or script without scope, version and
 * "mcp"/"server" decorations (`@scope/server-github@1.2` -> `github`), or the URL's host.
 */
export function suggestServerName(entry: NewServerEntry, taken: ReadonlySet<string> = new Set()): string {
  let base: string;
  if ('url' in entry) base = safeHost(entry.url);
  else {
    const words = [entry.command, ...entry.args].filter((w) => !w.startsWith('-'));
    const launchers = new Set(['npx', 'uvx', 'node', 'python', 'python3', 'deno', 'bun', 'bunx', 'pnpm', 'dlx', 'run', 'docker', 'uv', 'tool', 'pipx', '-m']);
    const subject = words.find((w, i) => i > 0 && !launchers.has(w)) ?? words[0] ?? 'server';
    const segments = subject.replace(/\\/g, '/').split('/').filter(Boolean);
    base = segments.pop() ?? subject;
    if (subject.startsWith('@') && subject.includes('/')) base = subject.slice(subject.indexOf('/') + 1);
    base = base.replace(/@[^@]*$/, '').replace(/\.(m?js|cjs|ts|py|exe)$/i, '');
    // `.../server-filesystem/dist/index.js` names the package by its folder, not by "index".
    if (GENERIC_FILES.has(base.toLowerCase())) base = [...segments].reverse().find((s) => !GENERIC_FOLDERS.has(s.toLowerCase())) ?? base;
    base = base.replace(/^(mcp[-_]server[-_]|server[-_]|mcp[-_])/i, '').replace(/([-_]mcp[-_]server|[-_]server|[-_]mcp)$/i, '') || base;
  }
  let name = base.replace(/[^\w .@-]/g, '-').replace(/^[ ]+/, '').slice(0, 60) || 'server';
  if (!NAME_PATTERN.test(name)) name = 'server';
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}-${n}`;
  return candidate;
}

/** Script names that say nothing about the server: the folder above names it. */
const GENERIC_FILES = new Set(['index', 'main', 'server', 'cli', 'app', 'start', 'run', 'mod', '__main__']);
/** Build and source folders between a package's folder and its script. */
const GENERIC_FOLDERS = new Set(['dist', 'build', 'lib', 'out', 'src', 'bin', 'esm', 'cjs', 'target', 'release']);

/** The problem with a name the user typed, or undefined when it can be used. */
export function checkServerName(name: string, taken: ReadonlySet<string>): string | undefined {
  if (!NAME_PATTERN.test(name)) return 'Use letters, digits, spaces, ".", "@", "_" and "-" (at most 64), not starting with a space.';
  if (taken.has(name)) return `Your settings already have a server named "${name}"; pick another name.`;
  return undefined;
}

function safeHost(url: string): string {
  try {
    return new URL(url).hostname.replace(/^(www|mcp|api)\./, '').split('.')[0] || 'remote';
  } catch {
    return 'remote';
  }
}
