import * as fs from 'node:fs';
import * as path from 'node:path';
import { ConfigFileError } from '../core/config/formats';
import { readServerFile } from '../core/config/serverFiles';
import type { ServerDefinition } from '../core/config/serverConfig';
import type { ConfigError } from '../core/errors';
import { CliError } from './args';

/** The servers of a --config file, with what could not be used and what was dropped. */
export interface LoadedConfig {
  readonly file: string;
  readonly servers: readonly ServerDefinition[];
  readonly errors: readonly ConfigError[];
  readonly warnings: readonly string[];
}

/**
 * Reads --config in any supported format (see detectAndConvert). A file a repository carries
 * (`.vscode/mcp.json`, `.mcp.json`, anything inside a git work tree) is a workspace's, as in
 * VS Code: its servers' tool hints are not trusted, so every call asks (--yes). `trust`
 * (--trust-config) says the file is the user's own. A file that is missing or unparseable, or
 * that holds no usable server, is a CliError (exit 2) whose message names the file.
 */
export function loadConfig(file: string | undefined, options: { trust?: boolean; serving?: boolean } = {}): LoadedConfig {
  if (!file) throw new CliError('--config FILE is required.', 2, true);
  const resolved = path.resolve(file);
  const carried = options.trust ? undefined : carriedByRepository(resolved);
  const result = readServerFile(resolved, carried ? 'workspace' : 'user', file);
  if (!result) throw new CliError(`Config file "${file}" does not exist.`);
  const fileLevel = result.errors.find((e) => e instanceof ConfigFileError && e.serverName === e.file);
  if (fileLevel) throw new CliError(`Config error: ${fileLevel.message}`);
  if (result.servers.length === 0 && result.errors.length === 0) throw new CliError(`Config error: ${file} defines no servers.`);
  // `serve` takes no --yes: its calls ask the gateway's client (or an allow rule of the user's decides).
  const asks = options.serving ? "asks the gateway's client first (or an allow rule of yours decides)" : 'asks first (--yes to allow)';
  const untrusted = carried && `${file} ${carried}: its servers' tool hints are not trusted, so every call ${asks}. Pass --trust-config if the file is yours.`;
  return { file, servers: result.servers, errors: result.errors, warnings: untrusted ? [...result.warnings, untrusted] : result.warnings };
}

/** Why a config file counts as a repository's, or undefined when it does not. */
export function carriedByRepository(file: string): string | undefined {
  const parts = file.split(path.sep);
  if (path.basename(file) === '.mcp.json' || parts.at(-2) === '.vscode') return 'is a workspace file';
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, '.git'))) return `is inside the git repository at ${dir}`;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The servers a command works on: all, or the one named. Asking for a broken or unknown entry
 * is a CliError with that entry's own message.
 */
export function selectServers(config: LoadedConfig, name: string | undefined): readonly ServerDefinition[] {
  if (name === undefined) {
    if (config.servers.length === 0) throw new CliError(`Config error: no usable server in ${config.file}.\n${config.errors.map((e) => `  ${e.message}`).join('\n')}`);
    return config.servers;
  }
  const broken = config.errors.find((e) => e.serverName === name);
  if (broken) throw new CliError(`Config error: ${broken.message}`);
  const found = config.servers.filter((s) => s.name === name);
  if (found.length === 0) throw new CliError(`No server named "${name}" in ${config.file}. Configured: ${config.servers.map((s) => s.name).join(', ') || '(none)'}.`);
  return found;
}
