import { randomUUID } from 'node:crypto';
import type { ResourceContents } from '../connection/eraClient';
import type { ServerPool } from '../connection/serverPool';
import { ServerState } from '../connection/serverState';
import { sanitizeLine, shownName } from '../render/sanitize';
import { safeText } from '../render/secrets';
import { argumentsHash } from './auditHash';
import type { AuditLog, CallOrigin } from './ports';

/** What opening a resource link gave: its text (sanitised, the server's secrets masked), or why not. */
export type ResourceOutcome = { readonly kind: 'ok'; readonly text: string } | { readonly kind: 'failed'; readonly message: string };

/** A resource as its server sent it (each content item, untouched), or why it could not be read (secrets masked). */
export type ResourceContentsOutcome = { readonly kind: 'ok'; readonly contents: ResourceContents } | { readonly kind: 'failed'; readonly message: string };

/**
 * Reads a resource a result linked to (`resources/read`), as a call is made: through the pool's
 * running connection, its text made safe like a result, and an audit record written. The user
 * asked for it by opening the link, so nothing else asks.
 */
export async function readResourceLink(pool: ServerPool, audit: AuditLog | undefined, request: ResourceRequest): Promise<ResourceOutcome> {
  const secrets = pool.get(request.server)?.secrets;
  const read = await readAudited(pool, audit, request, 'opened by the user (a resource link of a result)');
  if (read.kind === 'failed') return read;
  return { kind: 'ok', text: read.contents.map((c) => (c.text !== undefined ? safeText(c.text, secrets) : `[binary ${sanitizeLine(c.mimeType ?? '')}, ${c.blob?.length ?? 0} base64 characters]`)).join('\n') };
}

type ResourceRequest = { readonly server: string; readonly uri: string; readonly origin: CallOrigin };

/**
 * `resources/read` through the pool's running connection, with an audit record saying why it was
 * read (`decision`); the contents come back as the server sent them, for the caller to check.
 */
export async function readAudited(pool: ServerPool, audit: AuditLog | undefined, request: ResourceRequest, decision: string): Promise<ResourceContentsOutcome> {
  const started = new Date();
  const connection = pool.get(request.server);
  const secrets = connection?.secrets;
  let outcome: ResourceContentsOutcome;
  if (!connection || !ServerState.isRunning(connection.state)) {
    outcome = { kind: 'failed', message: `Server "${shownName(request.server)}" is not running.` };
  } else {
    try {
      outcome = { kind: 'ok', contents: await connection.readResource(request.uri) };
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
    decision,
    durationMs: Date.now() - started.getTime(),
    outcome: outcome.kind,
  });
  return outcome;
}
