import * as vscode from 'vscode';
import type { ElicitationAnswer } from '../../core/elicitation/formElicitation';
import type { OfferedUrl, UrlRequest } from '../../core/elicitation/urlElicitation';
import { sanitizeLine, shownName } from '../../core/render/sanitize';
import type { PromptEvents } from '../shared/promptEvents';

type LinkChoice = vscode.QuickPickItem & { readonly choice: 'open' | 'copy' | 'decline' };

/** How long after it appears the link prompt starts taking "Open" (a stray Enter never opens a page). */
const LINK_ARM_MS = 500;

/** The longest host shown in full beside the site; a longer one is shown by its tail, which ends in the site. */
const HOST_SHOWN_CHARS = 60;

/**
 * A server's request to open a link during a call (elicitation, URL mode): a prompt titled with
 * the site first (VS Code cuts a title at its end), then who asks; the server's message,
 * the host and the whole URL, and Open / Copy / Decline (Escape cancels). Only "Open" opens it,
 * through `vscode.env.openExternal`; never on its own. After that the host waits, in a
 * notification, for the server to say the page is done; or, when the call is sent again once the
 * page is done, asks the user to say when they finished (askFinished).
 */
export async function askLink(prompts: PromptEvents, request: UrlRequest & { readonly link: OfferedUrl }): Promise<ElicitationAnswer> {
  const { link } = request;
  const who = shownName(request.server);
  const calls = (request.calls ?? []).map((c) => `"${sanitizeLine(c)}"`);
  const qp = vscode.window.createQuickPick<LinkChoice>();
  try {
    qp.title = calls.length === 0
      ? vscode.l10n.t('Open a page on {0}? "{1}" asks', link.site, who)
      : calls.length === 1
        ? vscode.l10n.t('Open a page on {0}? "{1}" asks during its call {2}', link.site, who, calls[0])
        : vscode.l10n.t('Open a page on {0}? "{1}" asks during one of its calls {2}', link.site, who, calls.join(', '));
    qp.placeholder = sanitizeLine(request.message).slice(0, 300) || vscode.l10n.t('(no message)');
    qp.ignoreFocusOut = true;
    qp.matchOnDetail = true;
    qp.items = [
      { label: `$(link-external) ${vscode.l10n.t('Open {0} in the browser', link.site)}`, description: aboutHost(link), detail: link.url, choice: 'open' },
      { label: `$(copy) ${vscode.l10n.t('Copy the URL')}`, description: vscode.l10n.t('open it yourself'), choice: 'copy' },
      { label: `$(circle-slash) ${vscode.l10n.t('Decline')}`, description: vscode.l10n.t('the server is told you declined'), choice: 'decline' },
    ];
    // Consent starts on "Decline": opening a page takes a deliberate choice.
    qp.activeItems = [qp.items[2]];
    const shownAt = performance.now();
    const picked = await new Promise<LinkChoice | undefined>((resolve) => {
      qp.onDidAccept(() => {
        const item = qp.selectedItems[0];
        if (item?.choice !== 'decline' && performance.now() - shownAt < LINK_ARM_MS) return;
        resolve(item);
      });
      qp.onDidHide(() => resolve(undefined));
      prompts.show(qp, LINK_ARM_MS);
    });
    if (!picked) return { action: 'cancel' };
    if (picked.choice === 'decline') return { action: 'decline' };
    if (picked.choice === 'copy') await vscode.env.clipboard.writeText(link.url);
    else if (!(await vscode.env.openExternal(vscode.Uri.parse(link.url, true)))) {
      void vscode.window.showWarningMessage(vscode.l10n.t('The browser did not open {0}. Copy the URL from the prompt to open it yourself.', link.site));
    }
    // The call is sent again once the page is done: the user says when (a server may never send the notice).
    if (request.finished) void prompts.oneAtATime(() => askFinished(prompts, request, link, request.finished!));
    else if (request.completion) void waitForPage(who, link.site, request.completion);
    return { action: 'accept', content: {} };
  } finally {
    qp.dispose();
  }
}

type DoneChoice = vscode.QuickPickItem & { readonly done: boolean };

/**
 * After the page opened, for a call sent again once it is done: "Finished on <site>?" with
 * Done (the call is sent again) and Cancel (Escape too). It waits in its turn, as every prompt
 * does, and closes by itself when the server says the page is done or the call ends.
 */
