import type * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { launchKey, type ServerDefinition } from '../../core/config/serverConfig';
import type { ToolCache } from '../../core/connection/toolCatalog';

/**
 * The last-known tool list of a server, in extension state, keyed by the server's name and
 * launch (a different launch may offer different tools), so the tree shows tools at once.
 */
export function toolCacheFor(state: vscode.Memento, def: ServerDefinition): ToolCache {
  const key = `toolCache:${def.name}:${launchKey(def.spec)}`;
  return {
    load: () => state.get<Tool[]>(key),
    save: (tools) => void state.update(key, tools),
  };
}
