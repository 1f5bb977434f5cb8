import * as vscode from 'vscode';
import type { TemplateEntry } from '../../core/offers/offerTypes';
import { sanitizeLine, shownName, shownTitle } from '../../core/render/sanitize';
import type { PromptEvents } from '../shared/promptEvents';
import { openResource, type OpenedAs } from './openResource';
import type { ResourceDeps, TemplateTarget } from './resourceDeps';
import { pickOfferServer } from './pickOffer';

/** How long typing pauses before the server is asked for completions: one request per pause, not per key. */
const COMPLETION_DELAY_MS = 150;

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

type ValueItem = vscode.QuickPickItem & { readonly value: string };

/** One variable's box: what is typed is the first choice, the server's suggestions follow. */
function askVariable(deps: ResourceDeps, prompts: PromptEvents, template: TemplateEntry, variable: string, filled: Readonly<Record<string, string>>, at: { step: number; total: number }): Promise<string | undefined> {
  const pick = vscode.window.createQuickPick<ValueItem>();
  pick.title = vscode.l10n.t('{0}: {1}', shownTitle(template), shownName(variable));
  pick.placeholder = vscode.l10n.t('The value of {0} in {1}', shownName(variable), shownName(template.uriTemplate));
  pick.step = at.step;
  pick.totalSteps = at.total;
  pick.ignoreFocusOut = true;
  pick.matchOnDescription = false;
  let suggestions: readonly string[] = [];
  /** The value the suggestions answer: until the answer for newer typing comes, those that no longer fit are hidden. */
  let suggestedFor = '';
  let asked = 0;
  let timer: NodeJS.Timeout | undefined;
  let abort: AbortController | undefined;
  const show = () => {
    const typed: ValueItem[] = [{ label: pick.value, description: vscode.l10n.t('as typed'), value: pick.value, alwaysShow: true }];
    const typing = pick.value.toLowerCase();
    const fitting = suggestedFor === pick.value ? suggestions : suggestions.filter((s) => s.toLowerCase().includes(typing));
    // A suggestion the user moved to stays chosen when the list is drawn again.
    const active = pick.activeItems[0]?.value;
    pick.items = [...typed, ...fitting.filter((s) => s !== pick.value).map((s): ValueItem => ({ label: shownName(s), value: s, alwaysShow: true }))];
    const kept = active === undefined || active === pick.value ? undefined : pick.items.find((i) => i.value === active);
    if (kept) pick.activeItems = [kept];
  };
  const complete = () => {
    const mine = ++asked;
    const value = pick.value;
    abort?.abort();
    abort = new AbortController();
    pick.busy = true;
    void deps.offers
      .prompts()
      .complete({ server: template.server, ref: { type: 'ref/resource', uri: template.uriTemplate }, argument: { name: variable, value }, context: filled, signal: abort.signal })
      .then(
        (answer) => {
          if (mine !== asked) return; // typing went on: a newer request is out
          suggestions = answer.values;
          suggestedFor = value;
          pick.busy = false;
          show();
        },
        () => mine === asked && (pick.busy = false),
      );
  };
  return new Promise<string | undefined>((resolve) => {
    let done = false;
    const finish = (value: string | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      abort?.abort();
      resolve(value);
      pick.dispose();
    };
    pick.onDidChangeValue(() => {
      show();
      clearTimeout(timer);
      timer = setTimeout(complete, COMPLETION_DELAY_MS);
    });
    pick.onDidAccept(() => finish(pick.selectedItems[0]?.value ?? pick.value));
    pick.onDidHide(() => finish(undefined));
    show();
    prompts.show(pick);
    complete();
  });
}
