import { createHash } from 'node:crypto';
import { ConfigError } from '../errors';
import { shownName } from '../render/sanitize';
import type { OAuthSettings } from './oauthConfig';
import type { SandboxSettings } from './sandboxConfig';
import type { DevSettings } from './devConfig';
import { loadConfigOptions } from './load';
import { MAX_RESULT_TOKENS, MIN_RESULT_TOKENS } from '../resultTokens';

/** Where a definition came from: user settings are trusted more than a workspace's. */
export type ConfigSource = 'user' | 'workspace';

export interface StdioServerSpec {
  readonly type: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** A null value removes the variable from the inherited environment. */
  readonly env: Readonly<Record<string, string | null>>;
  /** A .env file read at launch; `env` overrides it. */
  readonly envFile?: string;
  readonly cwd?: string;
  /** What its process may read, write and reach (sandboxConfig.ts); false: explicitly unsandboxed; absent: not configured. */
  readonly sandbox?: SandboxSettings | false;
  /** Dev mode for the server's author (devConfig.ts): restart on a change of its files, a debugger attached. Part of the launch: a change asks again. */
  readonly dev?: DevSettings;
}

export interface HttpServerSpec {
  readonly type: 'http';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** How OAuth credentials are obtained (oauthConfig.ts); absent: sign in with a dynamically registered client. */
  readonly oauth?: OAuthSettings;
}

/** How a server is reached: everything that decides what runs (or where it connects). */
export type ServerSpec = StdioServerSpec | HttpServerSpec;

/** One configured server, validated; variables are not yet substituted. */
export interface ServerDefinition {
  readonly name: string;
  readonly source: ConfigSource;
  readonly spec: ServerSpec;
  readonly disabled: boolean;
  readonly timeoutSeconds: number;
  readonly maxTotalTimeoutSeconds: number;
  /** Per-tool overrides of timeoutSeconds, by tool name. */
  readonly toolTimeouts?: Readonly<Record<string, number>>;
  /** Tokens one result may put before a model, for every tool of the server (chat's default when absent). */
  readonly resultTokens?: number;
  /** Per-tool overrides of resultTokens, by tool name. */
  readonly toolResultTokens?: Readonly<Record<string, number>>;
  readonly trustAnnotations: boolean;
  /** What the server is told of the user's folders (roots.ts); absent: decided from the launch. */
  readonly roots?: 'workspace' | 'none' | readonly string[];
  /** The file (or settings) the definition came from: a workspace server's `${input:}` values belong to it. */
  readonly declaredIn?: DeclaredIn;
  /** The `inputs` its file declares: how to ask for each `${input:id}`. */
  readonly inputs?: readonly InputSpec[];
  /**
   * A workspace's definition that takes the place of the user's own server of the same name
   * (workspace settings win over user settings): the launch prompt says so, and whether the
   * user's ran in a sandbox.
   */
  readonly replaces?: { readonly sandboxed: boolean };
}

/** Where definitions were declared: `id` tells places apart (a path), `label` names it for the user. */
export interface DeclaredIn {
  readonly id: string;
  readonly label: string;
}

/**
 * An `inputs` entry of VS Code's `mcp.json`: what to ask the user for an `${input:id}`.
 * Resolution happens at launch; here we only carry the specs through.
 */
export interface InputSpec {
  readonly id: string;
  readonly type: string;
  readonly description?: string;
  readonly password?: boolean;
  readonly default?: string;
  readonly options?: readonly string[];
}

export const DEFAULT_TIMEOUT_SECONDS = 60;
export const DEFAULT_MAX_TOTAL_TIMEOUT_SECONDS = 600;

/** The keys a server entry may have (our format; other hosts' entries are converted to these). */
export const SERVER_ENTRY_KEYS: ReadonlySet<string> = new Set(['type', 'command', 'args', 'env', 'envFile', 'cwd', 'url', 'headers', 'disabled', 'timeoutSeconds', 'maxTotalTimeoutSeconds', 'toolTimeouts', 'resultTokens', 'toolResultTokens', 'trustAnnotations', 'roots', 'oauth', 'sandbox', 'dev']);

export interface ParsedServers {
  readonly servers: ServerDefinition[];
  readonly errors: ConfigError[];
  /** What was read but not honoured (a workspace entry trusting itself). */
  readonly warnings: readonly string[];
}

