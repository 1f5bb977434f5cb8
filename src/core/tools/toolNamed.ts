import type { Tool } from '@modelcontextprotocol/client';

/** Each listed array's tools by name, made at its first lookup (a listing is replaced whole, never changed in place). */
const byName = new WeakMap<readonly Tool[], ReadonlyMap<string, Tool>>();

/** The first tool of `tools` named `name`: a lookup, not a search, so a server of 10,000 tools costs a call no scan. */
export function toolNamed(tools: readonly Tool[], name: string): Tool | undefined {
  let named = byName.get(tools);
  if (!named) {
    const made = new Map<string, Tool>();
    for (const tool of tools) if (!made.has(tool.name)) made.set(tool.name, tool);
    byName.set(tools, (named = made));
  }
  return named.get(name);
}
