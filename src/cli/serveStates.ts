import type { ServerConnection } from '../core/connection/serverConnection';
import type { ServerPool } from '../core/connection/serverPool';
import { ServerState } from '../core/connection/serverState';
import type { Disposable } from '../core/events';
import { sanitizeLine, shownName } from '../core/render/sanitize';
import { maskSecrets } from '../core/render/secrets';

/**
 * `serve` says on stderr when a server it offers fails after it ran, restarts or is running again:
 * its client sees only the tools come and go, and whoever reads the gateway's log would otherwise
 * not know why calls failed. A first start that fails is said where the listing leaves the server
 * out (gatewayCatalog.ts), not here too. One line a change (a failure set again with the same words
 * is not said twice).
 */
export function sayServerStates(pool: ServerPool, say: (line: string) => void): Disposable {
  const last = new Map<ServerConnection, string>();
  const ran = new Set<ServerConnection>();
  const failed = new Set<ServerConnection>();
  const look = (connection: ServerConnection) => {
    const state = connection.state;
    const now = state.kind === 'error' ? `error:${state.message}:${state.restartInMs ?? ''}` : state.kind;
    if (now === last.get(connection)) return;
    last.set(connection, now);
    if (ServerState.isRunning(state)) ran.add(connection);
    const name = `"${shownName(connection.name)}"`;
    if (state.kind === 'error' && ran.has(connection)) {
      failed.add(connection);
      const message = maskSecrets(sanitizeLine(state.message), connection.secrets);
      const restart = state.restartInMs !== undefined ? `Restarting in ${Math.max(1, Math.round(state.restartInMs / 1000))} s.` : 'It is not restarted: restart the gateway to try it again.';
      say(`gateway: server ${name} failed: ${/[.!?]$/.test(message) ? message : `${message}.`} ${restart}`);
    } else if (ServerState.isRunning(state) && failed.delete(connection)) {
      say(`gateway: server ${name} is running again.`);
    }
  };
  for (const connection of pool.connections) look(connection);
  return pool.onDidChange((connection) => (connection ? look(connection) : pool.connections.forEach(look)));
}
