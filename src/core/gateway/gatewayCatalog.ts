import type { Tool } from '@modelcontextprotocol/client';
import type { ServerConnection } from '../connection/serverConnection';
import { ServerState } from '../connection/serverState';
import type { Disposable } from '../events';
import { sanitizeLine, shownName } from '../render/sanitize';
import { maskSecrets } from '../render/secrets';
import type { GatewayDeps } from './gatewayTypes';
import { gatewayToolName, serverPrefixes } from './toolNames';

/** One tool the gateway offers: its name for the client, and whose it is. */
export interface OfferedTool {
  readonly name: string;
  readonly server: string;
  readonly tool: Tool;
}

/** What a name a client sent leads to. */
export type NameLookup =
  | { readonly kind: 'tool'; readonly offered: OfferedTool }
  /** The name is a tool of a server the gateway does not offer (a workspace not trusted). */
  | { readonly kind: 'not-offered'; readonly server: string }
  /** The name has the prefix of an offered server that is not running now (restarting after a crash, say): `why` says how it stands. */
  | { readonly kind: 'not-running'; readonly server: string; readonly why: string }
  | { readonly kind: 'unknown' };

/**
 * The tools of the offered servers under their gateway names. Servers are started on demand, at
 * the first listing or call, all at once; one that does not start is left out (with a log line).
 */
export class GatewayCatalog implements Disposable {
  private _started: Promise<void> | undefined;
  private _names = new Map<string, OfferedTool>();
  /** The same tools as a list, a new one at each change (searches index it once). */
  private _tools: readonly OfferedTool[] = [];
  private _signature = '';
  /** Clients hear of changes only after the first listing they could have seen. */
  private _listed = false;
  private readonly _listeners = new Set<() => void>();
  private readonly _subscriptions: Disposable[];

  constructor(private readonly _deps: GatewayDeps) {
    this._subscriptions = [_deps.pool.onDidChange(() => this._refresh(true))];
    // An accepted change alters no tool, only what a client is shown of it (no longer withheld).
    const accepts = _deps.pins?.onDidAccept?.(() => this._listed && this._notify());
    if (accepts) this._subscriptions.push(accepts);
  }

  /** Hears when the offered tools changed (a server's list_changed, a server that stopped or started, a change accepted). */
  onDidChange(listener: () => void): Disposable {
    this._listeners.add(listener);
    return { dispose: () => this._listeners.delete(listener) };
  }

  private _offers(server: string): boolean {
    return this._deps.offers?.(server) ?? true;
  }

  /** True once `ready` has resolved: a call need not wait a turn for it then. */
  get isReady(): boolean {
    return this._listed;
  }

  /** Starts every offered server not running yet (once), in parallel, and lists them. */
  ready(): Promise<void> {
    this._started ??= Promise.all(
      this._deps.pool.connections.filter((c) => this._offers(c.name)).map(async (c) => {
        try {
          await c.start();
          await c.listed();
        } catch (err) {
          this._deps.log?.warn(`gateway: "${shownName(c.name)}" did not start: ${sanitizeLine(err instanceof Error ? err.message : String(err))}`);
        }
        if (!ServerState.isRunning(c.state)) {
          const why = c.state.kind === 'error' ? c.state.message : c.state.kind;
          this._deps.log?.warn(`gateway: "${shownName(c.name)}" left out: it did not start (${sanitizeLine(why)}).`);
        }
      }),
    ).then(() => {
      this._listed = true;
      this._refresh(false);
    });
    return this._started;
  }

  /** The offered tools, in a stable order (server, then tool name). */
  get tools(): readonly OfferedTool[] {
    return this._tools;
  }

  lookup(name: string): NameLookup {
    const offered = this._names.get(name);
    if (offered) return { kind: 'tool', offered };
    // A name with the prefix of a server held back, or of one not running now: say why, rather than "no such tool"
    // (a model told a tool is gone stops calling it; one told its server restarts tries again).
    const prefixes = serverPrefixes(this._deps.pool.connections.map((c) => c.name));
    for (const [server, prefix] of prefixes) {
      if (!name.startsWith(`${prefix}_`)) continue;
      if (!this._offers(server)) return { kind: 'not-offered', server };
      const connection = this._deps.pool.connections.find((c) => c.name === server);
      if (connection && !ServerState.isRunning(connection.state)) return { kind: 'not-running', server, why: maskSecrets(notRunning(connection.state), connection.secrets) };
    }
    return { kind: 'unknown' };
  }

  private _refresh(notify: boolean): void {
    const connections = this._deps.pool.connections;
    const prefixes = serverPrefixes(connections.map((c) => c.name));
    const names = new Map<string, OfferedTool>();
    for (const c of [...connections].sort((a, b) => compare(a.name, b.name))) {
      if (!this._offers(c.name) || !ServerState.isRunning(c.state)) continue;
      const toolNames = c.tools.map((t) => t.name);
      for (const tool of sortedTools(c)) names.set(gatewayToolName(prefixes.get(c.name)!, tool.name, toolNames), { name: '', server: c.name, tool });
    }
    const signature = JSON.stringify([...names].map(([name, o]) => [name, o.server, o.tool]));
    const changed = signature !== this._signature;
    this._signature = signature;
    // A listing equal to the last still brings new objects: what is offered must be what the server
    // holds now (the pins' check knows a tool by the object it listed, and would review each call).
    this._names = new Map([...names].map(([name, o]) => [name, { ...o, name }]));
    this._tools = [...this._names.values()];
    if (changed && notify && this._listed) this._notify();
  }

  private _notify(): void {
    for (const listener of [...this._listeners]) listener();
  }

  dispose(): void {
    for (const s of this._subscriptions) s.dispose();
    this._listeners.clear();
  }
}

/** How a server that is not running stands, as the sentence a model reads. */
function notRunning(state: ServerState): string {
  // Seconds as the gateway's stderr line counts them (cli/serveStates.ts), so the two never disagree.
  if (state.kind === 'error' && state.restartInMs !== undefined) return `it stopped (${sanitizeLine(state.message)}) and starts again in ${Math.max(1, Math.round(state.restartInMs / 1000))} s: call again then`;
  if (state.kind === 'starting') return 'it is starting: call again in a moment';
  if (state.kind === 'error') return `it stopped (${sanitizeLine(state.message)}) and is not restarted`;
  return `it is ${state.kind}`;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sortedTools = (c: ServerConnection) => [...c.tools].sort((a, b) => compare(a.name, b.name));
