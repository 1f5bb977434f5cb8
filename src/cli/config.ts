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
 * Reads --config in any supported format (see detectAndConvert). Servers count as the user's
 * own (annotations trusted): the user chose the file. A file that is missing or unparseable,
 * or that holds no usable server, is a CliError (exit 2) whose message names the file.
 */
export function loadConfig(file: string | undefined): LoadedConfig {
  if (!file) throw new CliError('--config FILE is required.', 2, true);
  const result = readServerFile(path.resolve(file), 'user', file);
  if (!result) throw new CliError(`Config file "${file}" does not exist.`);
  const fileLevel = result.errors.find((e) => e instanceof ConfigFileError && e.serverName === e.file);
  if (fileLevel) throw new CliError(`Config error: ${fileLevel.message}`);
  if (result.servers.length === 0 && result.errors.length === 0) throw new CliError(`Config error: ${file} defines no servers.`);
  return { file, servers: result.servers, errors: result.errors, warnings: result.warnings };
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
