// What Call Tool does once invoked (callToolCommand.ts registers it): the pick, the arguments, the
// progress, the result's links and files; loaded with dist/forms.js at the first call.
import * as vscode from 'vscode';
import { interfaceWanted } from '../apps/interfaceWanted';
import type { CallOutcome, CallPipeline } from '../../core/calls/callPipeline';
import type { ServerPool } from '../../core/connection/serverPool';
import type { CallOrigin } from '../../core/calls/ports';
import { sanitizeLine, shownName } from '../../core/render/sanitize';
import type { SchemaProblem } from '../../core/tools/schemaProblems';
import type { TreeNode } from '../tree/toolTree';
import { askArguments } from './argumentInput';
import type { ArgumentEditors } from './argumentEditor';
import type * as Apps from '../apps/later';
import type { InterfaceEvent } from '../apps/appPanel';
import type { SharedOffers } from '../shared/sharedOffers';
import { pickTool } from './pickTool';
import { offerSavedFiles } from './savedFiles';

export interface CallToolDeps {
  readonly pool: ServerPool;
  readonly pipeline: CallPipeline;
  /** Where the last arguments of each tool are kept (per workspace). */
  readonly workspaceState: vscode.Memento;
  /** The arguments editor, made at its first use. */
  readonly editors: () => ArgumentEditors;
  readonly output: vscode.OutputChannel;
  /** Told how each tool interface gets on (appPanel.ts). */
  readonly interfaceEvents?: (event: InterfaceEvent) => void;
  /** What servers offer besides tools: a tool's interface is read through them. */
  readonly offers: SharedOffers;
  /** The tool's interface (MCP Apps), loaded when one opens. */
  readonly later: () => { readonly apps: Pick<typeof Apps, 'startInterface'> };
}

/** What `mcpToolHost.callTool` is invoked with: a tree row, a target (with or without arguments), or nothing (palette). */
export type ToolTarget = { server: string; tool: string; args?: Record<string, unknown> };

/**
 * `mcpToolHost.callTool`: picks a tool when none is given, asks its arguments field by field
 * (each checked against the schema), then runs `CallPipeline.call` under a cancellable progress
 * notification. Resolves with the pipeline's outcome, or undefined when the user cancelled.
 */
export async function runCallTool(deps: CallToolDeps, target?: ToolTarget | TreeNode): Promise<CallOutcome | undefined> {
  const { pool, pipeline, workspaceState } = deps;
  const origin: CallOrigin = target ? 'tree' : 'palette';
  const picked: ToolTarget | undefined = target && 'tool' in target ? { server: target.server, tool: target.tool, args: 'args' in target ? target.args : undefined } : await pickTool(pool, vscode.l10n.t('MCP Tool Host: Call Tool'), vscode.l10n.t('Pick a tool to call'), deps.pipeline.rules);
  if (!picked) return undefined;
  const found = pool.findTool(picked.server, picked.tool);
  if (!found) {
    void vscode.window.showErrorMessage(vscode.l10n.t('Tool "{0}" is not available on server "{1}".', shownName(picked.tool), shownName(picked.server)));
    return undefined;
  }
  const key = `lastArgs:${picked.server}/${picked.tool}`;
  let previous = workspaceState.get<Record<string, unknown>>(key);
  let problems: readonly SchemaProblem[] | undefined;
  for (;;) {
    // The tool as listed now: its schema may have changed since the last attempt.
    const tool = pool.findTool(picked.server, picked.tool)?.tool ?? found.tool;
    const validate = (a: Record<string, unknown>) => pipeline.validateArguments(tool, a).problems;
    const args = picked.args ?? (await askArguments(tool, previous, validate, { editors: deps.editors(), server: picked.server, problems }));
    if (!args) return undefined;
    await workspaceState.update(key, args);
    const outcome = await runWithProgress(deps, { ...picked, args }, origin);
    // Arguments asked here and refused by the pipeline: reopen the prompts on the field at fault, values kept.
    if (outcome.kind !== 'invalid-arguments' || picked.args) return outcome;
    previous = args;
    problems = outcome.problems;
  }
}

