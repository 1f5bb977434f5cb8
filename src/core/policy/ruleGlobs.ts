/**
 * Globs of rules. `*` is any run of characters and `?` one character, within a name or a path
 * segment; in a path glob a segment `**` is any number of segments, none included. Nothing else is
 * special (`[`, `{` are literal). Matching is by dynamic programming: time is bounded by
 * text length × pattern length, whatever the pattern (no backtracking blow-up).
 */
export function globMatches(pattern: string, text: string): boolean {
  // row[j]: does pattern[0..i) match text[0..j)?
  let row = new Array<boolean>(text.length + 1).fill(false);
  row[0] = true;
  for (const p of pattern) {
    const next = new Array<boolean>(text.length + 1).fill(false);
    if (p === '*') {
      next[0] = row[0];
      for (let j = 1; j <= text.length; j++) next[j] = row[j] || next[j - 1];
    } else {
      for (let j = 1; j <= text.length; j++) next[j] = row[j - 1] && (p === '?' || p === text[j - 1]);
    }
    row = next;
  }
  return row[text.length];
}

export function hasWildcard(text: string): boolean {
  return text.includes('*') || text.includes('?');
}

/** Do path segments match glob segments (each a `globMatches` pattern, or `**`)? */
export function segmentsMatch(patterns: readonly string[], segments: readonly string[]): boolean {
  // row[j]: do patterns[0..i) match segments[0..j)?
  let row = new Array<boolean>(segments.length + 1).fill(false);
  row[0] = true;
  for (const p of patterns) {
    const next = new Array<boolean>(segments.length + 1).fill(false);
    if (p === '**') {
      next[0] = row[0];
      for (let j = 1; j <= segments.length; j++) next[j] = row[j] || next[j - 1];
    } else {
      for (let j = 1; j <= segments.length; j++) next[j] = row[j - 1] && globMatches(p, segments[j - 1]);
    }
    row = next;
  }
  return row[segments.length];
}
