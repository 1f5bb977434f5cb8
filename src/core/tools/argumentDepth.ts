/**
 * How deep a call's arguments may nest. Real tools take a few levels; a value nested thousands
 * deep overflows the stack of whatever walks it (the schema check, JSON.stringify on the way to
 * the server), which then fails after the call was counted as sent.
 */
export const MAX_ARGUMENT_DEPTH = 256;

/** Whether `value` holds arrays or objects nested more than `limit` levels deep (walked without recursion). */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<readonly [unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [next, depth] = stack.pop()!;
    if (typeof next !== 'object' || next === null) continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(next) ? next : Object.values(next)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}
