import * as readline from 'node:readline/promises';
import type { CallEnd, ElicitationAnswer, FormRequest } from '../core/elicitation/formElicitation';
import type { OfferedUrl, UrlRequest } from '../core/elicitation/urlElicitation';
import { sanitizeLine } from '../core/render/sanitize';
import type { ElicitationMode } from './args';
import { openInBrowser, type BrowserChoice } from './browserCommand';

/** Opens `url` in the user's browser; false when no browser could be started. */
export type UrlOpener = (url: string) => Promise<boolean>;

/**
 * A server's request to open a link during a call, on the CLI: a refused link is declined with
 * the reason on stderr; on a terminal the user sees the domain and the whole URL and answers y/N
 * (only "y" opens it); off a terminal, or with --elicitation decline or defaults, it is declined,
 * saying so on stderr. The call goes on with the server's answer, so the exit code is the call's.
 */
export async function answerUrl(request: UrlRequest, mode: ElicitationMode, opener: UrlOpener): Promise<ElicitationAnswer> {
  const who = `"${sanitizeLine(request.server)}"`;
  const during = duringWhich(request);
  const link = request.link;
  if (link.kind === 'refused') {
    console.error(`${who} asked to open a link ${during}; refused: ${link.why} (${link.shown}).`);
    return { action: 'decline' };
  }
  if (mode !== 'ask' || !process.stdin.isTTY) {
    const why = mode === 'ask' ? 'not a terminal (a link opens only when you agree at a prompt)' : `--elicitation ${mode} (a link opens only when you agree at a prompt)`;
    console.error(`${who} asked to open ${link.url} ${during}; declined: ${why}.`);
    return { action: 'decline' };
  }
  return askUrl(request, link, process.stdin, process.stderr, opener);
}

/** On a terminal: who asks and why, the domain, the URL, then "Open it? [y/N]". */
export async function askUrl(request: UrlRequest, link: OfferedUrl, input: NodeJS.ReadableStream, output: NodeJS.WritableStream, opener: UrlOpener): Promise<ElicitationAnswer> {
  const say = (line: string) => void output.write(`${line}\n`);
  const who = `"${sanitizeLine(request.server)}"`;
  say(`${who} asks you to open a link ${duringWhich(request)}: ${sanitizeLine(request.message).slice(0, 300)}`);
  // The site first (the registrable domain: linkCheck.ts): the host's start may imitate another.
  const notes = [link.ip && 'an IP address: no name says who runs this page', link.punycode && `an international name (in Unicode: ${sanitizeLine(link.unicode ?? '')}), shown as punycode: check it is the site you expect`].filter(Boolean);
  say(`  Site:   ${link.site}${notes.length > 0 ? `  (${notes.join('; ')})` : ''}`);
  if (link.domain !== link.site) say(`  Host:   ${link.domain}`);
  say(`  URL:    ${link.url}`);
  const rl = readline.createInterface({ input, output });
  const ended = new Promise<string>((resolve) => rl.once('close', () => resolve('')));
  // The call ends while the question is open: it is closed, saying why.
  let callEnded = false;
  const close = () => {
    callEnded = true;
    rl.close();
  };
  request.callsEnded?.addEventListener('abort', close, { once: true });
  let reply: string;
  try {
    reply = (await Promise.race([rl.question(`Open a page on ${link.site} in your browser? [y/N]: `), ended])).trim().toLowerCase();
  } finally {
    request.callsEnded?.removeEventListener('abort', close);
    rl.close();
  }
  if (callEnded) {
    say(`\n${closedBecause(request)}`);
    return { action: 'cancel' };
  }
  if (reply !== 'y' && reply !== 'yes') {
    say('Declined: the link was not opened.');
    return { action: 'decline' };
  }
  if (!(await opener(link.url))) say(`No browser could be started: copy the URL above into your browser.`);
  if (request.finished) {
    request.finished(await untilFinished(request, link, input, output));
    return { action: 'accept', content: {} };
  }
  if (request.completion) {
    say(`Waiting for ${who} to say the page is done (the call goes on meanwhile).`);
    void request.completion.then((done) => done && say(`${who} says the page on ${link.site} is done.`));
  }
  return { action: 'accept', content: {} };
}

/**
 * For a call sent again once the page is done: Enter says the user finished there; Ctrl+C (or the
 * end of input) gives up; the server's notice or the end of the call ends the wait as well.
 * True: send the request again.
 */
async function untilFinished(request: UrlRequest, link: OfferedUrl, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<boolean> {
  const say = (line: string) => void output.write(`${line}\n`);
  const who = `"${sanitizeLine(request.server)}"`;
  const rl = readline.createInterface({ input, output });
  let by: 'server' | 'cancelled' | 'call-ended' | undefined;
  const stop = (why: typeof by) => () => {
    by ??= why;
    rl.close();
  };
  const closed = new Promise<'closed'>((resolve) => rl.once('close', () => resolve('closed')));
  const callEnded = stop('call-ended');
  rl.on('SIGINT', stop('cancelled'));
  request.callsEnded?.addEventListener('abort', callEnded, { once: true });
  void request.completion?.then((done) => done && stop('server')());
  try {
    const how = await Promise.race([rl.question(`Press Enter when you have finished in the browser (Ctrl+C cancels): `).then(() => 'enter' as const, () => 'closed' as const), closed]);
    // Closed with no reason given: the end of input (Ctrl+D) gives up.
    if (how === 'closed') by ??= 'cancelled';
  } finally {
    request.callsEnded?.removeEventListener('abort', callEnded);
    rl.close();
  }
  if (by === 'server') say(`\n${who} says the page on ${link.site} is done: sending the call again.`);
  else if (by === 'call-ended') say(`\n${closedBecause(request)}`);
  else if (by === 'cancelled') say(`\nCancelled: the call is not sent again.`);
  else say(`Sending the call again.`);
  return by === undefined || by === 'server';
}

/** Opens links the user agreed to with their browser command (--browser, BROWSER) or the platform's opener, never a shell. */
export const browserOpener = (choice: BrowserChoice): UrlOpener => (url) => openInBrowser(choice, url);

/** `during its call "x"`: the call (or calls) a request may belong to (the host asks only during calls: promptGate.ts). */
export function duringWhich(request: FormRequest | UrlRequest): string {
  const calls = (request.calls ?? []).map((c) => `"${sanitizeLine(c)}"`);
  return calls.length === 0 ? 'during a call' : calls.length === 1 ? `during its call ${calls[0]}` : `during one of its calls ${calls.join(', ')}`;
}

/** Why a prompt on the terminal was given up: how its call ended. */
export function closedBecause(request: FormRequest | UrlRequest): string {
  const during = duringWhich(request).replace(/^during /, '');
  const how = request.callsEnded?.reason as CallEnd | undefined;
  if (how === 'withdrawn') return `The question was closed: the server withdrew it ${duringWhich(request)}. Nothing was sent back.`;
  const what = how === 'cancelled' ? 'was cancelled' : how === 'timed-out' ? 'timed out (its total time limit runs while you answer)' : how === 'server-stopped' ? 'ended: the server stopped' : how === 'failed' ? 'failed' : 'ended without waiting for the answer';
  return `The question was closed: ${during} ${what}.`;
}
