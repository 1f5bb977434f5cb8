import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { launchKey } from '../../core/config/serverConfig';
import type { ServerPool } from '../../core/connection/serverPool';
import type { ServerConnection } from '../../core/connection/serverConnection';
import { ServerState } from '../../core/connection/serverState';
import { DefinitionPins, type DefinitionChange, type PinPersistence, type ServerPins } from '../../core/policy/definitionPins';
import type { ServerLogs } from '../shared/serverLogs';
import { showDefinitionChanges } from './definitionDiff';
import { shownName } from '../../core/render/sanitize';

/**
 * Trust on first use, wired to the pool: each new tool list is compared with what was first
 * seen (or last accepted); changes are logged, marked in the tree, and offered as "Show
 * Changes" (a diff) and "Accept Changes".
 */
export class DefinitionReview implements vscode.Disposable {
  private readonly _pins: DefinitionPins;
  private readonly _changes = new Map<string, Map<string, DefinitionChange>>();
  private readonly _reviewed = new Map<string, readonly Tool[]>();
  private readonly _onDidChange = new vscode.EventEmitter<string>();
  /** Fires with the server whose changes (marks) differ. */
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidAccept = new vscode.EventEmitter<string>();
  /** Fires with the server one of whose changes the user accepted. */
  readonly onDidAccept = this._onDidAccept.event;
  private readonly _subscription: { dispose(): void };

  constructor(state: vscode.Memento, private readonly _pool: ServerPool, private readonly _logs: ServerLogs) {
    this._pins = new DefinitionPins(mementoPins(state, (server) => _pool.get(server)));
    this._subscription = _pool.onDidChange((c) => (c ? this._review(c) : _pool.connections.forEach((x) => this._review(x))));
  }

  /** What parts of a tool changed since it was accepted, for another surface that must withhold it (the gateway). */
  changedParts(server: string, tool: string): readonly string[] | undefined {
    const change = this.changeOf(server, tool);
    return change && (change.parts.length > 0 ? change.parts : ['definition']);
  }

  /** What changed in a tool since it was accepted, if anything. */
  changeOf(server: string, tool: string): DefinitionChange | undefined {
    return this._changes.get(server)?.get(tool);
  }

  async showChanges(server: string, tool: string): Promise<void> {
    const change = this.changeOf(server, tool);
    const current = this._pool.findTool(server, tool)?.tool;
    if (!change || !current) return void vscode.window.showInformationMessage(vscode.l10n.t('"{0}" has not changed since you first saw it.', shownName(tool)));
    await showDefinitionChanges(server, current, change.before);
  }

  acceptChanges(server: string, tool: string): void {
    const connection = this._pool.get(server);
    if (!connection) return;
    this._pins.accept(server, connection.tools, instructionsOf(connection), tool);
    this._changes.get(server)?.delete(tool);
    this._logs.logFor(server).info(vscode.l10n.t('Accepted the new definition of "{0}".', shownName(tool)));
    this._onDidChange.fire(server);
    this._onDidAccept.fire(server);
  }

  dispose(): void {
    this._subscription.dispose();
    this._onDidChange.dispose();
    this._onDidAccept.dispose();
  }

  private _review(c: ServerConnection): void {
    if (!ServerState.isRunning(c.state) || c.toolsFromCache || this._reviewed.get(c.name) === c.tools) return;
    this._reviewed.set(c.name, c.tools);
    const review = this._pins.review(c.name, c.tools, instructionsOf(c));
    const log = this._logs.logFor(c.name);
    for (const change of review.changed) {
      log.warn(vscode.l10n.t('"{0}" changed since you first saw it ({1}). Use "Show Changes" in the Tools view to compare, "Accept Changes" to trust it again; approvals for it are suspended.', shownName(change.tool), change.parts.join(', ')));
    }
    if (review.instructionsChanged) log.warn(vscode.l10n.t('The server\'s instructions changed since you first saw them.'));
    this._changes.set(c.name, new Map(review.changed.map((x) => [x.tool, x])));
    this._onDidChange.fire(c.name);
  }
}

function instructionsOf(c: ServerConnection): string | undefined {
  return c.state.kind === 'running' ? c.state.instructions : undefined;
}

/**
 * Pins in global state, per server name and launch (a different launch is a different server).
 * A server no longer in the pool has no launch, so it has no pins to load or save.
 */
function mementoPins(state: vscode.Memento, connection: (server: string) => ServerConnection | undefined): PinPersistence {
  const key = (server: string): string | undefined => {
    const spec = connection(server)?.definition.spec;
    return spec && `pins:${server}:${launchKey(spec)}`;
  };
  return {
    load: (server) => {
      const k = key(server);
      return k === undefined ? undefined : state.get<ServerPins>(k);
    },
    save: (server, pins) => {
      const k = key(server);
      if (k !== undefined) void state.update(k, pins);
    },
  };
}
