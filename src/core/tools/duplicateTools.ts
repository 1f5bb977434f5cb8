import type { Tool } from '@modelcontextprotocol/client';

/** Hints at their riskiest: what a call may do when the host cannot tell which definition runs. */
const RISKIEST: NonNullable<Tool['annotations']> = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

/**
 * One definition per tool name. A listing that names two tools alike cannot say which one a
 * call runs (a call carries only the name), so the twins become one tool: the first's title,
 * schema and description, its hints at their riskiest, and a note that says so. The result is
 * the same for the same listing, so trust on first use and grants stay stable.
 */
export function mergeDuplicateTools(tools: readonly Tool[]): { readonly tools: Tool[]; readonly duplicates: readonly string[] } {
  const byName = new Map<string, Tool[]>();
  for (const tool of tools) {
    const twins = byName.get(tool.name);
    if (twins) twins.push(tool);
    else byName.set(tool.name, [tool]);
  }
  const duplicates = [...byName].filter(([, twins]) => twins.length > 1).map(([name]) => name);
  if (duplicates.length === 0) return { tools: [...tools], duplicates };
  const merged = [...byName.values()].map((twins) => {
    if (twins.length === 1) return twins[0];
    const [first] = twins;
    const note = `(The server lists ${twins.length} tools named "${first.name}"; a call cannot choose between them, so it is treated at the riskiest.)`;
    return { ...first, description: first.description ? `${first.description}\n\n${note}` : note, annotations: { ...first.annotations, ...RISKIEST } };
  });
  return { tools: merged, duplicates };
}
