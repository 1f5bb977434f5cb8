import type * as vscode from 'vscode';
import type { ServerConnection } from '../../core/connection/serverConnection';
import type { Event } from '../../core/events';
import type { OfferGroupNode, OfferNode } from './treeNodes';

/**
 * Which rows to draw again after a listing: the server's (its set of group rows changed), or these
 * group rows alone (the same groups, other contents), so the server's other rows stay as they are.
 */
export interface OfferChange {
  readonly server: string;
  readonly rows?: readonly OfferGroupNode[];
}

/**
 * What a server offers besides tools (resources, templates, prompts), as rows of the Tools view.
 * The resources room implements it; the view only asks, so it never loads the offers itself.
 */
export interface OfferRows {
  /** Fires when a server's rows should be drawn again (a listing arrived, `list_changed`). */
  readonly onDidChange: Event<OfferChange>;
  /** The group rows under a running server: one per kind it declares, none otherwise (the first ask lists them, in the background). */
  groups(connection: ServerConnection): readonly OfferGroupNode[];
  groupItem(node: OfferGroupNode): vscode.TreeItem;
  /** The entries of a group as last listed, to the end within the limits (a last row says where a listing was cut, or why it failed). */
  children(node: OfferGroupNode): readonly OfferNode[];
  item(node: OfferNode): vscode.TreeItem;
}