/**
 * Runs the call under a cancellable progress notification; cancel aborts the request. A call the
 * server runs as a task leaves the notification when the task starts: its row in the Tools view
 * and the status bar follow it from there (Cancel Task), for as long as it takes, and a window
 * that closes meanwhile does not cancel it.
 */
async function runWithProgress(deps: CallToolDeps, target: Required<ToolTarget>, origin: CallOrigin) {
  // A tool with its own interface (MCP Apps): opened beside the output, fed the arguments and the result.
  const withInterface = interfaceWanted(deps.pool, target.server, target.tool);
  const toInterface = withInterface ? deps.later().apps.startInterface(deps, target) : undefined;
  const controller = new AbortController();
  let call: Promise<CallOutcome> | undefined;
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `${shownName(target.server)} / ${shownName(target.tool)}`, cancellable: true },
    (progress, token) => {
      const sub = token.onCancellationRequested(() => controller.abort());
      let reported = 0;
      const onProgress = (p: { progress: number; total?: number; message?: string }) => {
        const percent = p.total ? Math.min(100, (p.progress / p.total) * 100) : undefined;
        progress.report({ message: p.message ?? (p.total ? vscode.l10n.t('{0} of {1}', p.progress, p.total) : `${p.progress}`), increment: percent === undefined ? undefined : percent - reported });
        if (percent !== undefined) reported = percent;
      };
      return new Promise<void>((leave) => {
        const onTaskStarted = () => {
          sub.dispose();
          leave();
        };
        call = deps.pipeline.call({ ...target, origin, signal: controller.signal, onProgress, onTaskStarted, keepRaw: withInterface });
        void call.finally(() => (sub.dispose(), leave()));
      });
    },
  );
  const outcome = await call!;
  void toInterface?.then((send) => send?.(outcome));
  if ((outcome.kind === 'ok' || outcome.kind === 'tool-error') && outcome.result.links?.length) void offerResourceLinks(target.server, outcome.result.links);
  if ((outcome.kind === 'ok' || outcome.kind === 'tool-error') && outcome.result.files.length) void offerSavedFiles(outcome.result.files);
  if (outcome.kind === 'denied' && outcome.rule) {
    // Nobody was asked: say which rule refused it, or a click would seem to do nothing.
    void vscode.window.showWarningMessage(vscode.l10n.t('Not sent: {0}.', outcome.rule));
  }
  if (outcome.kind === 'failed') {
    const showOutput = vscode.l10n.t('Show Output');
    void vscode.window.showErrorMessage(vscode.l10n.t('Calling {0} failed: {1}', shownName(target.tool), outcome.message), showOutput).then((a) => a && deps.output.show());
  }
  return outcome;
}

/**
 * A result with resource links offers to open them, as the Tools view's Resources rows open one
 * (openResource.ts): read through the audited, capped read, text in a read-only editor, an image in
 * the image preview, other bytes offered to be saved.
 */
async function offerResourceLinks(server: string, links: readonly { uri: string; name?: string; mimeType?: string }[]): Promise<void> {
  const message = links.length === 1 ? vscode.l10n.t('The result has 1 resource link.') : vscode.l10n.t('The result has {0} resource links.', links.length);
  const action = await vscode.window.showInformationMessage(message, vscode.l10n.t('Open...'));
  if (!action) return;
  const picked = await vscode.window.showQuickPick(links.map((l) => ({ label: sanitizeLine(l.name ?? l.uri), description: sanitizeLine(l.mimeType ?? ''), detail: sanitizeLine(l.uri), link: l })), { title: vscode.l10n.t('Open a resource link') });
  if (!picked) return;
  const { uri, name, mimeType } = picked.link;
  await vscode.commands.executeCommand('mcpToolHost.openResource', { server, uri, name, mimeType });
}

