import * as vscode from 'vscode';
import type { CallOutcome, CallPipeline } from '../../core/calls/callPipeline';
import type { ServerPool } from '../../core/connection/serverPool';
import { readAppDocument } from '../../core/apps/appRead';
import { appServerPlace, type AppDocument } from '../../core/apps/appResource';
import type { AppConversation } from '../../core/apps/appBridge';
import { loadApps, loadCsp } from '../../core/apps/load';
import { loadLinks } from '../../core/elicitation/load';
import { sanitizeLine, sanitizeText, shownName } from '../../core/render/sanitize';
import type { SharedOffers } from '../shared/sharedOffers';
import { relayHtml } from './relayHtml';
import { aboutHost } from '../prompts/linkPrompt';

export interface AppPanelDeps {
  readonly pool: ServerPool;
  readonly pipeline: CallPipeline;
  /** The interface is read through them, as every read is. */
  readonly offers: SharedOffers;
  readonly output: vscode.OutputChannel;
  /** Told how each interface gets on (the extension-host tests wait on it: McpToolHostApi.onDidInterface). */
  readonly interfaceEvents?: (event: InterfaceEvent) => void;
}

/** A step in an interface's life: opened (with origins of its CSP refused), its scripts ran and it said hello (initialized), fed, closed. */
export interface InterfaceEvent {
  readonly server: string;
  readonly tool: string;
  readonly what: 'opened' | 'refused' | 'initialized' | 'input-sent' | 'result-sent' | 'dropped' | 'closed';
  /** For 'dropped': what was dropped and why (too big, too many); for 'refused': the log line that names the refused origins. */
  readonly detail?: string;
}

/** What an interface was opened for: the call it shows. */
export interface AppCall {
  readonly server: string;
  readonly tool: string;
  readonly uri: string;
  readonly args: Record<string, unknown>;
  /** Opened for a chat's call: the interface may then offer a message to the chat (`ui/message`). */
  readonly fromChat?: boolean;
}

/** How long the webview has to report its theme before the interface starts without it. */
const THEME_WAIT_MS = 2_000;

/**
 * A tool's interface (MCP Apps, docs/mcp-apps.md) in a webview panel: the app's HTML in a sandboxed
 * frame under the CSP it declared; everything it asks goes through the host's rules (tools through
 * the CallPipeline with origin 'app', links after asking). Resolves when the interface is shown,
 * or with a sentence saying why not.
 */
export async function openAppPanel(deps: AppPanelDeps, call: AppCall): Promise<AppPanel | string> {
  const doc = await readAppDocument(deps.offers.resources(), call.server, call.uri, appServerPlace(deps.pool.get(call.server)?.definition.spec));
  if (!('html' in doc)) return doc.message;
  return new AppPanel(deps, call, doc);
}

export class AppPanel {
  private readonly _panel: vscode.WebviewPanel;
  private _conversation: Promise<AppConversation> | undefined;
  private readonly _subs: vscode.Disposable[] = [];

