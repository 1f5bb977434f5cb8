import * as path from 'node:path';
import type { ParseErrorCode } from 'jsonc-parser';
import { ConfigError } from '../errors';
import { shownName } from '../render/sanitize';
import { SERVER_ENTRY_KEYS, type InputSpec } from './serverConfig';

export type { InputSpec } from './serverConfig';
import { loadConfigOptions } from './load';
import { loadJsonc } from '../packages/load';

/** Which file format a configuration was written in. */
export type ConfigFormat = 'mcpToolHost' | 'vscode' | 'claude';

/** A configuration file turned into the raw shape `parseServers()` accepts. */
export interface ConvertedConfig {
  readonly servers: Record<string, unknown>;
  readonly inputs: InputSpec[];
  /** Things we dropped or could not carry over; the servers still load without them. */
  readonly warnings: string[];
  readonly format: ConfigFormat;
}

/** A whole configuration file is unusable (bad JSON, no servers); `file` names it. */
export class ConfigFileError extends ConfigError {
  constructor(readonly file: string, message: string, serverName = file) {
    super(serverName, message);
    // ConfigError says "Server ...": a file-level problem must name the file instead.
    this.message = `${file}: ${message}`;
  }
}

/** Keys our own definition understands (see serverConfig.ts); anything else from a foreign format is dropped. */

/** Transport names other hosts use for what our `http` transport speaks (it falls back to SSE). */
const HTTP_TYPES = new Set(['http', 'sse', 'streamable-http', 'streamableHttp']);

/** Variables that mean the same in our syntax; any other bare `${NAME}` in a Claude file is an environment variable. */
const OUR_BARE_VARIABLES = new Set(['workspaceFolder', 'userHome', 'pathSeparator']);

/**
 * Reads a configuration file of any supported format (JSONC: comments and trailing commas are
 * fine): our `{"servers": {...}}`, a settings.json with `"mcpToolHost.servers"`, VS Code's
 * `mcp.json` (`servers` + `inputs`), or the `{"mcpServers": {...}}` of Claude Desktop, Claude
 * Code's `.mcp.json` and Cursor. Throws a ConfigFileError with line and column when the text
 * does not parse or holds no servers.
 */
export function detectAndConvert(text: string, fileName: string): ConvertedConfig {
  const found = serversSection(text, fileName);
  // A settings.json's other settings (rules, approve-all) are VS Code's: not read here, and said so.
  const unread = found.unread ?? [];
  const warnings = unread.length > 0 ? [`${unread.map((k) => `"${shownName(k)}"`).join(', ')} ${unread.length > 1 ? 'are' : 'is'} not read from this file: only "mcpToolHost.servers" is (give the CLI its rules with --rules FILE).`] : [];
  return found.format === 'mcpToolHost' ? { servers: found.servers, inputs: [], warnings, format: 'mcpToolHost' } : convertForeign(found.servers, found.inputs, found.format, found.sandbox);
}

/**
 * The names of the servers a configuration file defines (any format detectAndConvert reads), and
 * nothing else of them: for a folder not trusted yet, whose definitions must not be used. Throws
 * the same ConfigFileError as detectAndConvert.
 */
export function serverNamesIn(text: string, fileName: string): string[] {
  return Object.keys(serversSection(text, fileName).servers);
}

/** Where a file keeps its servers, and in which format; the entries are not looked at. */
function serversSection(text: string, fileName: string): { servers: Record<string, unknown>; format: ConfigFormat; inputs?: unknown; sandbox?: unknown; unread?: string[] } {
  const root = parseJsonc(text, fileName);
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    throw new ConfigFileError(fileName, 'the file must hold a JSON object.');
  }
  const doc = root as Record<string, unknown>;
  if (doc['mcpToolHost.servers'] !== undefined) {
    const unread = Object.keys(doc).filter((k) => k.startsWith('mcpToolHost.') && k !== 'mcpToolHost.servers');
    return { servers: objectAt(doc['mcpToolHost.servers'], '"mcpToolHost.servers"', fileName), format: 'mcpToolHost', unread };
  }
  if (doc.mcpServers !== undefined) {
    return { servers: objectAt(doc.mcpServers, '"mcpServers"', fileName), format: 'claude' };
  }
  if (doc.servers !== undefined) {
    const servers = objectAt(doc.servers, '"servers"', fileName);
    return looksLikeVsCode(doc, servers, fileName) ? { servers, format: 'vscode', inputs: doc.inputs, sandbox: doc.sandbox } : { servers, format: 'mcpToolHost' };
  }
  // VS Code's user settings.json held MCP servers under "mcp" before mcp.json existed.
  if (typeof doc.mcp === 'object' && doc.mcp !== null && 'servers' in doc.mcp) {
    const section = doc.mcp as Record<string, unknown>;
    return { servers: objectAt(section.servers, '"mcp.servers"', fileName), format: 'vscode', inputs: section.inputs, sandbox: section.sandbox };
  }
  throw new ConfigFileError(fileName, 'no servers found: expected "servers" (ours or VS Code\'s mcp.json), "mcpServers" (Claude, Cursor) or "mcpToolHost.servers" (settings.json).');
}

