import * as vscode from 'vscode';
import type { ServerConnection } from '../../core/connection/serverConnection';
import type { ServerPool } from '../../core/connection/serverPool';
import { ServerState } from '../../core/connection/serverState';
import type { Disposable } from '../../core/events';
import type { OfferList } from '../../core/offers/offerTypes';
import type { SharedOffers } from '../shared/sharedOffers';
import type { OfferChange, OfferRows } from '../tree/offerRows';
import type { OfferGroup, OfferGroupNode, OfferNode } from '../tree/treeNodes';
import type { Listing, OfferEntry } from './offerItems';
import type * as Later from './later';

/**
 * How long listings that came in wait for the other listings of their server still under way
 * before they are shown anyway (resources and prompts come from two catalogues, each at its own
 * pace, and a listing again after list_changed waits up to a second for its slot): room for a
 * slow machine.
 */
const HOLD_MS = 3000;

/** What one running server offers, as last listed; dropped when it stops. */
interface ServerOffers {
  resources?: Listing;
  templates?: Listing;
  prompts?: Listing;
  readonly groups: Map<OfferGroup, OfferGroupNode>;
  /** Listings asked and not answered yet. */
  waiting: number;
  /** Listings answered while others were still under way: shown with them, in one redraw. */
  arrived: Partial<Record<OfferGroup, Listing>>;
  /** Shows what arrived if the rest is slow (HOLD_MS). */
  hold?: NodeJS.Timeout;
}

/**
 * The Tools view's Resources, Resource Templates and Prompts rows. A running server's rows list
 * its offers when first drawn (which loads dist/offers.js then, never at activation) and again
 * when the server says they changed. The listings a server was asked for are shown together, in
 * one redraw: of the server's rows when the Resource Templates row comes or goes, of the group rows
 * listed again otherwise. A row put in beside rows the user already sees, or a redraw of rows that
 * did not change, moves or redraws them under the pointer (a click meant for one lands on another).
 */
