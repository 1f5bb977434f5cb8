import type { ServerPool } from '../connection/serverPool';
import { ServerState } from '../connection/serverState';
import { sanitizeLine } from '../render/sanitize';
import { appDocumentOf, AppResourceError, type AppDocument } from './appResource';

/**
 * Reads a tool's interface through its server (`resources/read`, like any resource read) and checks
 * it (appDocumentOf): the HTML and its CSP, or a plain sentence saying why it cannot be shown.
 */
export async function readAppDocument(pool: ServerPool, server: string, uri: string): Promise<AppDocument | { readonly kind: 'failed'; readonly message: string }> {
  const connection = pool.get(server);
  if (!connection || !ServerState.isRunning(connection.state)) return { kind: 'failed', message: `Server "${sanitizeLine(server)}" is not running.` };
  try {
    return appDocumentOf(uri, await connection.readResource(uri));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { kind: 'failed', message: err instanceof AppResourceError ? message : `Reading the interface failed: ${sanitizeLine(message).slice(0, 300)}` };
  }
}
