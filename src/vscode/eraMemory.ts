import type * as vscode from 'vscode';
import { launchKey, type ServerDefinition } from '../core/config/serverConfig';
import type { EraMemory } from '../core/connection/serverConnection';

/** How long a launch's era is trusted: a server that gains the 2026-07-28 revision is probed again within a day. */
const ERA_KEPT_MS = 24 * 60 * 60 * 1000;

/** The protocol era a launch spoke at its last start, in extension state, keyed by name and launch. */
export function eraMemoryFor(state: vscode.Memento, def: ServerDefinition): EraMemory {
  const key = `protocolEra:${def.name}:${launchKey(def.spec)}`;
  return {
    load: () => {
      const kept = state.get<{ era: 'modern' | 'legacy'; at: number }>(key);
      return kept && Date.now() - kept.at < ERA_KEPT_MS ? kept.era : undefined;
    },
    save: (era) => void state.update(key, { era, at: Date.now() }),
  };
}