export class OfferRowSource implements OfferRows, Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<OfferChange>();
  readonly onDidChange = this._onDidChange.event;
  private readonly _servers = new Map<string, ServerOffers>();
  private readonly _subscriptions: Disposable[] = [];
  private _listening = { resources: false, prompts: false };

  constructor(
    _pool: ServerPool,
    private readonly _offers: SharedOffers,
    /** The rows' items (offerItems.ts), loaded when the first is drawn. */
    private readonly _later: () => { readonly resources: typeof Later },
  ) {
    this._subscriptions.push(
      _pool.onDidChange((c) => {
        if (!c) for (const name of [...this._servers.keys()]) if (!_pool.get(name)) this._drop(name);
        if (c && !ServerState.isRunning(c.state)) this._drop(c.name);
      }),
    );
  }

  groups(c: ServerConnection): readonly OfferGroupNode[] {
    if (!ServerState.isRunning(c.state)) return [];
    const declared = c.serverCapabilities;
    const withResources = isObject(declared.resources);
    const withPrompts = isObject(declared.prompts);
    if (!withResources && !withPrompts) return [];
    let s = this._servers.get(c.name);
    if (!s) {
      this._servers.set(c.name, (s = { groups: new Map(), waiting: 0, arrived: {} }));
      if (withResources) this._listResources(c.name, s);
      if (withPrompts) this._listPrompts(c.name, s);
    }
    const shown: OfferGroup[] = [];
    if (withResources) shown.push('resources');
    // Many servers have no templates: their row shows only once some are listed.
    if (withResources && templatesShown(s)) shown.push('templates');
    if (withPrompts) shown.push('prompts');
    return shown.map((group) => this._groupNode(c.name, s, group));
  }

  groupItem(node: OfferGroupNode): vscode.TreeItem {
    return this._later().resources.groupItem(node, this._servers.get(node.server)?.[node.group]);
  }

  children(node: OfferGroupNode): readonly OfferNode[] {
    const listing = this._servers.get(node.server)?.[node.group];
    const server = node.server;
    if (!listing || listing.state === 'listing') return [];
    if (listing.state === 'failed') return [{ kind: 'offer', server, group: 'cut', text: listing.message, id: `offer:${JSON.stringify([server, node.group, 'failed'])}` }];
    const seen = new Set<string>();
    const rows = listing.list.items.map((entry): OfferNode => {
      const key = 'uri' in entry ? entry.uri : 'uriTemplate' in entry ? entry.uriTemplate : entry.name;
      let id = `offer:${JSON.stringify([server, node.group, key])}`;
      // A server may list one entry twice; each row still needs its own id.
      for (let n = 2; seen.has(id); n++) id = `offer:${JSON.stringify([server, node.group, key, n])}`;
      seen.add(id);
      return { kind: 'offer', server, group: node.group, entry, id } as OfferNode;
    });
    const cut = listing.list.cut;
    return cut ? [...rows, { kind: 'offer', server, group: 'cut', text: cut, id: `offer:${JSON.stringify([server, node.group, 'cut'])}` }] : rows;
  }

  item(node: OfferNode): vscode.TreeItem {
    return this._later().resources.offerItem(node);
  }

  dispose(): void {
    for (const name of [...this._servers.keys()]) this._drop(name);
    this._subscriptions.forEach((s) => s.dispose());
    this._onDidChange.dispose();
  }

  private _groupNode(server: string, s: ServerOffers, group: OfferGroup): OfferGroupNode {
    let node = s.groups.get(group);
    if (!node) s.groups.set(group, (node = { kind: 'offerGroup', server, group, id: `offerGroup:${JSON.stringify([server, group])}` }));
    return node;
  }

  private _listResources(server: string, s: ServerOffers): void {
    const offers = this._offers.resources();
    if (!this._listening.resources) {
      this._listening.resources = true;
      this._subscriptions.push(offers.onDidChange((name) => this._relist(name, 'resources')));
    }
    this._fill(server, s, 'resources', offers.resources(server));
    this._fill(server, s, 'templates', offers.templates(server));
  }

  private _listPrompts(server: string, s: ServerOffers): void {
    const offers = this._offers.prompts();
    if (!this._listening.prompts) {
      this._listening.prompts = true;
      this._subscriptions.push(offers.onDidChange((name) => this._relist(name, 'prompts')));
    }
    this._fill(server, s, 'prompts', offers.prompts(server));
  }

  /** A server said its offers changed (or was listed again): its rows list again, keeping the old ones meanwhile. */
  private _relist(server: string, kind: 'resources' | 'prompts'): void {
    const s = this._servers.get(server);
    if (!s) return;
    if (kind === 'resources') this._listResources(server, s);
    else this._listPrompts(server, s);
  }

  private _fill(server: string, s: ServerOffers, group: OfferGroup, listing: Promise<OfferList<unknown>>): void {
    s[group] ??= { state: 'listing' };
    s.waiting++;
    listing.then(
      (list) => this._arrive(server, s, group, { state: 'listed', list: list as OfferList<OfferEntry> }),
      (err: unknown) => this._arrive(server, s, group, { state: 'failed', message: err instanceof Error ? err.message : String(err) }),
    );
  }

  private _arrive(server: string, s: ServerOffers, group: OfferGroup, listing: Listing): void {
    // A listing of a launch that ended (the server stopped or restarted meanwhile) is dropped.
    if (this._servers.get(server) !== s) return;
    s.waiting--;
    s.arrived[group] = listing;
    // A server that keeps saying its offers changed always has a listing under way: what came in shows after HOLD_MS.
    if (s.waiting > 0) s.hold ??= setTimeout(() => this._show(server, s), HOLD_MS);
    else this._show(server, s);
  }

  /** What arrived is shown, in one redraw. */
  private _show(server: string, s: ServerOffers): void {
    clearTimeout(s.hold);
    s.hold = undefined;
    if (this._servers.get(server) !== s) return;
    const arrived = s.arrived;
    s.arrived = {};
    const templatesBefore = templatesShown(s);
    if (arrived.resources) s.resources = arrived.resources;
    if (arrived.templates) s.templates = arrived.templates;
    if (arrived.prompts) s.prompts = arrived.prompts;
    // The Resource Templates row came or went: the server's rows are drawn again. Otherwise the groups
    // listed again are (their count, their entries), and the server's other rows stay as they are.
    if (templatesShown(s) !== templatesBefore) return this._onDidChange.fire({ server });
    const rows = (Object.keys(arrived) as OfferGroup[]).filter((g) => g !== 'templates' || templatesShown(s)).flatMap((g) => s.groups.get(g) ?? []);
    if (rows.length) this._onDidChange.fire({ server, rows });
  }

  private _drop(server: string): void {
    clearTimeout(this._servers.get(server)?.hold);
    this._servers.delete(server);
  }
}

/** The Resource Templates row shows once some are listed. */
function templatesShown(s: ServerOffers): boolean {
  return s.templates?.state === 'listed' && s.templates.list.items.length > 0;
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}
