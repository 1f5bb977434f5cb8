import { launchKey, type ServerDefinition } from '../config/serverConfig';
import type { EraMemory } from './serverConnection';

/** How long a launch's era is trusted: a server that gains the 2026-07-28 revision is probed again within a day (a start without the probe does not renew it). */
export const ERA_KEPT_MS = 24 * 60 * 60 * 1000;

/** Where remembered eras are kept: the extension's state, or a file of the CLI's. */
export interface EraStore {
  get(key: string): unknown;
  set(key: string, value: { era: 'modern' | 'legacy'; at: number }): void;
}

/** The protocol era a launch's answer to the probe showed at an earlier start, keyed by name and launch; read back as untrusted. */
export function rememberedEra(store: EraStore, def: ServerDefinition, now: () => number = Date.now): EraMemory {
  const key = `protocolEra:${def.name}:${launchKey(def.spec)}`;
  return {
    load: () => {
      const kept = store.get(key) as { era?: unknown; at?: unknown } | undefined;
      if (typeof kept?.at !== 'number' || now() - kept.at >= ERA_KEPT_MS) return undefined;
      return kept.era === 'modern' || kept.era === 'legacy' ? kept.era : undefined;
    },
    save: (era) => store.set(key, { era, at: now() }),
  };
}
