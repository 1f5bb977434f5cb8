// Counting tokens of text from anywhere (a server's result or description) in bounded time, and cutting text
// without splitting a surrogate pair: what the search's token counts and the chat's result budgets share.

/** `end`, or one less when it would fall between a high and a low surrogate. */
export function safeEnd(text: string, end: number): number {
  if (end <= 0 || end >= text.length) return Math.max(0, Math.min(end, text.length));
  const before = text.charCodeAt(end - 1);
  const after = text.charCodeAt(end);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff ? end - 1 : end;
}

/** A run without whitespace longer than this is counted in slices of this size. */
const RUN_CHARS = 256;
/** Text between long runs is counted in parts of about this size, cut before a space. */
const PART_CHARS = 8_192;

/**
 * Tokens of `text` by `count`, in bounded time: byte-pair encoding is quadratic in the length of
 * a run without spaces (80,000 × "a" takes 18 s with o200k_base), so a long run is counted in
 * slices of 256 units. A slice boundary can only add tokens, so the count never falls short.
 */
export function boundedCount(text: string, count: (text: string) => number): number {
  let total = 0;
  let from = 0;
  const long = new RegExp(`\\S{${RUN_CHARS},}`, 'g');
  for (let run = long.exec(text); run; run = long.exec(text)) {
    total += countParts(text, from, run.index, count);
    for (let at = run.index; at < run.index + run[0].length; ) {
      const end = safeEnd(text, Math.min(run.index + run[0].length, at + RUN_CHARS));
      total += count(text.slice(at, end > at ? end : at + 2));
      at = end > at ? end : at + 2;
    }
    from = run.index + run[0].length;
  }
  return total + countParts(text, from, text.length, count);
}

function countParts(text: string, from: number, to: number, count: (text: string) => number): number {
  let total = 0;
  for (let at = from; at < to; ) {
    let end = Math.min(to, at + PART_CHARS);
    if (end < to) {
      const space = text.lastIndexOf(' ', end);
      if (space > at) end = space;
    }
    total += count(text.slice(at, end));
    at = end;
  }
  return total;
}
