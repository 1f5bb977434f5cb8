// A very long string of a message (a 50 MiB text result) reaches the main thread in pieces
// (offThreadJson.ts) and is never made one flat string here: copying it whole is one long task
// (~35 ms, more on a busy machine), and the extension host would stop for that long. Its property
// still holds all of it, as a rope that V8 builds without copying (any code that reads it as a
// string gets it whole, then pays that copy); code that knows, reads the pieces instead.

interface Kept {
  readonly whole: string;
  readonly pieces: readonly string[];
}

const KEPT = new WeakMap<object, Map<string, Kept>>();

/** Sets `container[key]` to the pieces as one string, and remembers the pieces. */
export function setInPieces(container: object, key: string, pieces: readonly string[]): void {
  const whole = joinedLazily(pieces);
  (container as Record<string, unknown>)[key] = whole;
  let keys = KEPT.get(container);
  if (!keys) KEPT.set(container, (keys = new Map()));
  keys.set(key, { whole, pieces });
}

/** The pieces of `container[key]`, if it came in pieces and still holds what came. */
export function piecesOf(container: object, key: string): readonly string[] | undefined {
  const kept = KEPT.get(container)?.get(key);
  return kept && (container as Record<string, unknown>)[key] === kept.whole ? kept.pieces : undefined;
}

/** The pieces as one string without copying them: a rope, which the first reader that needs it flat pays for. */
export function joinedLazily(pieces: readonly string[]): string {
  let whole = '';
  for (const piece of pieces) whole += piece;
  return whole;
}
