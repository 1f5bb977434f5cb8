import type * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { launchFingerprint, type ServerDefinition } from '../core/config/serverConfig';
import type { ToolCache } from '../core/connection/serverConnection';

/**
 * The last-known tool list of a server, in extension state, keyed by the server's name and
 * launch (a different launch may offer different tools), so the tree shows tools at once.
 */
export function toolCacheFor(state: vscode.Memento, def: ServerDefinition): ToolCache {
  const key = `toolCache:${def.name}:${launchFingerprint(def.spec).slice(0, 16)}`;
  return {
    load: () => state.get<Tool[]>(key),
    save: (tools) => void state.update(key, tools),
  };
}
