import type { Tool } from '@modelcontextprotocol/client';
import { changedParts, pinTool, type PinnedDefinition, type ToolPin } from './toolPin';

/** What is remembered per server: the definition of each tool, and the server's instructions, as first seen or last accepted. */
export interface ServerPins {
  readonly tools: Record<string, ToolPin>;
  readonly instructions?: string;
}

export interface PinPersistence {
  load(server: string): ServerPins | undefined;
  save(server: string, pins: ServerPins): void;
}

export interface DefinitionChange {
  readonly tool: string;
  readonly parts: readonly string[];
  readonly before: PinnedDefinition;
}

export interface PinReview {
  /** Tools whose definition differs from the accepted one (new tools are pinned silently: trust on first use). */
  readonly changed: readonly DefinitionChange[];
  readonly instructionsChanged: boolean;
}

/**
 * Trust on first use for tool definitions: the first listing of a server is remembered; any
 * later difference (description, schemas, annotations, title, or the server's instructions) is
 * reported until the user accepts it, so a server cannot quietly change what a tool claims.
 */
export class DefinitionPins {
  constructor(private readonly _persistence: PinPersistence) {}

  review(server: string, tools: readonly Tool[], instructions: string | undefined): PinReview {
    const pins = this._persistence.load(server);
    if (!pins) {
      this.accept(server, tools, instructions);
      return { changed: [], instructionsChanged: false };
    }
    const changed: DefinitionChange[] = [];
    const additions: Record<string, ToolPin> = {};
    for (const tool of tools) {
      const pin = pinTool(tool);
      const known = pins.tools[tool.name];
      if (!known) additions[tool.name] = pin;
      else if (known.hash !== pin.hash) changed.push({ tool: tool.name, parts: changedParts(known.definition, pin.definition), before: known.definition });
    }
    if (Object.keys(additions).length > 0) this._persistence.save(server, { ...pins, tools: { ...pins.tools, ...additions } });
    return { changed, instructionsChanged: (pins.instructions ?? '') !== (instructions ?? '') };
  }

  /** The user accepted the current definitions (of one tool, or all of the server). */
  accept(server: string, tools: readonly Tool[], instructions: string | undefined, only?: string): void {
    const pins = this._persistence.load(server) ?? { tools: {} };
    const next: Record<string, ToolPin> = { ...pins.tools };
    for (const tool of tools) if (!only || tool.name === only) next[tool.name] = pinTool(tool);
    this._persistence.save(server, { tools: next, instructions: only ? pins.instructions : instructions });
  }

  pinned(server: string, tool: string): ToolPin | undefined {
    return this._persistence.load(server)?.tools[tool];
  }
}

export function memoryPins(): PinPersistence {
  const store = new Map<string, ServerPins>();
  return { load: (s) => store.get(s), save: (s, p) => void store.set(s, p) };
}
