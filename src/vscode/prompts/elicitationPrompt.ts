import * as vscode from 'vscode';
import type { CallEnd, ElicitationAnswer, Elicitor, FormField, FormRequest, FormValue } from '../../core/elicitation/formElicitation';
import type { UrlRequest } from '../../core/elicitation/urlElicitation';
import { loadElicitation } from '../../core/elicitation/load';
import { sanitizeLine, shownName } from '../../core/render/sanitize';
import type { ChatAsks } from './chatAsks';
import { askLink, refuseLink } from './linkPrompt';
import type { PromptEvents } from '../shared/promptEvents';

/** Said beside a field that looks like a credential (formElicitation.ts `secret`). */
const SECRET_WARNING = () => vscode.l10n.t('This looks like a password, token or key: do not type secrets into a server\'s form (it goes to the server as plain text).');

type Choice<T> = vscode.QuickPickItem & { readonly value: T };

/** A step's outcome: a value, no value (an optional field left empty), or the form was given up. */
type Step = { readonly value: FormValue | undefined } | 'cancel';

/**
 * A server's form during a call (elicitation, form mode), in quick inputs: first who asks and
 * what for, with Answer / Decline (Escape cancels); then one step per field, pre-filled with the
 * form's default, checked as the user types. Everything the server wrote is shown as one line
 * without hidden characters; nothing is answered for the user.
 */
export function vscodeElicitor(prompts: PromptEvents, chat?: ChatAsks): Elicitor {
  return async (asked) => {
    // Time spent answering does not count against the call's idle timeout; its total limit does: said when near.
    const request = withTimeLeft(asked);
    const link = request.mode === 'url' ? request.link : undefined;
    if (request.mode === 'url' && link?.kind === 'refused') return refuseLink({ ...request, link });
    // A call made from chat asks in the chat: the prompt opens only when the user chooses to answer.
    const inChat = chat?.ask(request);
    if (inChat) {
      const choice = await inChat;
      if (choice !== 'answer') return { action: choice };
    }
    // One prompt at a time, approvals included (a quick input that opens hides the one before).
    return prompts.oneAtATime(async () => {
      // Its calls ended while it waited for its turn: nobody waits for the answer any more.
      if (request.callsEnded?.aborted) return { action: 'cancel' as const };
      // They end while it is open: it closes, saying why.
      const { value, closed } = await closingWhen(prompts, request.callsEnded, () => {
        if (request.mode === 'url') return link?.kind === 'offered' ? askLink(prompts, { ...request, link }) : Promise.resolve({ action: 'decline' as const });
        return inChat ? answerFields(prompts, request) : askForm(prompts, request);
      });
      if (closed) void vscode.window.showWarningMessage(closedBecause(request));
      return closed ? { action: 'cancel' as const } : value;
    });
  };
}

/**
 * Runs `prompt`; when `ended` aborts while it is open, the quick input it shows is hidden, which
 * gives it up (nobody waits for the answer). `closed`: it was closed so.
 */
async function closingWhen<T>(prompts: PromptEvents, ended: AbortSignal | undefined, prompt: () => Promise<T>): Promise<{ readonly value: T; readonly closed: boolean }> {
  const before = prompts.lastShown;
  let closed = false;
  const close = () => {
    closed = true;
    // Only a quick input this prompt showed: one shown before it belongs to another prompt.
    if (prompts.lastShown !== before) prompts.lastShown?.hide();
  };
  ended?.addEventListener('abort', close, { once: true });
  try {
    return { value: await prompt(), closed };
  } finally {
    ended?.removeEventListener('abort', close);
  }
}

/** Under this much total time left, a prompt says how long its call still has. */
const NEAR_END_MS = 60_000;

/** The request, its message led by the time its call has left when that is under a minute. */
function withTimeLeft<R extends FormRequest | UrlRequest>(request: R): R {
  const left = request.endsAt === undefined ? Infinity : request.endsAt - Date.now();
  if (left >= NEAR_END_MS) return request;
  return { ...request, message: vscode.l10n.t('[the call ends in {0} s, answered or not] {1}', Math.max(0, Math.round(left / 1000)), request.message) };
}

