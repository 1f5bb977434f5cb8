import { createHash } from 'node:crypto';

/** A tool of a server, as the chat participant offers it to a language model. */
export interface ChatToolRef {
  readonly server: string;
  readonly tool: string;
}

/** What every model accepts as a tool name (OpenAI, Anthropic and Gemini agree on this subset). */
export const MODEL_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;
/** Room kept at the end of a cut name for `_` and an 8-digit hash. */
const HASH_LENGTH = 8;

/** `server_tool` with every character a model refuses replaced by `_` (runs of them collapsed). */
function baseName(ref: ChatToolRef): string {
  const clean = (s: string) => s.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/_+/g, '_').replace(/^_+|_+$/g, '');
  return [clean(ref.server), clean(ref.tool)].filter(Boolean).join('_') || 'tool';
}

const shortHash = (ref: ChatToolRef) => createHash('sha256').update(`${ref.server}\u0000${ref.tool}`).digest('hex').slice(0, HASH_LENGTH);

/**
 * Names for the model, one per tool: unique across servers (tool names may collide, and two
 * server names may clean to the same text), valid for every model (`MODEL_TOOL_NAME`), and
 * stable for the same input. A name longer than 64 characters is cut and ends in a hash of the
 * original; a clash (compared case-insensitively, as some models do) gets `_2`, `_3`...
 * The map goes back from the model's name to the server and tool.
 */
export function modelToolNames<T extends ChatToolRef>(refs: readonly T[]): Map<string, T> {
  const byName = new Map<string, T>();
  const taken = new Set<string>();
  for (const ref of refs) {
    let base = baseName(ref);
    if (base.length > MAX_LENGTH) base = `${base.slice(0, MAX_LENGTH - HASH_LENGTH - 1)}_${shortHash(ref)}`;
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) {
      const suffix = `_${n}`;
      name = base.slice(0, MAX_LENGTH - suffix.length) + suffix;
    }
    taken.add(name.toLowerCase());
    byName.set(name, ref);
  }
  return byName;
}
