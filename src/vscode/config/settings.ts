import * as vscode from 'vscode';
import { createHash } from 'node:crypto';
import { parseServers, type ParsedServers, type ServerDefinition } from '../../core/config/serverConfig';
import type { ConfigError } from '../../core/errors';
import type { RateLimit } from '../../core/policy/rateLimiter';
import { DEFAULT_MAX_TOOL_LIST_BYTES, DEFAULT_MAX_TOOLS, type ListingLimits } from '../../core/connection/listingLimits';
import { readWorkspaceServers } from './workspaceServers';
import { onIsSafer, saferOf, smallerIsSafer, type ScopedValues } from '../../core/policy/safetySettings';
import { SECTION } from '../shared/section';
import { loadConfigOptions } from '../../core/config/load';
import { DEFAULT_RESULTS_MAX_AGE_DAYS, DEFAULT_RESULTS_MAX_MIB, type ResultBudget } from '../../core/render/resultBudget';

export { SECTION };

/** Every configured server, plus what the workspace's mcp.json files add besides servers. */
export interface ServerSettings extends ParsedServers {
  /** Keys dropped from those files and name clashes between them: for a log, not errors. */
  readonly warnings: readonly string[];
}

/**
 * Reads `mcpToolHost.servers` from user and workspace settings separately, so each definition
 * knows its source (a workspace's servers are trusted less), and the servers of each folder's
 * `.vscode/mcp.json` and `.mcp.json` (source 'workspace'). Settings win over files on a name
 * clash; a workspace entry replaces a user entry of the same name; in an untrusted workspace,
 * workspace entries and files are ignored.
 */
export function readServerSettings(): ServerSettings {
  const inspected = vscode.workspace.getConfiguration(SECTION).inspect<unknown>('servers');
  const user = parseServers(inspected?.globalValue, 'user');
  const byName = new Map<string, ServerDefinition>(user.servers.map((s) => [s.name, s]));
  const errors: ConfigError[] = [...user.errors];
  const warnings: string[] = [...user.warnings];
  if (vscode.workspace.isTrusted) {
    const options = { trustedWorkspaceServers: trustedWorkspaceServers() };
    const files = readWorkspaceServers(options);
    for (const s of files.servers) {
      if (byName.has(s.name)) warnings.push(vscode.l10n.t('Server "{0}" of a workspace mcp.json is also in your settings, which win.', s.name));
      else byName.set(s.name, s);
    }
    errors.push(...files.errors);
    warnings.push(...files.warnings);
    const settingsOf = (scope: string) => ({ id: `${workspaceKey()} ${scope}`, label: scope });
    for (const [raw, scope] of [[inspected?.workspaceValue, 'workspace settings'], [inspected?.workspaceFolderValue, 'folder settings']] as const) {
      const ws = parseServers(raw, 'workspace', { ...options, declaredIn: settingsOf(scope) });
      for (const s of ws.servers) byName.set(s.name, s);
      errors.push(...ws.errors);
      warnings.push(...ws.warnings);
    }
  }
  // What the user's own servers would run as (the default sandbox too), to tell a replacement what it replaces.
  const users = new Map(sandboxByDefault(user.servers, []).map((s) => [s.name, s]));
  const replacing = (def: ServerDefinition): ServerDefinition => {
    const mine = def.source === 'workspace' ? users.get(def.name) : undefined;
    return mine ? { ...def, replaces: { sandboxed: mine.spec.type === 'stdio' && !!mine.spec.sandbox } } : def;
  };
  return { servers: sandboxByDefault([...byName.values()], warnings).map(replacing), errors, warnings };
}

/**
 * `mcpToolHost.sandbox.stdioByDefault`: every stdio server without a `sandbox` of its
 * own runs in the default sandbox. A workspace can turn it on, never off; under it, a workspace
 * server's `"sandbox": false` or `allowUnsandboxed` does not count (a repository only tightens).
 */
function sandboxByDefault(servers: ServerDefinition[], warnings: string[]): ServerDefinition[] {
  return saferOf(inspect('sandbox.stdioByDefault'), onIsSafer) ? loadConfigOptions().withDefaultSandbox(servers, warnings) : servers;
}

/** `mcpToolHost.sandbox.offlineIsClosedWorld`: the user's own choice only (it asks less), so a workspace's value is ignored. */
export function offlineSandboxClosed(): boolean {
  return inspect('sandbox.offlineIsClosedWorld')?.globalValue === true;
}

/** The open workspace, by its file or its folders: where its settings are declared. */
function workspaceKey(): string {
  const where = vscode.workspace.workspaceFile?.toString() ?? (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()).join('|');
  return createHash('sha256').update(where).digest('hex').slice(0, 16);
}

