import * as vscode from 'vscode';
import type { TemplateEntry } from '../../core/offers/offerTypes';
import { sanitizeLine, shownName, shownTitle } from '../../core/render/sanitize';
import type { PromptEvents } from '../shared/promptEvents';
import { openResource, type OpenedAs } from './openResource';
import type { ResourceDeps, TemplateTarget } from './resourceDeps';
import { askWithCompletions } from './completionBox';
import { pickOfferServer } from './pickOffer';

/**
 * "Open Resource from Template...": the template's variables asked one by one, each box showing the
 * server's `completion/complete` suggestions for what is typed (asked after a pause; an answer that
 * comes after newer typing is dropped), then the URI expanded and opened like a listed resource.
 */
export async function openFromTemplate(deps: ResourceDeps, prompts: PromptEvents, target?: TemplateTarget): Promise<OpenedAs | undefined> {
  const template = target ? await findTemplate(deps, target) : await pickTemplate(deps);
  if (!template) return undefined;
  const values: Record<string, string> = {};
  for (const [i, variable] of template.variables.entries()) {
    const value = await askVariable(deps, prompts, template, variable, values, { step: i + 1, total: template.variables.length });
    if (value === undefined) return undefined;
    values[variable] = value;
  }
  const expanded = deps.offers.resources().expand(template, values);
  if ('problem' in expanded) {
    const why = vscode.l10n.t('Could not fill in {0}: {1}', shownName(template.uriTemplate), sanitizeLine(expanded.problem));
    void vscode.window.showErrorMessage(why);
    return { kind: 'not-opened', why };
  }
  return openResource(deps, { server: template.server, uri: expanded.uri, name: undefined, mimeType: template.mimeType });
}

async function findTemplate(deps: ResourceDeps, target: TemplateTarget): Promise<TemplateEntry | undefined> {
  const listed = await deps.offers.resources().templates(target.server);
  const template = listed.items.find((t) => t.uriTemplate === target.uriTemplate);
  if (!template) void vscode.window.showErrorMessage(vscode.l10n.t('{0} no longer offers the template {1}.', shownName(target.server), shownName(target.uriTemplate)));
  return template;
}

async function pickTemplate(deps: ResourceDeps): Promise<TemplateEntry | undefined> {
  const server = await pickOfferServer(deps.pool, 'resources', vscode.l10n.t('Open a resource template of which server?'));
  if (!server) return undefined;
  const listed = await deps.offers.resources().templates(server);
  if (listed.items.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} offers no resource templates.', shownName(server)));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    listed.items.map((t) => ({ label: shownTitle(t), description: shownName(t.uriTemplate), detail: t.description && sanitizeLine(t.description), template: t })),
    { title: vscode.l10n.t('Open Resource from Template'), matchOnDescription: true },
  );
  return picked?.template;
}

/** One variable's box, with the server's completions of the template's variable (completionBox.ts). */
function askVariable(deps: ResourceDeps, prompts: PromptEvents, template: TemplateEntry, variable: string, filled: Readonly<Record<string, string>>, at: { step: number; total: number }): Promise<string | undefined> {
  return askWithCompletions(
    {
      title: vscode.l10n.t('{0}: {1}', shownTitle(template), shownName(variable)),
      placeholder: vscode.l10n.t('The value of {0} in {1}', shownName(variable), shownName(template.uriTemplate)),
      step: at.step,
      totalSteps: at.total,
      complete: async (value, signal) => (await deps.offers.prompts().complete({ server: template.server, ref: { type: 'ref/resource', uri: template.uriTemplate }, argument: { name: variable, value }, context: filled, signal })).values,
    },
    prompts,
  );
}
