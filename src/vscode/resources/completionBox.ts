import * as vscode from 'vscode';
import { shownName } from '../../core/render/sanitize';
import type { PromptEvents } from '../shared/promptEvents';

/** How long typing pauses before the server is asked for completions: one request per pause, not per key. */
const COMPLETION_DELAY_MS = 150;

/** One value to ask, and how the server completes what is typed (`completion/complete`). */
export interface CompletionBoxSpec {
  readonly title: string;
  readonly placeholder: string;
  readonly step?: number;
  readonly totalSteps?: number;
  /** Said in the placeholder when the user accepts an empty value (none: empty is accepted). */
  readonly requiredMessage?: string;
  readonly complete: (value: string, signal: AbortSignal) => Promise<readonly string[]>;
}

type ValueItem = vscode.QuickPickItem & { readonly value: string };

/**
 * One value in a box where what is typed is the first choice and the server's suggestions follow,
 * asked after a pause; an answer that comes after newer typing is dropped (and suggestions that no
 * longer fit are hidden until it comes), a suggestion the user moved to stays chosen when the list
 * is drawn again. Undefined when the user cancels. Prompt arguments (chat) and template variables
 * (resources) are asked with it.
 */
export function askWithCompletions(spec: CompletionBoxSpec, prompts?: PromptEvents): Promise<string | undefined> {
  const pick = vscode.window.createQuickPick<ValueItem>();
  pick.title = spec.title;
  pick.placeholder = spec.placeholder;
  pick.step = spec.step;
  pick.totalSteps = spec.totalSteps;
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
    spec.complete(value, abort.signal).then(
      (values) => {
        if (mine !== asked) return; // typing went on: a newer request is out
        suggestions = values;
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
    pick.onDidAccept(() => {
      const value = pick.selectedItems[0]?.value ?? pick.value;
      // A quick pick has no validation message: the placeholder says it where the user looks.
      if (value === '' && spec.requiredMessage) return void (pick.placeholder = spec.requiredMessage);
      finish(value);
    });
    pick.onDidHide(() => finish(undefined));
    show();
    if (prompts) prompts.show(pick);
    else pick.show();
    complete();
  });
}
