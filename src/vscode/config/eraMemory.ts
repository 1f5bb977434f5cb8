import type * as vscode from 'vscode';
import type { ServerDefinition } from '../../core/config/serverConfig';
import { rememberedEra } from '../../core/connection/eraMemory';
import type { EraMemory } from '../../core/connection/serverConnection';

/** The protocol era a launch's answer to the probe showed at an earlier start, in extension state (core/connection/eraMemory.ts). */
export function eraMemoryFor(state: vscode.Memento, def: ServerDefinition): EraMemory {
  return rememberedEra({ get: (key) => state.get(key), set: (key, value) => void state.update(key, value) }, def);
}