  constructor(
    private readonly _deps: AppPanelDeps,
    readonly call: AppCall,
    doc: AppDocument,
  ) {
    this._panel = vscode.window.createWebviewPanel('mcpToolHost.app', vscode.l10n.t('{0} (interface)', shownName(call.tool).slice(0, 60)), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true,
      enableForms: false,
      enableCommandUris: false,
      localResourceRoots: [],
      retainContextWhenHidden: true,
    });
    let theme: (variables: Record<string, string>) => void = () => undefined;
    const themed = new Promise<Record<string, string>>((resolve) => {
      theme = resolve;
      setTimeout(() => resolve({}), THEME_WAIT_MS);
    });
    this._subs.push(
      this._panel.webview.onDidReceiveMessage((m: unknown) => {
        if (!m || typeof m !== 'object') return;
        const { from, message, variables, dropped } = m as { from?: unknown; message?: unknown; variables?: unknown; dropped?: unknown };
        if (from === 'relay' && variables && typeof variables === 'object') theme(variables as Record<string, string>);
        else if (from === 'relay' && typeof dropped === 'string') this._dropped(sanitizeLine(dropped).slice(0, 100));
        else if (from === 'app') void this._conversation?.then((c) => c.receive(message));
      }),
      this._panel.onDidDispose(() => this.dispose()),
    );
    this._panel.webview.html = relayHtml(doc);
    this._conversation = themed.then((variables) => this._open(variables));
    this._tell('opened');
    if (doc.refused.length) {
      // Once per opening, with every origin named: the interface runs without them.
      const line = `[${sanitizeLine(call.server)} interface] ${sanitizeLine(loadCsp().refusedSentence(doc.refused, doc.place))}`.slice(0, 4000);
      this._deps.output.appendLine(line);
      this._tell('refused', line);
    }
    void this._conversation.then((c) => c.initialized).then(() => this._tell('initialized'), () => undefined);
  }

  /** Sends the call's arguments once the interface has initialised. */
  async sendInput(): Promise<void> {
    const c = await this._conversation!;
    await c.initialized;
    await c.sendToolInput(this.call.args);
    this._tell('input-sent');
  }

  /** Sends how the call ended: its result as the server sent it, or that it was cancelled. */
  async sendOutcome(outcome: CallOutcome): Promise<void> {
    const c = await this._conversation!;
    await c.initialized;
    if ((outcome.kind === 'ok' || outcome.kind === 'tool-error') && outcome.raw && 'content' in outcome.raw) await c.sendToolResult(outcome.raw as never);
    else await c.sendToolCancelled(outcome.kind === 'denied' ? 'The call was denied.' : outcome.kind === 'failed' ? sanitizeLine(outcome.message) : outcome.kind);
    this._tell('result-sent');
  }

  reveal(): void {
    this._panel.reveal(vscode.ViewColumn.Beside, true);
  }

  dispose(): void {
    if (!this._subs.length) return;
    for (const s of this._subs.splice(0)) s.dispose();
    this._tell('closed');
    void this._conversation?.then((c) => c.close());
    this._panel.dispose();
  }

  /** Something the interface sent was dropped (by the relay in the webview, or by the host's own caps). */
  private _dropped(why: string): void {
    this._deps.output.appendLine(`[${shownName(this.call.server)} interface] dropped ${why}`);
    this._tell('dropped', why);
  }

  private _tell(what: InterfaceEvent['what'], detail?: string): void {
    this._deps.interfaceEvents?.({ server: this.call.server, tool: this.call.tool, what, ...(detail === undefined ? {} : { detail }) });
  }

  private async _open(variables: Record<string, string>): Promise<AppConversation> {
    const { server } = this.call;
    const dark = vscode.window.activeColorTheme.kind === vscode.ColorThemeKind.Dark || vscode.window.activeColorTheme.kind === vscode.ColorThemeKind.HighContrast;
    return loadApps().openAppConversation({
      hostInfo: { name: 'mcp-tool-host', version: '0.1.0' },
      hostContext: { theme: dark ? 'dark' : 'light', styles: { variables }, displayMode: 'inline', availableDisplayModes: ['inline'], platform: 'desktop', locale: vscode.env.language },
      post: (message) => void this._panel.webview.postMessage({ to: 'app', message }),
      handlers: {
        callTool: async (name, args) => resultForApp(await this._deps.pipeline.call({ server, tool: name, args, origin: 'app', keepRaw: true })),
        openLink: (url) => askToOpen(url, server, (line) => this._deps.output.appendLine(line)),
        message: this.call.fromChat ? (text) => offerToChat(text) : undefined,
        log: (level, text) => this._deps.output.appendLine(`[${shownName(server)} interface] ${sanitizeLine(level)}: ${sanitizeLine(text).slice(0, 2000)}`),
        dropped: (why) => this._dropped(why),
      },
    });
  }
}

/** What the interface hears back from its tools/call: the server's result, or an error that says why not. */
function resultForApp(outcome: CallOutcome): { content: { type: string; text: string }[]; isError?: boolean } {
  const error = (text: string) => ({ content: [{ type: 'text', text }], isError: true });
  switch (outcome.kind) {
    case 'ok':
    case 'tool-error':
      return outcome.raw && 'content' in outcome.raw ? (outcome.raw as never) : { content: [{ type: 'text', text: outcome.result.text }], isError: outcome.kind === 'tool-error' };
    case 'denied':
      return error(outcome.rule ? `Denied: ${outcome.rule}.` : 'The user denied this call.');
    case 'invalid-arguments':
      return error(`Invalid arguments: ${outcome.problems.map((p) => p.message).join('; ')}`);
    case 'cancelled':
      return error('The call was cancelled.');
    case 'input-required':
      return error('The server asked for input; the call did not complete.');
    default:
      return error(outcome.message);
  }
}

/**
 * `ui/message` from an interface a chat opened: shown, not sent. The text goes into the chat's
 * input for @mcp, where the user reads it and sends it, edits it, or clears it.
 */
async function offerToChat(text: string): Promise<boolean> {
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@mcp ${sanitizeText(text).trim()}`, isPartialQuery: true });
  return true;
}

/** `ui/open-link`: asks first, showing the exact URL; only http(s) and mailto. */
async function askToOpen(url: string, server: string, log: (line: string) => void): Promise<boolean> {
  const open = vscode.l10n.t('Open Link');
  if (/^mailto:/i.test(url)) {
    if (url.length > 2048 || /[\s\p{Cc}\p{Cf}]/u.test(url)) return false;
    const answer = await vscode.window.showWarningMessage(vscode.l10n.t("The tool's interface wants to write an e-mail:"), { modal: true, detail: sanitizeLine(url) }, open);
    return answer === open && vscode.env.openExternal(vscode.Uri.parse(url, true));
  }
  // A web page: the rules of a server's link prompt, the site it leads to first.
  const link = loadLinks().checkUrl(url);
  if (link.kind === 'refused') {
    log(`[${shownName(server)} interface] a link it asked to open was refused: ${link.why}. (${link.shown})`);
    return false;
  }
  const about = aboutHost(link);
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t("The tool's interface wants to open a page on {0}", link.site),
    { modal: true, detail: `${about ? `${about}\n` : ''}${sanitizeLine(link.url)}` },
    open,
  );
  return answer === open && vscode.env.openExternal(vscode.Uri.parse(link.url, true));
}
