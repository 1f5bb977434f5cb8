import * as vscode from 'vscode';
import { firstValueSpan, parseArgumentsText, placeProblems, type PlacedProblem, type TextSpan } from '../../core/tools/argumentDocument';
import type { ValidateArguments } from '../../core/tools/argumentValues';
import type { SchemaProblem } from '../../core/tools/schemaProblems';

import { CANCEL_ARGUMENTS_COMMAND, RUN_ARGUMENTS_COMMAND } from './argumentCommands';
/** True while the active editor is an arguments editor (shows the editor-title actions). */
const CONTEXT_KEY = 'mcpToolHost.argumentsEditor';
const CHECK_DELAY_MS = 150;

export interface ArgumentEditRequest {
  /** The tool's display name, already sanitised. */
  readonly toolName: string;
  readonly server?: string;
  /** The JSON the editor opens with. */
  readonly text: string;
  readonly validate: ValidateArguments;
  /** Problems of a refused call, shown at once. */
  readonly problems?: readonly SchemaProblem[];
  /** Why the fields could not ask these arguments, when that is why the editor opened. */
  readonly reason?: string;
}

interface Session {
  readonly uri: vscode.Uri;
  readonly request: ArgumentEditRequest;
  readonly resolve: (args: Record<string, unknown> | undefined) => void;
  timer?: NodeJS.Timeout;
  /** What is wrong with the text now (syntax or schema), shown above it. */
  problems: readonly string[];
  /** Why the last Call did not go ahead, in the status bar until the session ends or the next Call (a toast outlived it). */
  notice?: vscode.Disposable;
}

/**
 * "Edit as JSON": a tool's arguments in an untitled JSON editor, checked against the schema as
 * you type (problems marked on the field they are about). Nothing is called until the user
 * confirms with "Call" (editor title, CodeLens or status bar); a problem then keeps the editor
 * open and says which field and why. Cancel, or closing the editor, calls nothing.
 */
export class ArgumentEditors implements vscode.Disposable {
  private readonly _sessions = new Map<string, Session>();
  private readonly _diagnostics = vscode.languages.createDiagnosticCollection('mcpToolHost.arguments');
  private readonly _status = vscode.window.createStatusBarItem('mcpToolHost.runArguments', vscode.StatusBarAlignment.Left, 1000);
  private readonly _onDidChangeLenses = new vscode.EventEmitter<void>();
  private readonly _disposables: vscode.Disposable[];

  constructor() {
    this._status.name = vscode.l10n.t('MCP Tool Host: Call Tool with These Arguments');
    this._status.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this._disposables = [
      this._diagnostics,
      this._status,
      this._onDidChangeLenses,
      vscode.languages.registerCodeLensProvider({ scheme: 'untitled' }, { onDidChangeCodeLenses: this._onDidChangeLenses.event, provideCodeLenses: (doc) => this._lenses(doc) }),
      vscode.window.onDidChangeActiveTextEditor(() => this._updateChrome()),
      vscode.workspace.onDidChangeTextDocument((e) => this._scheduleCheck(e.document)),
      vscode.workspace.onDidCloseTextDocument((doc) => this._closed(doc)),
    ];
  }

