import * as vscode from 'vscode';
import { SECTION } from '../shared/section';

/** Over this many tools a request searches them: 40 real definitions are ~4,000 tokens (BENCHMARKS.md "Tool search"). */
export const DEFAULT_SEARCH_THRESHOLD = 40;

/** The `mcpToolHost.chat.*` settings, read once per request. */
export interface ChatSettings {
  /** Model requests per chat request (each may ask for tool calls). */
  readonly maxRounds: number;
  /** Tool calls per chat request; over it a call is refused and nothing is sent (a flood of calls from a model stops here). */
  readonly maxToolCalls: number;
  /** Over this many enabled tools the model gets `search_tools` instead of every tool (0: always search). */
  readonly searchThreshold: number;
  /** Servers whose tools chat may use; empty: every server. */
  readonly enabledServers: readonly string[];
  /** Tools chat must not use: `server/tool`, or `tool` on any server. */
  readonly disabledTools: readonly string[];
}

export function readChatSettings(): ChatSettings {
  const config = vscode.workspace.getConfiguration(`${SECTION}.chat`);
  const positive = (key: string, fallback: number) => Math.max(1, Math.floor(config.get<number>(key, fallback)) || fallback);
  const strings = (key: string) => (config.get<unknown[]>(key, []) ?? []).filter((s): s is string => typeof s === 'string');
  return {
    maxRounds: positive('maxRounds', 10),
    maxToolCalls: positive('maxToolCalls', 25),
    searchThreshold: Math.max(0, Math.floor(config.get<number>('searchThreshold', DEFAULT_SEARCH_THRESHOLD)) || 0),
    enabledServers: strings('enabledServers'),
    disabledTools: strings('disabledTools'),
  };
}

/** Whether chat may use this server's tools at all. */
export function serverEnabled(settings: ChatSettings, server: string): boolean {
  return settings.enabledServers.length === 0 || settings.enabledServers.includes(server);
}

/** Whether chat may use this tool (its server enabled, the tool not disabled). */
export function toolEnabled(settings: ChatSettings, server: string, tool: string): boolean {
  return serverEnabled(settings, server) && !settings.disabledTools.includes(`${server}/${tool}`) && !settings.disabledTools.includes(tool);
}