async function askFinished(prompts: PromptEvents, request: UrlRequest, link: OfferedUrl, finished: (done: boolean) => void): Promise<void> {
  if (request.callsEnded?.aborted) return;
  const qp = vscode.window.createQuickPick<DoneChoice>();
  const calls = (request.calls ?? []).map((c) => `"${sanitizeLine(c)}"`);
  qp.title = vscode.l10n.t('Finished on {0}? "{1}" needs the page done before {2} is sent again', link.site, shownName(request.server), calls.length === 1 ? calls[0] : vscode.l10n.t('its call'));
  qp.placeholder = vscode.l10n.t('Choose Done when you have finished in the browser; this closes by itself if the server says the page is done.');
  qp.ignoreFocusOut = true;
  qp.items = [
    { label: `$(check) ${vscode.l10n.t('Done — Retry the call')}`, description: link.site, done: true },
    { label: `$(close) ${vscode.l10n.t('Cancel')}`, description: vscode.l10n.t('the call is not sent again'), done: false },
  ];
  qp.activeItems = [qp.items[0]];
  let closedByUs = false;
  const close = () => {
    closedByUs = true;
    qp.hide();
  };
  request.callsEnded?.addEventListener('abort', close, { once: true });
  void request.completion?.then((done) => done && close());
  try {
    const shownAt = performance.now();
    const picked = await new Promise<DoneChoice | undefined>((resolve) => {
      qp.onDidAccept(() => {
        // A stray Enter (the one that opened the page) never says it is done.
        if (performance.now() - shownAt < LINK_ARM_MS) return;
        resolve(qp.selectedItems[0]);
      });
      qp.onDidHide(() => resolve(undefined));
      prompts.show(qp, LINK_ARM_MS);
    });
    if (!closedByUs) finished(picked?.done === true);
  } finally {
    request.callsEnded?.removeEventListener('abort', close);
    qp.dispose();
  }
}

/**
 * A remote server's sign-in page (OAuth), offered in a notification: servers start on their own,
 * and a browser window should never appear unasked. The page is the server's choice, so the
 * message names its site first, as the link prompt does.
 */
export async function askToSignIn(serverName: string, page: OfferedUrl): Promise<boolean> {
  const signIn = vscode.l10n.t('Sign In');
  const about = aboutHost(page);
  const message = vscode.l10n.t('MCP server "{0}" needs you to sign in. Sign In opens a page on {1} in your browser.', shownName(serverName), page.site);
  const choice = await vscode.window.showInformationMessage(about ? `${message} (${about})` : message, signIn, vscode.l10n.t('Cancel'));
  return choice === signIn && vscode.env.openExternal(vscode.Uri.parse(page.url, true));
}

/**
 * What to know of the host besides its site: the whole host when it says more (by its tail when
 * long), its Unicode form beside the punycode of an international name, that an IP address names nobody.
 */
export function aboutHost(link: OfferedUrl): string | undefined {
  const notes: string[] = [];
  if (link.domain !== link.site) notes.push(vscode.l10n.t('host {0}', link.domain.length > HOST_SHOWN_CHARS ? `…${link.domain.slice(-(HOST_SHOWN_CHARS - 1))}` : link.domain));
  if (link.punycode) notes.push(vscode.l10n.t('an international name (in Unicode: {0}), shown as punycode: check it is the site you expect', sanitizeLine(link.unicode ?? '')));
  if (link.ip) notes.push(vscode.l10n.t('an IP address: no name says who runs this page'));
  return notes.length > 0 ? notes.join(' · ') : undefined;
}

/** A link VS Code refuses to open: the user hears why; the server gets a decline. */
export function refuseLink(request: UrlRequest & { readonly link: { kind: 'refused'; why: string; shown: string } }): ElicitationAnswer {
  void vscode.window.showWarningMessage(vscode.l10n.t('"{0}" asked to open a link, which was declined: {1}. ({2})', shownName(request.server), request.link.why, request.link.shown));
  return { action: 'decline' };
}

/** A notification while the server finishes with the page; it ends when the server says so (its log says it too). */
function waitForPage(who: string, domain: string, completion: Promise<boolean>): Thenable<void> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Waiting for "{0}" to finish with the page on {1}…', who, domain), cancellable: true },
    async (_progress, token) => {
      await new Promise<void>((resolve) => {
        token.onCancellationRequested(() => resolve());
        void completion.then(() => resolve());
      });
    },
  );
}
