import { randomUUID } from 'node:crypto';
import type { ServerPool } from '../connection/serverPool';
import { ServerState } from '../connection/serverState';
import { sanitizeLine } from '../render/sanitize';
import { safeText } from '../render/secrets';
import { argumentsHash } from './auditHash';
import type { AuditLog, CallOrigin } from './ports';

/** What opening a resource link gave: its text (sanitised, the server's secrets masked), or why not. */
export type ResourceOutcome = { readonly kind: 'ok'; readonly text: string } | { readonly kind: 'failed'; readonly message: string };

/**
 * Reads a resource a result linked to (`resources/read`), as a call is made: through the pool's
 * running connection, its text made safe like a result, and an audit record written. The user
 * asked for it by opening the link, so nothing else asks.
 */
export async function readResourceLink(pool: ServerPool, audit: AuditLog | undefined, request: { readonly server: string; readonly uri: string; readonly origin: CallOrigin }): Promise<ResourceOutcome> {
  const started = new Date();
  const connection = pool.get(request.server);
  const secrets = connection?.secrets;
  let outcome: ResourceOutcome;
  if (!connection || !ServerState.isRunning(connection.state)) {
    outcome = { kind: 'failed', message: `Server "${sanitizeLine(request.server)}" is not running.` };
  } else {
    try {
      const contents = await connection.readResource(request.uri);
      const text = contents.map((c) => (c.text !== undefined ? safeText(c.text, secrets) : `[binary ${sanitizeLine(c.mimeType ?? '')}, ${c.blob?.length ?? 0} base64 characters]`)).join('\n');
      outcome = { kind: 'ok', text };
    } catch (err) {
      outcome = { kind: 'failed', message: safeText(err instanceof Error ? err.message : String(err), secrets) };
    }
  }
  audit?.append({
    time: started.toISOString(),
    callId: randomUUID().slice(0, 8),
    origin: request.origin,
    server: request.server,
    tool: 'resources/read',
    argsHash: argumentsHash({ uri: request.uri }),
    decision: 'opened by the user (a resource link of a result)',
    durationMs: Date.now() - started.getTime(),
    outcome: outcome.kind,
  });
  return outcome;
}