export interface ParseOptions {
  /**
   * The workspace servers whose tool hints the user trusts, by name (user settings
   * `mcpToolHost.trustedWorkspaceServers`; the CLI's --trust-config trusts a whole file).
   * A workspace entry's own `trustAnnotations` is never honoured: a repository cannot vouch for itself.
   */
  readonly trustedWorkspaceServers?: readonly string[];
  /** Where the definitions are declared, and the `inputs` declared there. */
  readonly declaredIn?: DeclaredIn;
  readonly inputs?: readonly InputSpec[];
}

/**
 * Validates the `mcpToolHost.servers` object. Each broken entry yields its own specific error
 * and is skipped; the others still load.
 */
export function parseServers(raw: unknown, source: ConfigSource, options: ParseOptions = {}): ParsedServers {
  const servers: ServerDefinition[] = [];
  const errors: ConfigError[] = [];
  const warnings: string[] = [];
  if (raw === undefined || raw === null) return { servers, errors, warnings };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { servers, errors: [new ConfigError('(all)', 'mcpToolHost.servers must be an object mapping names to server definitions.')], warnings };
  }
  for (const [name, entry] of Object.entries(raw)) {
    try {
      const def = parseEntry(name, entry, source, options);
      servers.push(def);
      if (def.resultTokens !== undefined || def.toolResultTokens !== undefined) warnings.push(...loadConfigOptions().budgetWarnings(name, def, { min: MIN_RESULT_TOKENS, max: MAX_RESULT_TOKENS }, shownName));
      if (source === 'workspace' && (entry as { trustAnnotations?: unknown }).trustAnnotations === true && !def.trustAnnotations) {
        warnings.push(`Server "${shownName(name)}": "trustAnnotations" in a workspace definition is ignored (a workspace cannot trust its own tools). To trust its tool hints, add "${shownName(name)}" to mcpToolHost.trustedWorkspaceServers in your user settings.`);
      }
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      errors.push(err);
    }
  }
  return { servers, errors, warnings };
}

function parseEntry(name: string, entry: unknown, source: ConfigSource, options: ParseOptions): ServerDefinition {
  const fail = (message: string): never => {
    throw new ConfigError(name, message, shownName(name));
  };
  if (!/^[\w.@-][\w .@-]{0,63}$/.test(name)) fail('names may use letters, digits, spaces, ".", "@", "_" and "-" (at most 64).');
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return fail('the definition must be an object.');
  const e = entry as Record<string, unknown>;
  const unknown = Object.keys(e).filter((k) => !SERVER_ENTRY_KEYS.has(k));
  if (unknown.length) fail(`unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${shownName(k)}"`).join(', ')}.`);

  const type = e.type ?? (e.url !== undefined && e.command === undefined ? 'http' : 'stdio');
  if (type !== 'stdio' && type !== 'http') fail(`"type" must be "stdio" or "http", not ${JSON.stringify(type)}.`);
  const optionalString = (key: string): string | undefined => {
    if (e[key] === undefined) return undefined;
    if (typeof e[key] !== 'string') fail(`"${key}" must be a string.`);
    return e[key] as string;
  };
  const stringMap = (key: string, allowNull: boolean): Record<string, string | null> => {
    const v = e[key];
    if (v === undefined) return {};
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail(`"${key}" must be an object of strings.`);
    for (const [k, val] of Object.entries(v)) {
      if (typeof val !== 'string' && !(allowNull && val === null)) fail(`"${key}.${shownName(k)}" must be a string${allowNull ? ' or null' : ''}.`);
    }
    return v as Record<string, string | null>;
  };
  const seconds = (key: string, fallback: number): number => {
    const v = e[key];
    if (v === undefined) return fallback;
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) fail(`"${key}" must be a positive number of seconds.`);
    return v as number;
  };
  const flag = (key: string, fallback: boolean): boolean => {
    if (e[key] === undefined) return fallback;
    if (typeof e[key] !== 'boolean') fail(`"${key}" must be true or false.`);
    return e[key] as boolean;
  };

  const declaredTrust = flag('trustAnnotations', source === 'user');
  let spec: ServerSpec;
  if (type === 'stdio') {
    const command = optionalString('command');
    if (!command || !command.trim()) fail('"command" is required for a stdio server (for example "npx").');
    const args = e.args ?? [];
    if (!Array.isArray(args) || args.some((a) => typeof a !== 'string')) fail('"args" must be an array of strings.');
    if (e.oauth !== undefined) fail('"oauth" is for http servers (a stdio server gets its credentials through "env").');
    // `dev` last and only when given: the fingerprints of launches without it stay what they were.
    spec = { type: 'stdio', command: command!, args: args as string[], env: stringMap('env', true), envFile: optionalString('envFile'), cwd: optionalString('cwd'), ...(e.sandbox !== undefined && { sandbox: loadConfigOptions().parseSandbox(e.sandbox, fail) }), ...(e.dev !== undefined && { dev: loadConfigOptions().parseDev(e.dev, fail) }) };
  } else {
    const url = optionalString('url');
    if (!url) return fail('"url" is required for an http server.');
    if (e.sandbox !== undefined) fail('"sandbox" is for stdio servers: a remote server runs on another machine.');
    if (e.dev !== undefined) fail('"dev" is for stdio servers.');
    if (!/^https?:\/\//i.test(url)) fail(`"url" must start with http:// or https:// (got "${url}").`);
    const headers = stringMap('headers', false) as Record<string, string>;
    if (e.oauth !== undefined && Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) fail('"oauth" and an Authorization header both say how to authenticate: keep one.');
    spec = { type: 'http', url, headers, ...(e.oauth !== undefined && { oauth: loadConfigOptions().parseOAuthSettings(e.oauth, fail) }) };
  }
  return {
    name,
    source,
    spec,
    disabled: flag('disabled', false),
    timeoutSeconds: seconds('timeoutSeconds', DEFAULT_TIMEOUT_SECONDS),
    maxTotalTimeoutSeconds: seconds('maxTotalTimeoutSeconds', DEFAULT_MAX_TOTAL_TIMEOUT_SECONDS),
    toolTimeouts: toolTimeouts(e.toolTimeouts, fail),
    // Budgets are read by a later part (budgetConfig.ts): most entries have none, and activation need not load it.
    ...((e.resultTokens !== undefined || e.toolResultTokens !== undefined) && loadConfigOptions().parseBudgets(e.resultTokens, e.toolResultTokens, fail)),
    // A workspace can say anything about its own tools: its hints are trusted only when the user says so.
    trustAnnotations: source === 'user' ? declaredTrust : options.trustedWorkspaceServers?.includes(name) === true,
    roots: rootsSetting(e.roots, fail),
    ...(options.declaredIn && { declaredIn: options.declaredIn }),
    ...(options.inputs && { inputs: options.inputs }),
  };
}

