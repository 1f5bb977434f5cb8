import * as vscode from 'vscode';
import { sanitizeLine, shownName, shownTitle } from '../../core/render/sanitize';
import type { PromptEvents } from '../shared/promptEvents';
import { openResource, type OpenedAs } from './openResource';
import type { ResourceDeps } from './resourceDeps';
import { pickOfferServer } from './pickOffer';
import { openFromTemplate } from './templateFlow';

/** "Browse Resources...": a server, then one of its resources or templates, opened. */
export async function browseResources(deps: ResourceDeps, prompts: PromptEvents, server?: string): Promise<OpenedAs | undefined> {
  const name = server ?? (await pickOfferServer(deps.pool, 'resources', vscode.l10n.t('Browse the resources of which server?')));
  if (!name) return undefined;
  const offers = deps.offers.resources();
  const [resources, templates] = await Promise.all([offers.resources(name), offers.templates(name)]);
  type Item = vscode.QuickPickItem & { readonly open?: () => Promise<OpenedAs | undefined> };
  const items: Item[] = [
    ...resources.items.map((r): Item => ({ label: shownTitle(r), description: shownName(r.uri), detail: r.description && sanitizeLine(r.description), open: () => openResource(deps, r) })),
    ...(templates.items.length ? [{ label: vscode.l10n.t('Templates'), kind: vscode.QuickPickItemKind.Separator }] : []),
    ...templates.items.map((t): Item => ({ label: `$(file-symlink-file) ${shownTitle(t)}`, description: shownName(t.uriTemplate), detail: t.description && sanitizeLine(t.description), open: () => openFromTemplate(deps, prompts, t) })),
  ];
  const cut = [resources.cut, templates.cut].filter(Boolean).map((c) => sanitizeLine(c ?? '')).join(' ');
  if (items.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} offers no resources.', shownName(name)));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Resources of {0}', shownName(name)), placeHolder: cut || undefined, matchOnDescription: true });
  return picked?.open?.();
}
