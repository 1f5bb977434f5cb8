/** A parsed JSON pointer (RFC 6901): the reference tokens, unescaped. */
export type JsonPointer = readonly string[];

/**
 * Parses a pointer such as `/options/dryRun` or `/files/0/path`, or says why it is not one. The
 * empty pointer (the whole arguments object) is refused: a rule tests one value, not the call.
 */
export function parsePointer(text: string): { readonly tokens: JsonPointer } | { readonly problem: string } {
  if (text === '') return { problem: 'must name one argument, such as "/path" (the empty pointer is the whole call)' };
  if (!text.startsWith('/')) return { problem: `must start with "/" (a JSON pointer such as "/${text}")` };
  const raw = text.slice(1).split('/');
  for (const token of raw) {
    if (/~(?![01])/.test(token)) return { problem: 'has a "~" that is not "~0" (for ~) or "~1" (for /)' };
  }
  return { tokens: raw.map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~')) };
}

/**
 * The value a pointer names in the arguments, or `undefined` when it names nothing. Only own
 * properties count (`/__proto__` or `/constructor` of a plain object name nothing), and an array
 * step must be a plain index.
 */
export function valueAt(root: unknown, pointer: JsonPointer): unknown {
  let value = root;
  for (const token of pointer) {
    if (Array.isArray(value)) {
      if (!/^(0|[1-9]\d{0,8})$/.test(token)) return undefined;
      value = value[Number(token)];
    } else if (typeof value === 'object' && value !== null) {
      if (!Object.hasOwn(value, token)) return undefined;
      value = (value as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return value;
}

/** What a pointer reaches: one value (`undefined` when it names nothing), or every item's at a `-` step. */
export type Reached = { readonly each: false; readonly value: unknown } | { readonly each: true; readonly values: readonly unknown[] };

/**
 * The value a pointer names, where a `-` step on a list stands for every item of it:
 * `/files/-/path` reaches each file's path (`undefined` for an item without one), and two `-`
 * steps reach their items' items, flattened. On an object `-` is an ordinary key. (RFC 6901's
 * `-` names the item past the end of a list, which reading never reaches, so nothing is taken
 * from the standard.)
 */
export function reach(root: unknown, pointer: JsonPointer): Reached {
  let value = root;
  for (let i = 0; i < pointer.length && value !== undefined; i++) {
    if (pointer[i] === '-' && Array.isArray(value)) {
      const rest = pointer.slice(i + 1);
      return { each: true, values: value.flatMap((item) => { const r = reach(item, rest); return r.each ? r.values : [r.value]; }) };
    }
    value = valueAt(value, [pointer[i]]);
  }
  return { each: false, value };
}

/** A pointer written back as text (for messages). */
export function pointerText(pointer: JsonPointer): string {
  return pointer.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