  /** Opens the editor; resolves with the confirmed arguments, or undefined when cancelled. */
  async edit(request: ArgumentEditRequest): Promise<Record<string, unknown> | undefined> {
    const uri = this._freshUri(request.toolName);
    const created = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(0, 0), request.text);
    await vscode.workspace.applyEdit(edit);
    const doc = created.languageId === 'json' ? created : await vscode.languages.setTextDocumentLanguage(created, 'json');
    let session: Session | undefined;
    const result = new Promise<Record<string, unknown> | undefined>((resolve) => this._sessions.set(uri.toString(), (session = { uri, request, resolve, problems: [] })));
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    const problems = request.problems ?? [];
    const placed = problems.length ? placeProblems(request.text, problems) : [];
    const caret = placed[0] ?? firstValueSpan(request.text);
    if (caret) editor.selection = selectionOf(doc, caret);
    this._check(doc, problems.length ? problems : undefined);
    this._updateChrome();
    this._onDidChangeLenses.fire();
    if (placed.length && session) notify(session, notValidMessage(request.toolName, placed));
    return result;
  }

  /** Confirms the arguments of `uri` (else the active arguments editor): true when the call goes ahead. */
  async run(uri?: vscode.Uri): Promise<boolean> {
    const session = this._session(uri);
    const doc = session && vscode.workspace.textDocuments.find((d) => d.uri.toString() === session.uri.toString());
    if (!session || !doc) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No tool is waiting for arguments here. Use "MCP Tool Host: Call Tool..." and choose "Edit as JSON".'));
      return false;
    }
    const text = doc.getText();
    const parsed = parseArgumentsText(text);
    if (!parsed.ok) {
      // VS Code's JSON support marks the syntax error itself; the lens above says it in words.
      this._setProblems(session, [parsed.message]);
      await this._reveal(doc, parsed.span);
      notify(session, vscode.l10n.t('{0} Fix it in the editor, then call again.', parsed.message));
      return false;
    }
    const problems = session.request.validate(parsed.value);
    if (problems.length) {
      const placed = placeProblems(text, problems);
      this._show(doc, placed);
      this._setProblems(session, placed.map((p) => p.message));
      await this._reveal(doc, placed[0]);
      notify(session, notValidMessage(session.request.toolName, placed));
      return false;
    }
    await this._finish(session, parsed.value);
    return true;
  }

  /** Closes the arguments editor of `uri` (else the active one) without calling. */
  async cancel(uri?: vscode.Uri): Promise<void> {
    const session = this._session(uri);
    if (session) await this._finish(session, undefined);
  }

  dispose(): void {
    for (const s of this._sessions.values()) {
      s.notice?.dispose();
      s.resolve(undefined);
    }
    this._sessions.clear();
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, false);
    for (const d of this._disposables) d.dispose();
  }

  private _session(uri: vscode.Uri | undefined): Session | undefined {
    const active = vscode.window.activeTextEditor?.document.uri;
    return (uri && this._sessions.get(uri.toString())) ?? (active && this._sessions.get(active.toString())) ?? (this._sessions.size === 1 ? [...this._sessions.values()][0] : undefined);
  }

  /** `untitled:Read Note arguments.json`, numbered when that name is taken. */
  private _freshUri(toolName: string): vscode.Uri {
    const base = `${toolName.replace(/[\\/:*?"<>|]+/g, '-')} arguments`;
    const taken = new Set(vscode.workspace.textDocuments.map((d) => d.uri.toString()));
    for (let n = 1; ; n++) {
      const uri = vscode.Uri.from({ scheme: 'untitled', path: `${base}${n === 1 ? '' : ` ${n}`}.json` });
      if (!taken.has(uri.toString()) && !this._sessions.has(uri.toString())) return uri;
    }
  }

  private async _finish(session: Session, args: Record<string, unknown> | undefined): Promise<void> {
    this._forget(session);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === session.uri.toString());
    if (doc && !doc.isClosed) {
      // An untitled editor asks "Save?" when closed; revert first, so Call and Cancel close it quietly.
      await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: false });
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    session.resolve(args);
  }

  private _closed(doc: vscode.TextDocument): void {
    const session = this._sessions.get(doc.uri.toString());
    if (!session) return;
    this._forget(session);
    session.resolve(undefined);
  }

  private _forget(session: Session): void {
    clearTimeout(session.timer);
    session.notice?.dispose();
    this._sessions.delete(session.uri.toString());
    this._diagnostics.delete(session.uri);
    this._updateChrome();
    this._onDidChangeLenses.fire();
  }

  private _scheduleCheck(doc: vscode.TextDocument): void {
    const session = this._sessions.get(doc.uri.toString());
    if (!session) return;
    clearTimeout(session.timer);
    session.timer = setTimeout(() => this._check(doc), CHECK_DELAY_MS);
  }

  /** Marks schema problems as you type; syntax errors are left to VS Code's JSON support. */
  private _check(doc: vscode.TextDocument, known?: readonly SchemaProblem[]): void {
    const session = this._sessions.get(doc.uri.toString());
    if (!session || doc.isClosed) return;
    const text = doc.getText();
    const parsed = parseArgumentsText(text);
    const problems = known ?? (parsed.ok ? session.request.validate(parsed.value) : []);
    const placed = placeProblems(text, problems);
    this._show(doc, placed);
    this._setProblems(session, parsed.ok || known ? placed.map((p) => p.message) : [parsed.message]);
  }

  private _setProblems(session: Session, problems: readonly string[]): void {
    session.problems = problems;
    this._onDidChangeLenses.fire();
  }

  private _show(doc: vscode.TextDocument, problems: readonly (TextSpan & { message: string })[]): void {
    this._diagnostics.set(doc.uri, problems.map((p) => {
      const d = new vscode.Diagnostic(rangeOf(doc, p), p.message, vscode.DiagnosticSeverity.Error);
      d.source = 'MCP Tool Host';
      return d;
    }));
  }

  private async _reveal(doc: vscode.TextDocument, span: TextSpan | undefined): Promise<void> {
    const editor = await vscode.window.showTextDocument(doc, { preview: false });
    if (!span) return;
    editor.selection = selectionOf(doc, span);
    editor.revealRange(rangeOf(doc, span), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private _updateChrome(): void {
    const active = vscode.window.activeTextEditor?.document.uri;
    const session = active && this._sessions.get(active.toString());
    void vscode.commands.executeCommand('setContext', CONTEXT_KEY, session !== undefined);
    if (!session) {
      this._status.hide();
      return;
    }
    const { toolName, server } = session.request;
    this._status.text = `$(play) ${vscode.l10n.t('Call {0}', toolName)}`;
    this._status.tooltip = server
      ? vscode.l10n.t('Call {0} on {1} with the arguments in this editor', toolName, server)
      : vscode.l10n.t('Call {0} with the arguments in this editor', toolName);
    this._status.command = { command: RUN_ARGUMENTS_COMMAND, title: vscode.l10n.t('Call'), arguments: [session.uri] };
    this._status.show();
  }

  private _lenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const session = this._sessions.get(doc.uri.toString());
    if (!session) return [];
    const { toolName, server, reason } = session.request;
    const top = new vscode.Range(0, 0, 0, 0);
    const lenses = [
      new vscode.CodeLens(top, {
        title: `$(play) ${server ? vscode.l10n.t('Call {0} on {1}', toolName, server) : vscode.l10n.t('Call {0}', toolName)}`,
        tooltip: vscode.l10n.t('Call the tool with the arguments in this editor'),
        command: RUN_ARGUMENTS_COMMAND,
        arguments: [doc.uri],
      }),
      new vscode.CodeLens(top, { title: `$(close) ${vscode.l10n.t('Cancel')}`, command: CANCEL_ARGUMENTS_COMMAND, arguments: [doc.uri] }),
    ];
    const [first, ...more] = session.problems;
    if (first) {
      const title = `$(error) ${more.length ? vscode.l10n.t('{0} (and {1} more)', first, more.length) : first}`;
      lenses.push(new vscode.CodeLens(top, { title, tooltip: session.problems.join('\n'), command: 'editor.action.marker.next' }));
    } else if (reason) {
      lenses.push(new vscode.CodeLens(top, { title: `$(info) ${vscode.l10n.t('JSON because {0}', reason)}`, command: '' }));
    }
    return lenses;
  }
}

/** Says in the status bar why the call did not go ahead; it goes when the session ends or with the next notice. */
function notify(session: Session, text: string): void {
  session.notice?.dispose();
  session.notice = vscode.window.setStatusBarMessage(`$(error) ${text}`);
}

function notValidMessage(toolName: string, placed: readonly PlacedProblem[]): string {
  const shown = placed.slice(0, 3).map((p) => p.message).join('; ');
  const problems = placed.length > 3 ? vscode.l10n.t('{0} (and {1} more)', shown, placed.length - 3) : shown;
  return vscode.l10n.t('The arguments for {0} are not valid yet: {1}. Fix them in the editor, then call again.', toolName, problems);
}

function rangeOf(doc: vscode.TextDocument, span: TextSpan): vscode.Range {
  return new vscode.Range(doc.positionAt(span.offset), doc.positionAt(span.offset + span.length));
}

function selectionOf(doc: vscode.TextDocument, span: TextSpan): vscode.Selection {
  return new vscode.Selection(doc.positionAt(span.offset), doc.positionAt(span.offset + span.length));
}
