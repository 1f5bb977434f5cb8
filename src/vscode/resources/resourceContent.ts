import { loadOffers } from '../../core/offers/load';
import type { ReadOutcome } from '../../core/offers/offerTypes';

/**
 * What one read brought, as the editor reads it: texts joined (encoded in slices, so a 50 MiB
 * resource does not hold the window: documentBytes), else the first binary part's bytes.
 */
export async function contentOf(outcome: Extract<ReadOutcome, { kind: 'ok' }>): Promise<Uint8Array> {
  const parts = outcome.parts;
  if (parts.length > 0 && parts.every((p) => p.kind === 'text')) return loadOffers().documentBytes(parts);
  const binary = parts.find((p) => p.kind === 'binary');
  return binary ? binary.bytes : new Uint8Array();
}