/** Why a server's prompt closed on its own: how its call ended. */
function closedBecause(request: FormRequest | UrlRequest): string {
  const who = shownName(request.server);
  const call = (request.calls ?? []).map((c) => `"${sanitizeLine(c)}"`).join(', ') || vscode.l10n.t('its call');
  const how = request.callsEnded?.reason as CallEnd | undefined;
  switch (how) {
    case 'cancelled':
      return vscode.l10n.t('The prompt of "{0}" was closed: its call {1} was cancelled.', who, call);
    case 'timed-out':
      return vscode.l10n.t('The prompt of "{0}" was closed: its call {1} timed out (its total time limit, maxTotalTimeoutSeconds, also runs while you answer).', who, call);
    case 'server-stopped':
      return vscode.l10n.t('The prompt of "{0}" was closed: the server stopped during its call {1}.', who, call);
    case 'failed':
      return vscode.l10n.t('The prompt of "{0}" was closed: its call {1} failed (see the output).', who, call);
    case 'withdrawn':
      return vscode.l10n.t('The prompt of "{0}" was closed: the server withdrew its question during its call {1}. Nothing was sent back.', who, call);
    default:
      return vscode.l10n.t('The prompt of "{0}" was closed: its call {1} ended without waiting for your answer.', who, call);
  }
}

/** Who asks and why, with Answer / Decline (Escape cancels); then the fields. */
async function askForm(prompts: PromptEvents, request: FormRequest): Promise<ElicitationAnswer> {
  const who = shownName(request.server);
  const calls = (request.calls ?? []).map((c) => `"${sanitizeLine(c)}"`);
  const title = calls.length === 0
    ? vscode.l10n.t('"{0}" asks for input', who)
    : calls.length === 1
      ? vscode.l10n.t('"{0}" asks for input during its call {1}', who, calls[0])
      : vscode.l10n.t('"{0}" asks for input during one of its calls {1}', who, calls.join(', '));
  const start = await pick<'answer' | 'decline'>(prompts, {
    title,
    placeholder: sanitizeLine(request.message).slice(0, 300) || vscode.l10n.t('(no message)'),
    items: [
      {
        label: `$(edit) ${vscode.l10n.t('Answer…')}`,
        description: request.fields.length === 1 ? vscode.l10n.t('1 field') : vscode.l10n.t('{0} fields', request.fields.length),
        detail: request.fields.some((f) => f.secret) ? `$(warning) ${SECRET_WARNING()}` : undefined,
        value: 'answer',
      },
      { label: `$(circle-slash) ${vscode.l10n.t('Decline')}`, description: vscode.l10n.t('the server is told you declined'), value: 'decline' },
    ],
  });
  if (start === undefined) return { action: 'cancel' };
  if (start.value === 'decline') return { action: 'decline' };
  return answerFields(prompts, request);
}

async function answerFields(prompts: PromptEvents, request: FormRequest): Promise<ElicitationAnswer> {
  const content: Record<string, FormValue> = {};
  for (const [i, field] of request.fields.entries()) {
    // Each field says whether it must be answered: an empty Enter on a required one is refused.
    const title = vscode.l10n.t('{0} ({1}/{2}): {3}{4}', shownName(request.server), i + 1, request.fields.length, sanitizeLine(field.title ?? field.name), ` (${field.required ? vscode.l10n.t('required') : vscode.l10n.t('optional')})`);
    const step = await askField(prompts, field, title);
    if (step === 'cancel') return { action: 'cancel' };
    if (step.value !== undefined) content[field.name] = step.value;
  }
  return { action: 'accept', content };
}

