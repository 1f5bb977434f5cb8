import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { formatCommandLine } from '../transport/commandLine';
import { detectAndConvert } from './formats';
import { parseServers } from './serverConfig';

/** A configuration file of another MCP host that servers can be imported from. */
export interface ImportSource {
  /** What the user sees, e.g. "Claude Desktop". */
  readonly label: string;
  readonly file: string;
}

/**
 * Where other hosts keep their MCP servers on this platform: Claude Desktop, Cursor and VS Code
 * (stable and Insiders) user `mcp.json`. Pure (platform, home and environment are given), so
 * every platform's paths can be tested anywhere. The files may or may not exist.
 */
export function importSources(platform: NodeJS.Platform, homedir: string, env: Readonly<Record<string, string | undefined>>): ImportSource[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const appData = userDataDir(platform, homedir, env);
  return [
    { label: 'Claude Desktop', file: p.join(appData, 'Claude', 'claude_desktop_config.json') },
    { label: 'Cursor', file: p.join(homedir, '.cursor', 'mcp.json') },
    { label: 'VS Code', file: p.join(appData, 'Code', 'User', 'mcp.json') },
    { label: 'VS Code Insiders', file: p.join(appData, 'Code - Insiders', 'User', 'mcp.json') },
  ];
}

/** The per-user application data folder: %APPDATA%, ~/Library/Application Support, or $XDG_CONFIG_HOME (~/.config). */
function userDataDir(platform: NodeJS.Platform, homedir: string, env: Readonly<Record<string, string | undefined>>): string {
  switch (platform) {
    case 'win32':
      return env.APPDATA || path.win32.join(homedir, 'AppData', 'Roaming');
    case 'darwin':
      return path.posix.join(homedir, 'Library', 'Application Support');
    default:
      // XDG says a relative XDG_CONFIG_HOME is invalid and must be ignored.
      return env.XDG_CONFIG_HOME && path.posix.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.posix.join(homedir, '.config');
  }
}

/** One server found in another host's configuration, converted to our settings' shape. */
export interface ImportCandidate {
  readonly source: ImportSource;
  readonly name: string;
  /** The entry as `mcpToolHost.servers` takes it. */
  readonly entry: Record<string, unknown>;
  /** The exact command line or URL, variables unresolved; env values and headers stay out (secrets). */
  readonly launch: string;
  /** What the conversion dropped from this entry. */
  readonly warnings: readonly string[];
  /** Why the entry cannot be imported as it is, or undefined. */
  readonly error?: string;
}

/**
 * Reads every source that exists and lists its servers. A missing file is skipped; a broken
 * one is reported in `problems` (its message names the file).
 */
export async function scanImportSources(
  sources: readonly ImportSource[],
  readFile: (file: string) => Promise<string> = (file) => fs.readFile(file, 'utf8'),
): Promise<{ candidates: ImportCandidate[]; problems: string[] }> {
  const candidates: ImportCandidate[] = [];
  const problems: string[] = [];
  for (const source of sources) {
    let text: string;
    try {
      text = await readFile(source.file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') problems.push(`${source.file}: cannot be read (${code ?? String(err)}).`);
      continue;
    }
    try {
      const converted = detectAndConvert(text, source.file);
      for (const [name, raw] of Object.entries(converted.servers)) {
        const entry = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
        const error = parseServers({ [name]: raw }, 'user').errors[0]?.message;
        const warnings = converted.warnings.filter((w) => w.startsWith(`Server "${name}":`));
        candidates.push({ source, name, entry, launch: launchLine(entry), warnings, error });
      }
    } catch (err) {
      problems.push(err instanceof Error ? err.message : String(err));
    }
  }
  return { candidates, problems };
}

function launchLine(entry: Record<string, unknown>): string {
  if (typeof entry.command === 'string') {
    const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
    const env = entry.env && typeof entry.env === 'object' ? Object.keys(entry.env) : [];
    return formatCommandLine(entry.command, args) + (env.length ? `  (env: ${env.join(', ')})` : '');
  }
  return typeof entry.url === 'string' ? entry.url : '(no command or url)';
}
