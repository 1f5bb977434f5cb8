import * as vscode from 'vscode';
import type { OfferList, PromptEntry, ResourceEntry, TemplateEntry } from '../../core/offers/offerTypes';
import { sanitizeLine, shownName, shownTitle } from '../../core/render/sanitize';
import type { OfferGroupNode, OfferNode } from '../tree/treeNodes';

export type OfferEntry = ResourceEntry | TemplateEntry | PromptEntry;

/** A group's listing: under way, done (perhaps cut short), or failed. */
export type Listing = { readonly state: 'listing' } | { readonly state: 'listed'; readonly list: OfferList<OfferEntry> } | { readonly state: 'failed'; readonly message: string };

/** The command a prompt row runs (registered by the prompts' palette command, "Run Prompt..."). */
export const RUN_PROMPT_COMMAND = 'mcpToolHost.runPrompt';
export const OPEN_RESOURCE_COMMAND = 'mcpToolHost.openResource';
export const OPEN_FROM_TEMPLATE_COMMAND = 'mcpToolHost.openResourceFromTemplate';

const IMAGE_MIME = /^image\/(png|jpeg|gif|webp|bmp|x-icon|vnd\.microsoft\.icon)$/i;
/** Longer prose in a row's description is cut: the tooltip has the rest. */
const MAX_DESCRIPTION = 80;

const cutLine = (text: string) => (text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text);

function groupLabel(node: OfferGroupNode): string {
  switch (node.group) {
    case 'resources':
      return vscode.l10n.t('Resources');
    case 'templates':
      return vscode.l10n.t('Resource Templates');
    case 'prompts':
      return vscode.l10n.t('Prompts');
  }
}

function countOf(node: OfferGroupNode, n: number): string {
  switch (node.group) {
    case 'resources':
      return n === 1 ? vscode.l10n.t('1 resource') : vscode.l10n.t('{0} resources', n);
    case 'templates':
      return n === 1 ? vscode.l10n.t('1 template') : vscode.l10n.t('{0} templates', n);
    case 'prompts':
      return n === 1 ? vscode.l10n.t('1 prompt') : vscode.l10n.t('{0} prompts', n);
  }
}

/** A group row: its name, and how many it holds (or that it is listing, or failed) as description. */
export function groupItem(node: OfferGroupNode, listing: Listing | undefined): vscode.TreeItem {
  const items = listing?.state === 'listed' ? listing.list.items.length : 0;
  const item = new vscode.TreeItem(groupLabel(node), listing?.state === 'listed' && items === 0 ? vscode.TreeItemCollapsibleState.None : vscode.TreeItemCollapsibleState.Collapsed);
  item.id = node.id;
  item.contextValue = `mcpOfferGroup;${node.group};`;
  item.iconPath = new vscode.ThemeIcon(node.group === 'resources' ? 'files' : node.group === 'templates' ? 'file-symlink-file' : 'comment-discussion');
  if (!listing || listing.state === 'listing') item.description = vscode.l10n.t('listing…');
  else if (listing.state === 'failed') item.description = vscode.l10n.t('listing failed');
  else item.description = listing.list.cut ? vscode.l10n.t('{0} (cut)', countOf(node, items)) : countOf(node, items);
  return item;
}

/**
 * A resource, template or prompt row. Every string is the server's: names are shown as names
 * are (`shownName`: invisible and control characters as escapes), titles and descriptions as
 * sanitised prose, and none of it is markdown (a plain-string tooltip).
 */
export function offerItem(node: OfferNode): vscode.TreeItem {
  if (node.group === 'cut') {
    const item = new vscode.TreeItem(sanitizeLine(node.text));
    item.id = node.id;
    item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
    return item;
  }
  const entry = node.entry;
  const item = new vscode.TreeItem(shownTitle(entry));
  item.id = node.id;
  const description = entry.description ? sanitizeLine(entry.description) : undefined;
  const lines = [`${vscode.l10n.t('Name')}: ${shownName(entry.name)}`];
  switch (node.group) {
    case 'resources': {
      const e = node.entry;
      item.iconPath = new vscode.ThemeIcon(e.mimeType && IMAGE_MIME.test(e.mimeType) ? 'file-media' : 'file');
      item.description = cutLine([e.mimeType && sanitizeLine(e.mimeType), description].filter(Boolean).join(' · '));
      lines.push(`URI: ${shownName(e.uri)}`);
      if (e.size !== undefined) lines.push(vscode.l10n.t('Size: {0} bytes (as the server says)', e.size));
      item.contextValue = 'mcpResource;';
      item.command = { command: OPEN_RESOURCE_COMMAND, title: vscode.l10n.t('Open Resource'), arguments: [{ server: node.server, uri: e.uri, name: e.name, mimeType: e.mimeType }] };
      break;
    }
    case 'templates': {
      const e = node.entry;
      item.iconPath = new vscode.ThemeIcon('file-symlink-file');
      item.description = cutLine(shownName(e.uriTemplate));
      lines.push(`${vscode.l10n.t('Template')}: ${shownName(e.uriTemplate)}`);
      item.contextValue = 'mcpResourceTemplate;';
      item.command = { command: OPEN_FROM_TEMPLATE_COMMAND, title: vscode.l10n.t('Open Resource from Template...'), arguments: [{ server: node.server, uriTemplate: e.uriTemplate }] };
      break;
    }
    case 'prompts': {
      const e = node.entry;
      item.iconPath = new vscode.ThemeIcon('comment');
      const args = e.arguments.map((a) => (a.required ? shownName(a.name) : `${shownName(a.name)}?`)).join(', ');
      item.description = cutLine([args && `(${args})`, description].filter(Boolean).join(' · '));
      item.contextValue = 'mcpPrompt;';
      item.command = { command: RUN_PROMPT_COMMAND, title: vscode.l10n.t('Run Prompt...'), arguments: [{ server: node.server, prompt: e.name }] };
      break;
    }
  }
  if (description) lines.push('', description);
  item.tooltip = lines.join('\n');
  // Read by its row, not by its tooltip (which a string tooltip would otherwise be).
  item.accessibilityInformation = { label: [String(item.label), item.description].filter(Boolean).join(', ') };
  return item;
}
