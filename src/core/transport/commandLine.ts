import * as fs from 'node:fs';
import * as path from 'node:path';

/** What to spawn, fully resolved: no variables left, environment complete. */
export interface StdioLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

const isWindows = process.platform === 'win32';

/**
 * Finds the executable the OS would run for `command`, searching the launch's own PATH (and
 * PATHEXT on Windows). Returns undefined when there is none, so the caller can say so plainly
 * instead of surfacing `spawn npx ENOENT`.
 */
export function resolveExecutable(command: string, env: Readonly<Record<string, string>>, cwd?: string): string | undefined {
  const exts = isWindows ? (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').map((e) => e.toLowerCase()) : [''];
  const candidates = (base: string) => (isWindows && path.extname(base) ? [base, ...exts.map((e) => base + e)] : exts.map((e) => base + e));
  if (command.includes('/') || (isWindows && command.includes('\\'))) {
    const base = path.resolve(cwd ?? process.cwd(), command);
    return candidates(base).find(isExecutableFile);
  }
  for (const dir of pathEntries(env)) {
    const hit = candidates(path.join(dir, command)).find(isExecutableFile);
    if (hit) return hit;
  }
  return undefined;
}

/** The PATH directories a launch searches, in order. */
export function pathEntries(env: Readonly<Record<string, string>>): string[] {
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
  return (env[key] ?? '').split(path.delimiter).filter(Boolean);
}

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (!isWindows) fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Hints for the usual reasons a launcher is missing (GUI apps often lack the shell's PATH). */
export function missingCommandHint(command: string): string {
  const name = path.basename(command).replace(/\.(cmd|exe|bat)$/i, '');
  if (['npx', 'node', 'npm'].includes(name)) {
    return 'Install Node.js, or give the full path to it (nvm users: `which ' + name + '` in a terminal); VS Code started from a desktop icon may not see the PATH your shell sets up.';
  }
  if (['uvx', 'uv', 'python', 'python3'].includes(name)) {
    return 'Install it (uv: https://docs.astral.sh/uv/) or give the full path to the executable.';
  }
  return 'Check the spelling, install it, or give its full path.';
}

/** Windows .cmd/.bat launchers (npx.cmd) need cmd.exe; quote every argument for it (CVE-2024-27980). */
export function needsShell(executable: string): boolean {
  return isWindows && /\.(cmd|bat)$/i.test(executable);
}

export function quoteForCmd(arg: string): string {
  if (arg === '') return '""';
  if (!/[\s"^&|<>%!()]/.test(arg)) return arg;
  return '"' + arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, '$1$1').replace(/[%!^&|<>()]/g, '^$&') + '"';
}

/** The exact command line, for logs and prompts: every argument visible, quoted where needed. */
export function formatCommandLine(command: string, args: readonly string[]): string {
  const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return [command, ...args].map(quote).join(' ');
}
