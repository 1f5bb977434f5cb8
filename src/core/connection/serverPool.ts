import type { Tool } from '@modelcontextprotocol/client';
import { Emitter, type Disposable } from '../events';
import type { ConfigError } from '../errors';
import { launchKey, sameLaunch, type ParsedServers, type ServerDefinition } from '../config/serverConfig';
import { ServerConnection, type ConnectionDeps } from './serverConnection';
import type { ServerLog } from '../serverLog';
import { toolNamed } from '../tools/toolNamed';

/** Builds the per-server dependencies (each server has its own log). */
export type ConnectionDepsFactory = (serverName: string, definition: ServerDefinition) => ConnectionDeps & { readonly log: ServerLog };

/**
 * Every configured server, keyed by name. `apply()` reconciles a new configuration: added
 * servers are created, removed ones stopped, and only servers whose launch changed restart.
 */
export class ServerPool implements Disposable {
  private readonly _connections = new Map<string, { connection: ServerConnection; subscriptions: Disposable[] }>();
  private readonly _onDidChange = new Emitter<ServerConnection | undefined>();
  /** Fires with the connection whose state or tools changed, or undefined when the set changed. */
  readonly onDidChange = this._onDidChange.event;
  private _configErrors: readonly ConfigError[] = [];

  constructor(private readonly _depsFor: ConnectionDepsFactory) {}

  get connections(): ServerConnection[] {
    return [...this._connections.values()].map((e) => e.connection);
  }

  get configErrors(): readonly ConfigError[] {
    return this._configErrors;
  }

  get(name: string): ServerConnection | undefined {
    return this._connections.get(name)?.connection;
  }

  /** What the server named `name` launches now (`launchKey`): grants hold for one launch only. */
  launchOf(name: string): string | undefined {
    const spec = this.get(name)?.definition.spec;
    return spec && launchKey(spec);
  }

  /** The tool with this name on this server, as last listed (the first of that name). Every call looks its tool up here. */
  findTool(server: string, tool: string): { connection: ServerConnection; tool: Tool } | undefined {
    const connection = this.get(server);
    const found = connection && toolNamed(connection.tools, tool);
    return connection && found ? { connection, tool: found } : undefined;
  }

  /**
   * The dependencies the pool gives a connection for `definition`: doctor builds a separate
   * connection from them (with its own log) to diagnose without touching the live one.
   */
  connectionDeps(definition: ServerDefinition): ConnectionDeps & { readonly log: ServerLog } {
    return this._depsFor(definition.name, definition);
  }

  /** Reconciles with a freshly parsed configuration; starts new and changed servers when `autoStart`. */
  apply(parsed: Pick<ParsedServers, 'servers' | 'errors'>, options: { autoStart: boolean }): void {
    this._configErrors = parsed.errors;
    const wanted = new Map(parsed.servers.map((d) => [d.name, d]));
    for (const [name, entry] of this._connections) {
      if (!wanted.has(name)) this._remove(name, entry.connection);
    }
    for (const def of parsed.servers) {
      const existing = this._connections.get(def.name)?.connection;
      if (existing && sameLaunch(existing.definition, def)) {
        existing.updateDefinition(def);
        continue;
      }
      if (existing) this._remove(def.name, existing);
      const connection = new ServerConnection(def, this._depsFor(def.name, def));
      const subscriptions = [
        connection.onDidChangeState(() => this._onDidChange.fire(connection)),
        connection.onDidChangeTools(() => this._onDidChange.fire(connection)),
      ];
      this._connections.set(def.name, { connection, subscriptions });
      if (options.autoStart) void connection.start();
    }
    // The configuration's order, whatever was added or replaced when: the tree keeps its order across reloads.
    const entries = new Map(this._connections);
    this._connections.clear();
    for (const def of parsed.servers) this._connections.set(def.name, entries.get(def.name)!);
    this._onDidChange.fire(undefined);
  }

  /**
   * Dev mode for the servers that ask for it and could not have it when they were made (the
   * workspace was not trusted then): their host is asked again, and each that gets one watches from now on.
   */
  renewDev(): void {
    for (const connection of this.connections) {
      if (connection.devMode || !('dev' in connection.definition.spec)) continue;
      const dev = this._depsFor(connection.name, connection.definition).dev;
      if (dev && 'watch' in dev && connection.enableDev(dev)) this._onDidChange.fire(connection);
    }
  }

  /** Stops every server (bounded by the shutdown sequence of each). */
  async stopAll(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.stop()));
  }

  dispose(): void {
    for (const [name, entry] of this._connections) this._remove(name, entry.connection);
    this._onDidChange.dispose();
  }

  private _remove(name: string, connection: ServerConnection): void {
    const entry = this._connections.get(name);
    entry?.subscriptions.forEach((s) => s.dispose());
    this._connections.delete(name);
    connection.dispose();
  }
}
