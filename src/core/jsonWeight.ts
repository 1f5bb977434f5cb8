// The weight of a server's listing entry (a tool, a resource), for the byte caps of listings: tools and offers share it.

/** Deeper than this, a value is left out of a listing: every surface prints and hashes definitions, with recursion. */
export const MAX_TOOL_DEPTH = 1000;

/**
 * About the length of a tool as JSON (a few percent over), or undefined when it is nested deeper
 * than MAX_TOOL_DEPTH. A walk, not JSON.stringify: printing every tool of a listing cost as much
 * as parsing it (13 ms of a 10,000-tool listing's ~45, BENCHMARKS.md case 3); this is ~2 ms.
 */
export function weightOf(tool: unknown): number | undefined {
  let weight = 0;
  const stack: unknown[] = [tool];
  const depths: number[] = [0];
  while (stack.length > 0) {
    const value = stack.pop();
    const depth = depths.pop()!;
    if (typeof value === 'string') {
      weight += value.length + 2;
    } else if (typeof value !== 'object' || value === null) {
      weight += 5;
    } else if (depth >= MAX_TOOL_DEPTH) {
      return undefined;
    } else {
      weight += 2;
      const record = value as Record<string, unknown>;
      for (const key in record) {
        weight += key.length + 4;
        stack.push(record[key]);
        depths.push(depth + 1);
      }
    }
  }
  return weight;
}

