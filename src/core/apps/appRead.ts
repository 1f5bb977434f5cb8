import type { ResourceOffers } from '../offers/offerTypes';
import { sanitizeLine } from '../render/sanitize';
import { appDocumentOf, AppResourceError, type AppDocument, type AppServerPlace } from './appResource';

/**
 * Reads a tool's interface through its server like any resource read (ResourceOffers.readInterface:
 * audited and capped) and checks it (appDocumentOf) for a server at `place`: the HTML and its CSP, or a plain
 * sentence saying why it cannot be shown.
 */
export async function readAppDocument(reader: Pick<ResourceOffers, 'readInterface'>, server: string, uri: string, place: AppServerPlace): Promise<AppDocument | { readonly kind: 'failed'; readonly message: string }> {
  const read = await reader.readInterface({ server, uri });
  if (read.kind === 'failed') return { kind: 'failed', message: `Reading the interface failed: ${read.message.slice(0, 300)}` };
  try {
    return appDocumentOf(uri, read.contents, place);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { kind: 'failed', message: err instanceof AppResourceError ? message : `Reading the interface failed: ${sanitizeLine(message).slice(0, 300)}` };
  }
}
