// Running a server's prompt: which one (picked, or named), its arguments (field by field, with
// completions), and its messages (prompts/get) ready to show.
import * as vscode from 'vscode';
import type { PromptEntry, PromptOffers, PromptOutcome } from '../../core/offers/offerTypes';
import type { CallOrigin } from '../../core/calls/ports';
import type { ServerPool } from '../../core/connection/serverPool';
import { sanitizeLine, shownName } from '../../core/render/sanitize';
import { askFields } from './offerInput';
import { pickOfferServer } from '../resources/pickOffer';
import type { PromptEvents } from '../shared/promptEvents';

export interface ChosenPrompt {
  readonly server: string;
  readonly prompt: PromptEntry;
  readonly args: Readonly<Record<string, string>>;
}

/** Why a prompt was not run, in words for the user (Markdown-safe: names go through the caller's escaping). */
export type PromptChoice = { readonly kind: 'chosen'; readonly value: ChosenPrompt } | { readonly kind: 'cancelled' } | { readonly kind: 'problem'; readonly message: string };

/**
 * The prompt to run: `server` and `name` when given (a Tools-view row, `@mcp /prompt server.prompt`),
 * else picked. Arguments not given are asked: every one when the prompt was picked or named without
 * arguments, else only the required ones still missing. `shown` hears of each box (the tests answer it).
 */
export async function choosePrompt(pool: ServerPool, offers: PromptOffers, target: { server?: string; name?: string; args?: Readonly<Record<string, string>> }, shown?: PromptEvents): Promise<PromptChoice> {
  const server = target.server ?? (await pickOfferServer(pool, 'prompts', vscode.l10n.t('Run Prompt')));
  if (!server) return { kind: 'cancelled' };
  if (!pool.get(server)) return { kind: 'problem', message: vscode.l10n.t('No server is named {0}.', shownName(server)) };
  const listed = await offers.prompts(server);
  let prompt: PromptEntry | undefined;
  if (target.name !== undefined) {
    prompt = listed.items.find((p) => p.name === target.name);
    if (!prompt) {
      const names = listed.items.slice(0, 30).map((p) => shownName(p.name)).join(', ');
      return { kind: 'problem', message: vscode.l10n.t('{0} has no prompt named {1}. Its prompts: {2}', shownName(server), shownName(target.name), names || vscode.l10n.t('none')) };
    }
  } else {
    if (listed.items.length === 0) return { kind: 'problem', message: vscode.l10n.t('{0} offers no prompts.', shownName(server)) };
    const picked = await vscode.window.showQuickPick(
      listed.items.map((p) => ({ label: shownName(p.name), description: p.title ? sanitizeLine(p.title) : undefined, detail: p.description ? sanitizeLine(p.description).slice(0, 200) : undefined, prompt: p })),
      { title: vscode.l10n.t('Run Prompt: {0}', shownName(server)), placeHolder: vscode.l10n.t('Pick a prompt'), matchOnDescription: true, matchOnDetail: true },
    );
    if (!picked) return { kind: 'cancelled' };
    prompt = picked.prompt;
  }
  const given = target.args ?? {};
  const unknown = Object.keys(given).filter((k) => !prompt.arguments.some((a) => a.name === k));
  if (unknown.length) return { kind: 'problem', message: vscode.l10n.t('{0} takes no argument named {1}. Its arguments: {2}', shownName(prompt.name), unknown.map(shownName).join(', '), prompt.arguments.map((a) => shownName(a.name)).join(', ') || vscode.l10n.t('none')) };
  const chosen = prompt;
  const askAll = Object.keys(given).length === 0;
  const args = await askFields(chosen.arguments, given, askAll, (name, value, context, signal) => offers.complete({ server, ref: { type: 'ref/prompt', name: chosen.name }, argument: { name, value }, context, signal }), shown);
  return args ? { kind: 'chosen', value: { server, prompt: chosen, args } } : { kind: 'cancelled' };
}

/** prompts/get for the chosen prompt, with `origin` for the audit. */
export function getPrompt(offers: PromptOffers, chosen: ChosenPrompt, origin: CallOrigin, signal?: AbortSignal): Promise<PromptOutcome> {
  return offers.get({ server: chosen.server, name: chosen.prompt.name, args: chosen.args, origin, signal });
}
