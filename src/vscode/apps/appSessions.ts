import * as vscode from 'vscode';
import type { CallOutcome } from '../../core/calls/callPipeline';
import { appReferenceOf } from '../../core/apps/appResource';
import { shownName } from '../../core/render/sanitize';
import { AppPanel, openAppPanel, type AppPanelDeps } from './appPanel';

/** An interface opened (for "Open Interface"): its call and outcome, to show again. */
type LastInterface = { deps: AppPanelDeps; server: string; tool: string; uri: string; args: Record<string, unknown>; fromChat?: boolean; outcome?: CallOutcome; panel?: AppPanel };
let last: LastInterface | undefined;
/** The last interface of each tool (key: server, NUL, tool), for "Open Interface" on its row; one panel is shown at a time. */
const lastOfTool = new Map<string, LastInterface>();
const keyOf = (server: string, tool: string) => `${server}\0${tool}`;

/**
 * Opens the interface a tool declares for a call being made (tree, palette) and sends it the
 * arguments; returns what to do with the outcome (send it to the interface), or undefined when the
 * tool has no usable interface (a bad one is said once, plainly; the text result is shown anyway).
 */
export async function startInterface(deps: AppPanelDeps, call: { server: string; tool: string; args: Record<string, unknown>; fromChat?: boolean }): Promise<((outcome: CallOutcome) => void) | undefined> {
  const tool = deps.pool.findTool(call.server, call.tool)?.tool;
  const ref = tool ? appReferenceOf(tool) : { kind: 'none' as const };
  if (ref.kind === 'none') return undefined;
  if (ref.kind === 'invalid') return void vscode.window.showWarningMessage(vscode.l10n.t('{0}: {1} The result is shown as text.', shownName(call.tool), ref.message));
  const opened = await openAppPanel(deps, { ...call, uri: ref.uri });
  if (typeof opened === 'string') return void vscode.window.showWarningMessage(vscode.l10n.t('{0}: {1} The result is shown as text.', shownName(call.tool), opened));
  last?.panel?.dispose();
  const entry: LastInterface = { deps, ...call, uri: ref.uri, panel: opened };
  last = entry;
  lastOfTool.set(keyOf(call.server, call.tool), entry);
  void opened.sendInput();
  return (outcome) => {
    entry.outcome = outcome;
    void opened.sendOutcome(outcome);
  };
}

/**
 * "Open Interface": shows the last interface again (of the given tool, from its row), reopened
 * with its call's arguments and result; a tool whose interface was not shown yet offers the call.
 */
export async function reopenLastInterface(target?: { server?: unknown; tool?: unknown }): Promise<void> {
  const server = typeof target?.server === 'string' ? target.server : undefined;
  const tool = typeof target?.tool === 'string' ? target.tool : undefined;
  const entry = server !== undefined && tool !== undefined ? lastOfTool.get(keyOf(server, tool)) : last;
  if (!entry) {
    if (server === undefined || tool === undefined) return void vscode.window.showInformationMessage(vscode.l10n.t('No tool interface was opened in this window yet.'));
    const call = vscode.l10n.t('Call Tool');
    const answer = await vscode.window.showInformationMessage(vscode.l10n.t('{0} has not shown its interface yet: call the tool to open it.', shownName(tool)), call);
    return void (answer === call && vscode.commands.executeCommand('mcpToolHost.callTool', { server, tool }));
  }
  if (!vscode.workspace.getConfiguration('mcpToolHost').get<boolean>('apps.enabled', true)) return void vscode.window.showInformationMessage(vscode.l10n.t('Tool interfaces are turned off (mcpToolHost.apps.enabled).'));
  const opened = await openAppPanel(entry.deps, entry);
  if (typeof opened === 'string') return void vscode.window.showWarningMessage(opened);
  last?.panel?.dispose();
  entry.panel?.dispose();
  entry.panel = opened;
  last = entry;
  void opened.sendInput().then(() => entry.outcome && opened.sendOutcome(entry.outcome));
}
