import * as readline from 'node:readline/promises';
import type { ElicitationAnswer, Elicitor, FormField, FormRequest, FormValue } from '../core/elicitation/formElicitation';
import type { UrlRequest } from '../core/elicitation/urlElicitation';
import { loadElicitation } from '../core/elicitation/load';
import { sanitizeLine } from '../core/render/sanitize';
import type { ElicitationMode } from './args';
import { answerUrl, browserOpener, closedBecause, duringWhich, type UrlOpener } from './elicitUrl';

/** Tries per field before the form is cancelled. */
const TRIES = 3;

/**
 * How the CLI answers a server's form during a call (--elicitation): on a terminal it asks field
 * by field; elsewhere it declines, saying so on stderr (the call goes on with the server's answer
 * to the decline, so the exit code is the call's). `defaults` accepts the form's defaults, and
 * `decline` always declines.
 */
export function cliElicitor(mode: ElicitationMode, opener: UrlOpener = browserOpener({ env: process.env.BROWSER })): Elicitor {
  // One question at a time on the terminal: requests that come together would share its input.
  let turn: Promise<unknown> = Promise.resolve();
  return (request) => {
    const mine = turn.then(() => (request.callsEnded?.aborted ? CALL_ENDED : answer(withTimeLeft(request), mode, opener)));
    turn = mine.catch(() => undefined);
    return mine;
  };
}

/** A request whose calls all ended while it waited for its turn: dropped, never asked. */
const CALL_ENDED: ElicitationAnswer = { action: 'cancel' };

/** Under this much total time left, a prompt says how long its call still has (time spent answering stops only its idle timeout). */
const NEAR_END_MS = 60_000;

/** The request, its message led by the time its call has left when that is under a minute. */
function withTimeLeft<R extends FormRequest | UrlRequest>(request: R): R {
  const left = request.endsAt === undefined ? Infinity : request.endsAt - Date.now();
  return left >= NEAR_END_MS ? request : { ...request, message: `[the call ends in ${Math.max(0, Math.round(left / 1000))} s, answered or not] ${request.message}` };
}


/** One request, in its turn: a link, or a form asked, answered with its defaults, or declined. */
async function answer(request: FormRequest | UrlRequest, mode: ElicitationMode, opener: UrlOpener): Promise<ElicitationAnswer> {
  if (request.mode === 'url') return answerUrl(request, mode, opener);
  const who = `"${sanitizeLine(request.server)}"`;
  const during = duringWhich(request);
  if (mode === 'defaults') {
    const content = loadElicitation().defaultAnswer(request.fields);
    if (typeof content !== 'string') return { action: 'accept', content };
    console.error(`${who} asked for input ${during}; declined: ${content} (--elicitation defaults).`);
    return { action: 'decline' };
  }
  if (mode === 'decline' || !process.stdin.isTTY) {
    const why = mode === 'decline' ? '--elicitation decline' : 'not a terminal (--elicitation defaults accepts the form\'s defaults)';
    console.error(`${who} asked for input ${during} ("${sanitizeLine(request.message).slice(0, 200)}"); declined: ${why}.`);
    return { action: 'decline' };
  }
  return askForm(request, process.stdin, process.stderr);
}

/** The form on a terminal: the server's message, then each field with its default; Ctrl+D cancels, and so does the end of its call (saying why). */
export async function askForm(request: FormRequest, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<ElicitationAnswer> {
  const rl = readline.createInterface({ input, output });
  const say = (line: string) => void output.write(`${line}\n`);
  const callEnded = () => {
    say(`\n${closedBecause(request)}`);
    rl.close();
  };
  request.callsEnded?.addEventListener('abort', callEnded, { once: true });
  // The input ending (Ctrl+D) must end a question that waits, not leave it waiting.
  const ended = new Promise<never>((_, reject) => rl.once('close', () => reject(new Error('the input ended'))));
  ended.catch(() => undefined);
  const question = (text: string) => Promise.race([rl.question(text), ended]);
  try {
    say(`"${sanitizeLine(request.server)}" asks ${duringWhich(request)}: ${sanitizeLine(request.message)}`);
    // Only Enter, y or yes answer it: a name typed too early ("Alice") is not a yes.
    let start = '';
    for (let i = 0; ; i++) {
      start = (await question(i === 0 ? 'Answer it? [Y]es, [n]o (decline), [c]ancel: ' : '  Type y (or Enter) to answer, n to decline, c to cancel: ')).trim().toLowerCase();
      if (['', 'y', 'yes', 'n', 'no', 'c', 'cancel'].includes(start)) break;
      if (i === TRIES - 1) return { action: 'cancel' };
    }
    if (start === 'n' || start === 'no') return { action: 'decline' };
    if (start === 'c' || start === 'cancel') return { action: 'cancel' };
    const content: Record<string, FormValue> = {};
    for (const field of request.fields) {
      const value = await askField(question, field, say);
      if (value === 'cancel') return { action: 'cancel' };
      if (value !== undefined) content[field.name] = value;
    }
    return { action: 'accept', content };
  } catch {
    return { action: 'cancel' }; // the input ended (Ctrl+D), or the call did
  } finally {
    request.callsEnded?.removeEventListener('abort', callEnded);
    rl.close();
  }
}

async function askField(question: (text: string) => Promise<string>, field: FormField, say: (line: string) => void): Promise<FormValue | undefined | 'cancel'> {
  const name = sanitizeLine(field.title ?? field.name);
  if (field.description) say(`  ${sanitizeLine(field.description)}`);
  if (field.secret) say(`  Warning: this looks like a password, token or key. Do not type secrets into a server's form: what you type is sent to the server as plain text.`);
  field.options?.forEach((o, i) => say(`    ${i + 1}. ${sanitizeLine(o.label)}`));
  const shownDefault = field.default === undefined ? '' : ` [${sanitizeLine(Array.isArray(field.default) ? field.default.join(', ') : String(field.default))}]`;
  for (let i = 0; i < TRIES; i++) {
    const text = (await question(`  ${name} (${hint(field)})${field.required ? '' : ', optional'}${shownDefault}: `)).trim();
    if (text === '') {
      if (field.default !== undefined) return field.default;
      if (!field.required) return undefined;
      say('  A value is required.');
      continue;
    }
    const value = parse(field, text);
    const problem = value === undefined ? 'is not a value of this kind' : loadElicitation().checkValue(field, value);
    if (!problem && value !== undefined) return value;
    say(`  ${name} ${problem}.`);
  }
  return 'cancel';
}

function hint(field: FormField): string {
  switch (field.kind) {
    case 'boolean':
      return 'y/n';
    case 'choice':
      return 'a number from the list';
    case 'choices':
      return 'numbers from the list, separated by commas';
    case 'string':
      return field.format ?? 'text';
    default:
      return field.kind === 'integer' ? 'a whole number' : 'a number';
  }
}

function parse(field: FormField, text: string): FormValue | undefined {
  const pick = (word: string) => field.options?.[Number(word) - 1]?.value ?? field.options?.find((o) => o.value === word)?.value;
  switch (field.kind) {
    case 'boolean':
      return /^(y|yes|true)$/i.test(text) ? true : /^(n|no|false)$/i.test(text) ? false : undefined;
    case 'number':
    case 'integer':
      return Number.isFinite(Number(text)) ? Number(text) : undefined;
    case 'choice':
      return pick(text);
    case 'choices': {
      const picked = text.split(',').map((w) => pick(w.trim()));
      return picked.every((p): p is string => p !== undefined) ? picked : undefined;
    }
    default:
      return text;
  }
}
