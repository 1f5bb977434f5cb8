import * as vscode from 'vscode';
import type { CallOutcome } from '../../core/calls/callPipeline';
import { appReferenceOf } from '../../core/apps/appResource';
import { sanitizeLine } from '../../core/render/sanitize';
import { AppPanel, openAppPanel, type AppPanelDeps } from './appPanel';

/** The last interface opened (for "Open Interface"): its call and outcome, to show again. */
type LastInterface = { deps: AppPanelDeps; server: string; tool: string; uri: string; args: Record<string, unknown>; outcome?: CallOutcome; panel?: AppPanel };
let last: LastInterface | undefined;

/**
 * Opens the interface a tool declares for a call being made (tree, palette) and sends it the
 * arguments; returns what to do with the outcome (send it to the interface), or undefined when the
 * tool has no usable interface (a bad one is said once, plainly; the text result is shown anyway).
 */
export async function startInterface(deps: AppPanelDeps, call: { server: string; tool: string; args: Record<string, unknown> }): Promise<((outcome: CallOutcome) => void) | undefined> {
  const tool = deps.pool.findTool(call.server, call.tool)?.tool;
  const ref = tool ? appReferenceOf(tool) : { kind: 'none' as const };
  if (ref.kind === 'none') return undefined;
  if (ref.kind === 'invalid') return void vscode.window.showWarningMessage(vscode.l10n.t('{0}: {1} The result is shown as text.', sanitizeLine(call.tool), ref.message));
  const opened = await openAppPanel(deps, { ...call, uri: ref.uri });
  if (typeof opened === 'string') return void vscode.window.showWarningMessage(vscode.l10n.t('{0}: {1} The result is shown as text.', sanitizeLine(call.tool), opened));
  last?.panel?.dispose();
  const entry: LastInterface = { deps, ...call, uri: ref.uri, panel: opened };
  last = entry;
  void opened.sendInput();
  return (outcome) => {
    entry.outcome = outcome;
    void opened.sendOutcome(outcome);
  };
}

/** "Open Interface": shows the last interface again (reopened with its call's arguments and result when it was closed). */
export async function reopenLastInterface(): Promise<void> {
  if (!last) return void vscode.window.showInformationMessage(vscode.l10n.t('No tool interface was opened in this window yet.'));
  const entry = last;
  const opened = await openAppPanel(entry.deps, entry);
  if (typeof opened === 'string') return void vscode.window.showWarningMessage(opened);
  entry.panel?.dispose();
  entry.panel = opened;
  void opened.sendInput().then(() => entry.outcome && opened.sendOutcome(entry.outcome));
}
