import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigError } from '../errors';
import { ConfigFileError, detectAndConvert, serverNamesIn, type ConfigFormat } from './formats';
import { parseServers, type ConfigSource, type ParsedServers, type ParseOptions, type ServerDefinition } from './serverConfig';
import { WORKSPACE_SERVER_FILES } from './serverFileNames';

export { WORKSPACE_SERVER_FILES };

/** Servers read from files (each with the `inputs` its file declares), and what was dropped on the way. */
export interface ServerFileResult extends ParsedServers {
  readonly warnings: string[];
}

/**
 * Reads one configuration file of any format (see detectAndConvert) into definitions of the
 * given source. Returns undefined when the file does not exist; every other problem (unreadable,
 * bad JSON, a broken entry) is a ConfigError that names `label`, and the good entries still load.
 */
export function readServerFile(file: string, source: ConfigSource, label = file, options: ParseOptions = {}): (ServerFileResult & { format?: ConfigFormat }) | undefined {
  const read = readSmallFile(file);
  if (read.kind === 'missing') return undefined;
  if (read.kind === 'unread') return { servers: [], errors: [new ConfigFileError(label, read.why)], warnings: [] };
  const text = read.text;
  try {
    const converted = detectAndConvert(text, label);
    const parsed = parseServers(converted.servers, source, { ...options, declaredIn: { id: path.resolve(file), label }, inputs: converted.inputs });
    return {
      servers: parsed.servers,
      errors: parsed.errors.map((e) => new ConfigFileError(label, e.message, e.serverName)),
      warnings: [...converted.warnings, ...parsed.warnings].map((w) => `${label}: ${w}`),
      format: converted.format,
    };
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return { servers: [], errors: [err], warnings: [] };
  }
}

/**
 * Reads `.vscode/mcp.json` and `.mcp.json` of every folder as workspace servers (their
 * annotations untrusted by default). On a name clash the first file wins, with a warning.
 */
export function readWorkspaceServerFiles(folders: readonly { name: string; path: string }[], options: ParseOptions = {}): ServerFileResult {
  const byName = new Map<string, { def: ServerDefinition; label: string }>();
  const errors: ConfigError[] = [];
  const warnings: string[] = [];
  for (const folder of folders) {
    for (const rel of WORKSPACE_SERVER_FILES) {
      const label = `${folder.name}/${rel}`;
      const result = readServerFile(path.join(folder.path, rel), 'workspace', label, options);
      if (!result) continue;
      errors.push(...result.errors);
      warnings.push(...result.warnings);
      for (const def of result.servers) {
        const earlier = byName.get(def.name);
        if (earlier) warnings.push(`${label}: server "${def.name}" is also defined in ${earlier.label}, which is used.`);
        else byName.set(def.name, { def, label });
      }
    }
  }
  return { servers: [...byName.values()].map((e) => e.def), errors, warnings };
}

/** A server file past this is not read (a repository could make the window wait on a huge one). */
export const MAX_SERVER_FILE_BYTES = 1024 * 1024;

/** What the server files of folders not trusted yet define, by name only. */
export interface DefinedServerNames {
  /** Each server's name once, in the order a trusted workspace would load them. */
  readonly names: readonly string[];
  /** Files that are there but whose names could not be read (too large, not JSON, no servers): they may still define some. */
  readonly unread: readonly string[];
}

/**
 * The names of the servers each folder's `.vscode/mcp.json` and `.mcp.json` define, for a
 * workspace that is not trusted: only the names are read, no entry is parsed, no variable resolved.
 */
export function readWorkspaceServerNames(folders: readonly { name: string; path: string }[]): DefinedServerNames {
  const names = new Set<string>();
  const unread: string[] = [];
  for (const folder of folders) {
    for (const rel of WORKSPACE_SERVER_FILES) {
      const label = `${folder.name}/${rel}`;
      const read = readSmallFile(path.join(folder.path, rel));
      if (read.kind === 'missing') continue;
      try {
        if (read.kind === 'unread') throw new Error(read.why);
        for (const name of serverNamesIn(read.text, label)) names.add(name);
      } catch {
        unread.push(label);
      }
    }
  }
  return { names: [...names], unread };
}

/**
 * A server file's text, read only when it is a regular file within MAX_SERVER_FILE_BYTES. Opened
 * without blocking and checked on the open file: a repository's named pipe (or a file swapped for
 * one after a check) never makes the window wait, and a device or a huge file is not read.
 */
function readSmallFile(file: string): { kind: 'text'; text: string } | { kind: 'missing' } | { kind: 'unread'; why: string } {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? { kind: 'missing' } : { kind: 'unread', why: `cannot be read (${code ?? String(err)}).` };
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { kind: 'unread', why: 'is not a regular file: not read.' };
    if (stat.size > MAX_SERVER_FILE_BYTES) return { kind: 'unread', why: `is larger than ${MAX_SERVER_FILE_BYTES / (1024 * 1024)} MiB: not read.` };
    return { kind: 'text', text: fs.readFileSync(fd, 'utf8') };
  } catch (err) {
    return { kind: 'unread', why: `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)}).` };
  } finally {
    fs.closeSync(fd);
  }
}
