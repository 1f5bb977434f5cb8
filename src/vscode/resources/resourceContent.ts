import type { ReadOutcome } from '../../core/offers/offerTypes';

/** What one read brought, as the editor reads it: texts joined, else the first binary part's bytes. */
export function contentOf(outcome: Extract<ReadOutcome, { kind: 'ok' }>): Uint8Array {
  const parts = outcome.parts;
  if (parts.length > 0 && parts.every((p) => p.kind === 'text')) return new TextEncoder().encode(parts.map((p) => p.text).join('\n'));
  const binary = parts.find((p) => p.kind === 'binary');
  return binary ? binary.bytes : new Uint8Array();
}