async function askField(prompts: PromptEvents, field: FormField, title: string): Promise<Step> {
  const description = field.description ? sanitizeLine(field.description) : undefined;
  switch (field.kind) {
    case 'boolean': {
      const picked = await pick(prompts, { title, placeholder: description, items: [true, false].map((v) => ({ label: v ? vscode.l10n.t('Yes') : vscode.l10n.t('No'), description: field.default === v ? vscode.l10n.t('default') : undefined, value: v })), active: field.default });
      return picked === undefined ? 'cancel' : { value: picked.value };
    }
    case 'choice': {
      const items = (field.options ?? []).map((o) => ({ label: sanitizeLine(o.label), description: field.default === o.value ? vscode.l10n.t('default') : undefined, value: o.value }));
      const picked = await pick(prompts, { title, placeholder: description, items, active: field.default });
      return picked === undefined ? 'cancel' : { value: picked.value };
    }
    case 'choices': {
      const chosen = Array.isArray(field.default) ? field.default : [];
      const items = (field.options ?? []).map((o) => ({ label: sanitizeLine(o.label), value: o.value, picked: chosen.includes(o.value) }));
      const picked = await pickMany(prompts, { title, placeholder: description, items });
      return picked === undefined ? 'cancel' : { value: picked };
    }
    default:
      return box(prompts, field, title, description);
  }
}

/** A text or number field: pre-filled with its default, checked as the user types; empty skips an optional field. */
function box(prompts: PromptEvents, field: FormField, title: string, description: string | undefined): Promise<Step> {
  const input = vscode.window.createInputBox();
  input.title = title;
  // A field that looks like a credential: warned about, and masked as it is typed.
  input.prompt = field.secret ? `${SECRET_WARNING()}${description ? ` ${description}` : ''}` : description;
  input.password = field.secret === true;
  input.value = field.default === undefined ? '' : String(field.default);
  input.ignoreFocusOut = true;
  const parse = (text: string): FormValue | undefined => (text === '' ? undefined : field.kind === 'string' ? text : Number(text));
  const problem = (text: string): string | undefined => {
    const value = parse(text.trim() === '' && field.kind !== 'string' ? '' : text);
    if (value === undefined) return field.required ? vscode.l10n.t('{0} is required.', sanitizeLine(field.title ?? field.name)) : undefined;
    return loadElicitation().checkValue(field, value);
  };
  input.onDidChangeValue((text) => (input.validationMessage = problem(text)));
  return new Promise<Step>((resolve) => {
    input.onDidAccept(() => {
      // Not sent while something is wrong: the message under the box says what (an empty Enter too, which changed nothing).
      const why = problem(input.value);
      if (why) {
        input.validationMessage = why;
        return;
      }
      resolve({ value: parse(input.value) });
      input.hide();
    });
    input.onDidHide(() => {
      resolve('cancel');
      input.dispose();
    });
    prompts.show(input);
  });
}

function pick<T>(prompts: PromptEvents, options: { title: string; placeholder?: string; items: Choice<T>[]; active?: unknown }): Promise<Choice<T> | undefined> {
  const qp = vscode.window.createQuickPick<Choice<T>>();
  qp.title = options.title;
  qp.placeholder = options.placeholder;
  qp.items = options.items;
  qp.ignoreFocusOut = true;
  const active = options.items.find((i) => i.value === options.active);
  if (active) qp.activeItems = [active];
  return new Promise((resolve) => {
    qp.onDidAccept(() => {
      resolve(qp.selectedItems[0]);
      qp.hide();
    });
    qp.onDidHide(() => {
      resolve(undefined);
      qp.dispose();
    });
    prompts.show(qp);
  });
}

function pickMany(prompts: PromptEvents, options: { title: string; placeholder?: string; items: (Choice<string> & { picked: boolean })[] }): Promise<string[] | undefined> {
  const qp = vscode.window.createQuickPick<Choice<string>>();
  qp.title = options.title;
  qp.placeholder = options.placeholder;
  qp.canSelectMany = true;
  qp.items = options.items;
  qp.selectedItems = options.items.filter((i) => i.picked);
  qp.ignoreFocusOut = true;
  return new Promise((resolve) => {
    qp.onDidAccept(() => {
      resolve(qp.selectedItems.map((i) => i.value));
      qp.hide();
    });
    qp.onDidHide(() => {
      resolve(undefined);
      qp.dispose();
    });
    prompts.show(qp);
  });
}