function rootsSetting(raw: unknown, fail: (m: string) => never): ServerDefinition['roots'] {
  if (raw === undefined) return undefined;
  if (raw === 'workspace' || raw === 'none') return raw;
  if (Array.isArray(raw) && raw.every((r) => typeof r === 'string' && r.trim() !== '')) return raw as string[];
  return fail('"roots" must be "workspace", "none", or a list of folders.');
}

function toolTimeouts(raw: unknown, fail: (m: string) => never): Record<string, number> | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('"toolTimeouts" must map tool names to seconds.');
  for (const [tool, v] of Object.entries(raw)) {
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) fail(`"toolTimeouts.${tool}" must be a positive number of seconds.`);
  }
  return raw as Record<string, number>;
}


/**
 * The one answer to "has this server's launch changed?": the SHA-256 (hex) of the spec as
 * written (command, args, env, envFile, cwd; or url, headers), before variables are substituted.
 * Equal specs give equal fingerprints; a change of timeouts or trust does not count.
 *
 * It is persisted: the workspace launch approval stores it whole, and the tool cache and the
 * definition pins key their extension state on its first 16 digits. Changing what goes in
 * (or the key order of `parseEntry`'s spec) forgets every stored approval, cache and pin.
 */
export function launchFingerprint(spec: ServerSpec): string {
  let fingerprint = fingerprints.get(spec);
  if (fingerprint === undefined) {
    fingerprint = createHash('sha256').update(JSON.stringify(spec)).digest('hex');
    fingerprints.set(spec, fingerprint);
  }
  return fingerprint;
}

/** Specs are never changed once parsed: each is hashed once (verdicts ask for it per tool and per call). */
const fingerprints = new WeakMap<ServerSpec, string>();

/** The short form of a launch's fingerprint that keys extension state (tool cache, pins, grants). */
export function launchKey(spec: ServerSpec): string {
  return launchFingerprint(spec).slice(0, 16);
}

/** Whether two definitions launch the same thing (a change of any of these needs a restart). */
export function sameLaunch(a: ServerDefinition, b: ServerDefinition): boolean {
  // The roots change what the server may reach: a change restarts it, like a launch change.
  return a.disabled === b.disabled && launchFingerprint(a.spec) === launchFingerprint(b.spec) && JSON.stringify(a.roots) === JSON.stringify(b.roots);
}