/**
 * `mcpToolHost.trustedWorkspaceServers`: the workspace servers whose tool hints the user trusts.
 * Only the user's own value counts (a repository must not vouch for its own servers), whatever
 * a workspace's settings say.
 */
export function trustedWorkspaceServers(): string[] {
  const value = vscode.workspace.getConfiguration(SECTION).inspect<unknown>('trustedWorkspaceServers')?.globalValue;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** `mcpToolHost.output.maxResultChars`: longer results are cut in the output channel and saved whole to a file. */
export function maxResultChars(): number {
  return vscode.workspace.getConfiguration(SECTION).get<number>('output.maxResultChars', 200_000);
}

/**
 * `mcpToolHost.results.maxSize` (MiB) and `.maxAgeDays`: what the folder of saved results may hold.
 * The user's own values only: the folder serves every workspace, so no repository sets it.
 */
export function resultsBudget(): ResultBudget {
  const own = (key: string, fallback: number) => {
    const value = renamed(key).globalValue;
    return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? value : fallback;
  };
  return { maxBytes: own('results.maxSize', DEFAULT_RESULTS_MAX_MIB) * 1024 * 1024, maxAgeMs: own('results.maxAgeDays', DEFAULT_RESULTS_MAX_AGE_DAYS) * 24 * 3600_000 };
}

// The safety settings below are read with `saferOf`: a workspace's value can only make them safer.
const inspect = (key: string) => vscode.workspace.getConfiguration(SECTION).inspect<unknown>(key);

/** Renamed settings, new key to old: VS Code titled "maxMessageMiB" "Max Message Mi B". */
export const RENAMED: Readonly<Record<string, string>> = { maxMessageSize: 'maxMessageMiB', maxToolListSize: 'maxToolListMiB', 'results.maxSize': 'results.maxMiB' };

/** A renamed setting's values: in each scope the new key's, else the old key's (still honoured; package.json marks it deprecated). */
function renamed(key: string): ScopedValues {
  const now = inspect(key);
  const was = inspect(RENAMED[key] ?? key);
  return Object.fromEntries((['globalValue', 'workspaceValue', 'workspaceFolderValue'] as const).map((s) => [s, now?.[s] ?? was?.[s]]));
}

/** `mcpToolHost.rateLimit.*`: the token bucket of tool calls (read on each call, so a change applies at once). */
export function rateLimit(): RateLimit {
  return { burst: saferOf(inspect('rateLimit.burst'), smallerIsSafer(20, 1)), perSecond: saferOf(inspect('rateLimit.perSecond'), smallerIsSafer(10, 0.1)) };
}

/** `mcpToolHost.approveAllCalls`: ask before every call. */
export function approveAllCalls(): boolean {
  return saferOf(inspect('approveAllCalls'), onIsSafer);
}

/** `mcpToolHost.maxMessageSize` (MiB): the largest single message a stdio server may send, in bytes. */
export function maxMessageBytes(): number {
  return saferOf(renamed('maxMessageSize'), smallerIsSafer(64, 1)) * 1024 * 1024;
}

/** `mcpToolHost.maxResourceSize` (MiB): the most one read of a resource may bring, in bytes. */
export function maxResourceBytes(): number {
  return saferOf(inspect('maxResourceSize'), smallerIsSafer(64, 1)) * 1024 * 1024;
}

/** `mcpToolHost.maxToolsPerServer` and `mcpToolHost.maxToolListSize` (MiB): how much one server's tool list may hold. */
export function listingLimits(): ListingLimits {
  return {
    maxTools: saferOf(inspect('maxToolsPerServer'), smallerIsSafer(DEFAULT_MAX_TOOLS, 1)),
    maxBytes: saferOf(renamed('maxToolListSize'), smallerIsSafer(DEFAULT_MAX_TOOL_LIST_BYTES / (1024 * 1024), 1)) * 1024 * 1024,
  };
}

/** What `mcpToolHost.gateway.tools` may say: every tool, or only the search and call pair. */
export type GatewayToolMode = 'all' | 'search';

/**
 * `mcpToolHost.gateway.enabled` and `.tools`: whether VS Code's own MCP client may reach our servers
 * through the gateway, and what it offers. The user's own values only: turning it on opens a port on
 * this machine, which no repository's settings may do.
 */
export function gatewaySettings(): { readonly enabled: boolean; readonly tools: GatewayToolMode } {
  const tools = inspect('gateway.tools')?.globalValue;
  return { enabled: inspect('gateway.enabled')?.globalValue === true, tools: tools === 'search' ? 'search' : 'all' };
}
