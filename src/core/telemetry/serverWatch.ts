import type { ServerConnection } from '../connection/serverConnection';
import type { ServerPool } from '../connection/serverPool';
import type { Disposable } from '../events';
import { maskSecrets, safeText } from '../render/secrets';
import type { RequestStart, ServerFacts, Telemetry } from './telemetry';

/** What every record of this server carries (its URL for an HTTP server; the protocol once running). */
export function serverFacts(connection: ServerConnection): ServerFacts {
  const spec = connection.definition.spec;
  const state = connection.state;
  const facts: { -readonly [K in keyof ServerFacts]: ServerFacts[K] } = { server: connection.name, transport: spec.type === 'stdio' ? 'stdio' : 'http' };
  if (spec.type === 'http') facts.url = spec.url;
  if (state.kind === 'running' && state.protocolVersion !== undefined) facts.protocolVersion = state.protocolVersion;
  if (state.kind === 'running' && state.sessionId !== undefined) facts.sessionId = state.sessionId;
  return facts;
}

/** What a request's span may name: a prompt (`prompts/get`, a completion of a prompt's argument), a resource's URI. */
function requestOf(method: string, params: Record<string, unknown> | undefined, secrets: readonly string[] | undefined): RequestStart {
  const ref = params?.ref as { type?: unknown; name?: unknown } | undefined;
  const prompt = method === 'prompts/get' ? params?.name : method === 'completion/complete' && ref?.type === 'ref/prompt' ? ref.name : undefined;
  const uri = params?.uri;
  return { method, ...(typeof prompt === 'string' && { prompt }), ...(typeof uri === 'string' && { uri: maskSecrets(uri, secrets) }) };
}

/** A failed request's error with the server's secrets masked in its text (a URI or an argument it quotes may hold one). */
function maskedError(error: unknown, secrets: readonly string[] | undefined): { readonly code?: unknown; readonly name?: unknown; readonly message: string } {
  const { code, name, message } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; name?: unknown; message?: unknown };
  return { code, name, message: safeText(typeof message === 'string' ? message : String(error), secrets) };
}

interface Watched {
  kind: string;
  since: number;
  readonly subscriptions: Disposable[];
}

/**
 * Tells `telemetry()` of every server's start (with how long it took), crash, stop and listing,
 * from the pool's servers as they come and go. `telemetry()` is asked each time: turning
 * telemetry on or off needs no new watch.
 */
export function watchServers(pool: ServerPool, telemetry: () => Telemetry): Disposable {
  const watched = new Map<ServerConnection, Watched>();
  const changed = (connection: ServerConnection, entry: Watched) => {
    const state = connection.state;
    const was = entry.kind;
    if (state.kind === was) return;
    const now = performance.now();
    const facts = serverFacts(connection);
    const lasted = now - entry.since;
    if (state.kind === 'running' && was === 'starting') telemetry().lifecycle(facts, 'start', { durationMs: lasted });
    else if (state.kind === 'error' && was === 'starting') telemetry().lifecycle(facts, 'start', { durationMs: lasted, error: safeText(state.message, connection.secrets) });
    else if (state.kind === 'error' && was === 'running') telemetry().lifecycle(facts, 'crash', { sessionMs: lasted, error: safeText(state.message, connection.secrets) });
    else if (state.kind === 'stopped' && was === 'running') telemetry().lifecycle(facts, 'stop', { sessionMs: lasted });
    else if (state.kind === 'stopped' && was === 'starting') telemetry().lifecycle(facts, 'stop', {});
    entry.kind = state.kind;
    entry.since = now;
  };
  const sync = () => {
    const current = new Set(pool.connections);
    for (const [connection, entry] of watched) {
      if (current.has(connection)) continue;
      for (const s of entry.subscriptions) s.dispose();
      connection.traceRequests(undefined);
      watched.delete(connection);
    }
    for (const connection of current) {
      if (watched.has(connection)) continue;
      const entry: Watched = { kind: connection.state.kind, since: performance.now(), subscriptions: [] };
      entry.subscriptions.push(
        connection.onDidChangeState(() => changed(connection, entry)),
        connection.onDidList((record) => telemetry().listing(serverFacts(connection), record.error === undefined ? record : { ...record, error: safeText(record.error, connection.secrets) })),
      );
      connection.traceRequests((method, params) => {
        const span = telemetry().startRequest(serverFacts(connection), requestOf(method, params, connection.secrets));
        return { traceparent: span.traceparent, end: (error?: unknown) => span.end(error === undefined ? undefined : maskedError(error, connection.secrets)) };
      });
      watched.set(connection, entry);
    }
  };
  sync();
  const subscription = pool.onDidChange(sync);
  return {
    dispose() {
      subscription.dispose();
      for (const [connection, entry] of watched) {
        for (const s of entry.subscriptions) s.dispose();
        connection.traceRequests(undefined);
      }
      watched.clear();
    },
  };
}
