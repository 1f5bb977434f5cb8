import { maskSecrets } from '../render/secrets';
import { sanitizeLine } from '../render/sanitize';
import type { CompletionAnswer } from './offerTypes';

/** The spec's cap on the values of one completion. */
export const MAX_COMPLETION_VALUES = 100;
/** A value longer than this is cut: a suggestion is something to pick from a list, not a document. */
export const MAX_COMPLETION_CHARS = 500;
/** Values read from one answer at most (a flood of thousands is not walked to its end). */
const MAX_VALUES_READ = 1000;

export const NO_COMPLETION: CompletionAnswer = Object.freeze({ values: Object.freeze([]) as readonly string[], hasMore: false });

/**
 * A `completion/complete` result made safe for a picker: at most MAX_COMPLETION_VALUES values, each
 * one sanitised line cut to MAX_COMPLETION_CHARS, the server's secrets masked, duplicates and
 * empties dropped. A server that sends more than it may still gets its first values shown, with
 * `hasMore` set; anything malformed is no completion at all.
 */
export function completionValues(result: Record<string, unknown>, secrets: readonly string[] | undefined): CompletionAnswer {
  const completion = result.completion;
  if (typeof completion !== 'object' || completion === null || Array.isArray(completion)) return NO_COMPLETION;
  const { values, total, hasMore } = completion as Record<string, unknown>;
  if (!Array.isArray(values)) return NO_COMPLETION;
  const kept = new Set<string>();
  const read = Math.min(values.length, MAX_VALUES_READ);
  for (let i = 0; i < read && kept.size < MAX_COMPLETION_VALUES; i++) {
    const raw = values[i];
    if (typeof raw !== 'string') continue;
    const value = maskSecrets(sanitizeLine(raw.length > MAX_COMPLETION_CHARS ? raw.slice(0, MAX_COMPLETION_CHARS) : raw), secrets).trim();
    if (value) kept.add(value.length > MAX_COMPLETION_CHARS ? value.slice(0, MAX_COMPLETION_CHARS) : value);
  }
  const claimed = typeof total === 'number' && Number.isSafeInteger(total) && total >= 0 ? total : undefined;
  const more = hasMore === true || values.length > MAX_COMPLETION_VALUES;
  return { values: [...kept], ...(claimed !== undefined && { total: claimed }), hasMore: more };
}
