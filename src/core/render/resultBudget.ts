/** How much a results folder may hold; read at each save, so a changed setting applies at once. */
export interface ResultBudget {
  readonly maxBytes: number;
  /** Files older than this go (Infinity: none). */
  readonly maxAgeMs: number;
}

/**
 * The extension's defaults (settings `mcpToolHost.results.maxSize`, `.maxAgeDays`), and the CLI's for
 * one run. Apart from resultFolder.ts, which the extension loads only at a save (dist/forms.js).
 */
export const DEFAULT_RESULTS_MAX_MIB = 256;
export const DEFAULT_RESULTS_MAX_AGE_DAYS = 14;