/** Parses JSONC; the first syntax error becomes "line L, column C: what" (positions from jsonc-parser's visitor). */
function parseJsonc(text: string, fileName: string): unknown {
  if (text.trim() === '') throw new ConfigFileError(fileName, 'the file is empty.');
  const options = { allowTrailingComma: true, disallowComments: false };
  const { parse, printParseErrorCode, visit } = loadJsonc();
  const errors: { code: ParseErrorCode; line: number; column: number }[] = [];
  visit(text, { onError: (code, _offset, _length, line, column) => errors.push({ code, line, column }) }, options);
  const first = errors[0];
  if (first) {
    const what = printParseErrorCode(first.code).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
    throw new ConfigFileError(fileName, `line ${first.line + 1}, column ${first.column + 1}: ${what}.`);
  }
  return parse(text, [], options) as unknown;
}

function objectAt(value: unknown, what: string, fileName: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigFileError(fileName, `${what} must be an object mapping names to server definitions.`);
  }
  return value as Record<string, unknown>;
}

/** `{"servers": ...}` is both ours and VS Code's; the file name, `inputs` or VS Code-only values tell them apart. */
function looksLikeVsCode(doc: Record<string, unknown>, servers: Record<string, unknown>, fileName: string): boolean {
  if (path.basename(fileName).toLowerCase() === 'mcp.json' || doc.inputs !== undefined) return true;
  return Object.values(servers).some((entry) => {
    if (typeof entry !== 'object' || entry === null) return false;
    const e = entry as Record<string, unknown>;
    return e.type === 'sse' || e.dev !== undefined;
  });
}

/** Converts VS Code or Claude-style entries into ours: `sse` becomes `http`, unknown keys are dropped with a warning. */
function convertForeign(entries: Record<string, unknown>, rawInputs: unknown, format: 'vscode' | 'claude', fileSandbox?: unknown): ConvertedConfig {
  const warnings: string[] = [];
  const servers: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(entries)) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      servers[name] = entry; // parseServers names the problem
      continue;
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(entry as Record<string, unknown>)) {
      // VS Code: "sandboxEnabled" runs the server under the file's top-level "sandbox" (sandboxConfig.ts fromVsCode).
      if (format === 'vscode' && key === 'sandboxEnabled') {
        if (value === true) out.sandbox = loadConfigOptions().fromVsCode(fileSandbox);
        else if (value !== false) out.sandbox = value; // parseServers names the problem
        continue;
      }
      if (!SERVER_ENTRY_KEYS.has(key)) {
        warnings.push(`Server "${shownName(name)}": ignored "${shownName(key)}" (not supported by MCP Tool Host).`);
        continue;
      }
      out[key] = key === 'env' ? stringifyEnv(value) : value;
    }
    if (typeof out.type === 'string' && HTTP_TYPES.has(out.type)) out.type = 'http';
    servers[name] = format === 'claude' ? claudeVariables(out) : out;
  }
  return { servers, inputs: format === 'vscode' ? parseInputs(rawInputs, warnings) : [], warnings, format };
}

/** VS Code allows numbers in `env`; ours takes strings (null still removes a variable). */
function stringifyEnv(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const env: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) env[k] = typeof v === 'number' || typeof v === 'boolean' ? String(v) : v;
  return env;
}

/** Claude Code expands `${VAR}` and `${VAR:-default}` from the environment; ours spells them `${env:VAR}` and `${env:VAR:-default}`. */
function claudeVariables(entry: Record<string, unknown>): Record<string, unknown> {
  const fix = (s: string): string =>
    s.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}/g, (whole, variable: string, fallback: string | undefined) => {
      if (OUR_BARE_VARIABLES.has(variable)) return whole;
      return `\${env:${variable}${fallback ?? ''}}`;
    });
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return fix(value);
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return walk(entry) as Record<string, unknown>;
}

function parseInputs(raw: unknown, warnings: string[]): InputSpec[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    warnings.push('"inputs" must be an array; it was ignored.');
    return [];
  }
  const inputs: InputSpec[] = [];
  for (const [i, item] of raw.entries()) {
    const e = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    if (typeof e.id !== 'string' || !e.id) {
      warnings.push(`inputs[${i}] has no "id"; it was ignored.`);
      continue;
    }
    const options = Array.isArray(e.options) ? e.options.map((o) => (typeof o === 'object' && o !== null && 'value' in o ? String(o.value) : String(o))) : undefined;
    inputs.push({
      id: e.id,
      type: typeof e.type === 'string' ? e.type : 'promptString',
      description: typeof e.description === 'string' ? e.description : undefined,
      password: typeof e.password === 'boolean' ? e.password : undefined,
      default: typeof e.default === 'string' ? e.default : undefined,
      options,
    });
  }
  return inputs;
}
