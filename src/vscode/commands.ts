import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CallPipeline } from '../core/calls/callPipeline';
import type { CallOrigin } from '../core/calls/ports';
import type { ServerPool } from '../core/connection/serverPool';
import { ServerState } from '../core/connection/serverState';
import { displayName, effectiveAnnotations } from '../core/tools/annotations';
import { badgeDescription } from '../core/tools/toolBadges';
import { sanitizeLine } from '../core/render/sanitize';
import { askArguments } from './argumentInput';
import { ArgumentEditors } from './argumentEditor';
import { importServers } from './importServers';
import { pickServer } from './pickServer';
import type { ServerLogs } from './serverLogs';
import type { TreeNode } from './toolTree';
import { addUserServers, SECTION } from './settings';

export interface CommandDeps {
  readonly context: vscode.ExtensionContext;
  readonly pool: ServerPool;
  readonly pipeline: CallPipeline;
  readonly logs: ServerLogs;
  readonly output: vscode.OutputChannel;
  readonly reload: () => void;
}

type ToolTarget = { server: string; tool: string; args?: Record<string, unknown> };

/** Registers every command of the extension; the returned disposable undoes it. */
export function registerCommands(deps: CommandDeps): vscode.Disposable {
  const { context, pool } = deps;
  const lastArgs = (t: ToolTarget) => context.workspaceState.get<Record<string, unknown>>(`lastArgs:${t.server}/${t.tool}`);
  const register = (id: string, fn: (...args: never[]) => unknown) => vscode.commands.registerCommand(id, fn);
  const argumentEditors = new ArgumentEditors();

  return vscode.Disposable.from(
    argumentEditors,
    register('mcpToolHost.callTool', async (target?: ToolTarget | TreeNode) => {
      const origin: CallOrigin = target ? 'tree' : 'palette';
      const picked = target && 'tool' in target ? { server: target.server, tool: target.tool, args: 'args' in target ? target.args : undefined } : await pickTool(pool);
      if (!picked) return undefined;
      const found = pool.findTool(picked.server, picked.tool);
      if (!found) {
        void vscode.window.showErrorMessage(`Tool "${picked.tool}" is not available on server "${picked.server}".`);
        return undefined;
      }
      let previous = lastArgs(picked);
      let problems: readonly string[] | undefined;
      for (;;) {
        // The tool as listed now: its schema may have changed since the last attempt.
        const tool = pool.findTool(picked.server, picked.tool)?.tool ?? found.tool;
        const validate = (a: Record<string, unknown>) => deps.pipeline.validateArguments(tool, a).problems;
        const args = picked.args ?? (await askArguments(tool, previous, validate, { editors: argumentEditors, server: picked.server, problems }));
        if (!args) return undefined;
        await context.workspaceState.update(`lastArgs:${picked.server}/${picked.tool}`, args);
        const outcome = await runWithProgress(deps, { ...picked, args }, origin);
        // Arguments asked here and refused by the pipeline: reopen the prompts on the field at fault, values kept.
        if (outcome.kind !== 'invalid-arguments' || picked.args) return outcome;
        previous = args;
        problems = outcome.problems;
      }
    }),
    register('mcpToolHost.addDemoServer', () => addDemoServer(context)),
    register('mcpToolHost.openSettings', () => vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.servers`)),
    register('mcpToolHost.refresh', () => {
      deps.reload();
      for (const c of pool.connections) if (ServerState.canStart(c.state)) void c.start();
    }),
    register('mcpToolHost.restartServer', async (node?: TreeNode | string) => {
      const name = serverOf(node) ?? (await pickServer(pool, 'Restart which server?'));
      if (name) await pool.get(name)?.restart();
    }),
    register('mcpToolHost.startServer', async (node?: TreeNode | string) => {
      const name = serverOf(node) ?? (await pickServer(pool, 'Start which server?', (c) => !ServerState.isRunning(c.state)));
      if (name) await pool.get(name)?.start();
    }),
    register('mcpToolHost.stopServer', async (node?: TreeNode | string) => {
      const name = serverOf(node) ?? (await pickServer(pool, 'Stop which server?', (c) => ServerState.canStop(c.state)));
      if (name) await pool.get(name)?.stop();
    }),
    register('mcpToolHost.showServerLog', async (node?: TreeNode | string) => {
      const name = serverOf(node) ?? (await pickServer(pool, 'Show the log of which server?'));
      if (name) deps.logs.channel(name).show(true);
    }),
    register('mcpToolHost.showOutput', () => deps.output.show(true)),
    register('mcpToolHost.importServers', importServers),
  );
}

/** Runs the call under a cancellable progress notification; cancel aborts the request. */
async function runWithProgress(deps: CommandDeps, target: Required<ToolTarget>, origin: CallOrigin) {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `${sanitizeLine(target.server)} / ${sanitizeLine(target.tool)}`, cancellable: true },
    async (progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort());
      try {
        let reported = 0;
        const onProgress = (p: { progress: number; total?: number; message?: string }) => {
          const percent = p.total ? Math.min(100, (p.progress / p.total) * 100) : undefined;
          progress.report({ message: p.message ?? (p.total ? `${p.progress} of ${p.total}` : `${p.progress}`), increment: percent === undefined ? undefined : percent - reported });
          if (percent !== undefined) reported = percent;
        };
        const outcome = await deps.pipeline.call({ ...target, origin, signal: controller.signal, onProgress });
        if ((outcome.kind === 'ok' || outcome.kind === 'tool-error') && outcome.result.links?.length) void offerResourceLinks(deps, target.server, outcome.result.links);
        if (outcome.kind === 'failed') {
          void vscode.window.showErrorMessage(`Calling ${target.tool} failed: ${outcome.message}`, 'Show Output').then((a) => a && deps.output.show());
        }
        return outcome;
      } finally {
        sub.dispose();
      }
    },
  );
}

/** A result with resource links offers to open them (read through resources/read). */
async function offerResourceLinks(deps: CommandDeps, server: string, links: readonly { uri: string; name?: string; mimeType?: string }[]): Promise<void> {
  const action = await vscode.window.showInformationMessage(`The result has ${links.length} resource link${links.length === 1 ? '' : 's'}.`, 'Open...');
  if (!action) return;
  const picked = await vscode.window.showQuickPick(links.map((l) => ({ label: sanitizeLine(l.name ?? l.uri), description: sanitizeLine(l.mimeType ?? ''), detail: sanitizeLine(l.uri), link: l })), { title: 'Open a resource link' });
  if (!picked) return;
  try {
    const contents = (await deps.pool.get(server)?.readResource(picked.link.uri)) ?? [];
    const text = contents.map((c) => c.text ?? `[binary ${c.mimeType ?? ''}, ${c.blob?.length ?? 0} base64 characters]`).join('\n');
    const doc = await vscode.workspace.openTextDocument({ content: text, language: /json/.test(picked.link.mimeType ?? '') ? 'json' : 'plaintext' });
    await vscode.window.showTextDocument(doc, { preview: true });
  } catch (err) {
    void vscode.window.showErrorMessage(`Could not open ${picked.link.uri}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

async function pickTool(pool: ServerPool): Promise<ToolTarget | undefined> {
  type Item = vscode.QuickPickItem & { target?: ToolTarget };
  const items: Item[] = [];
  for (const c of pool.connections) {
    if (c.tools.length === 0) continue;
    items.push({ label: sanitizeLine(c.name), kind: vscode.QuickPickItemKind.Separator });
    for (const t of c.tools) {
      const badges = badgeDescription(effectiveAnnotations(t, c.definition.trustAnnotations));
      items.push({ label: sanitizeLine(displayName(t)), description: `${sanitizeLine(c.name)} · ${badges}`, detail: sanitizeLine(t.description ?? ''), target: { server: c.name, tool: t.name } });
    }
  }
  if (items.length === 0) {
    void vscode.window.showInformationMessage('No running MCP server offers tools yet. Add one in settings, or try the demo server.', 'Add Demo Server').then((a) => a && vscode.commands.executeCommand('mcpToolHost.addDemoServer'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { title: 'MCP: Call Tool', placeHolder: 'Pick a tool to call', matchOnDescription: true, matchOnDetail: true });
  return picked?.target;
}

function serverOf(node: TreeNode | string | undefined): string | undefined {
  if (typeof node === 'string') return node;
  return node && 'server' in node ? node.server : undefined;
}

/**
 * Copies the bundled demo server to the extension's global storage (a path that survives
 * extension updates) and adds it to the user's settings, run by the extension host's own Node.
 */
async function addDemoServer(context: vscode.ExtensionContext): Promise<void> {
  const target = path.join(context.globalStorageUri.fsPath, 'demo-server.js');
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.copyFile(path.join(context.extensionPath, 'dist', 'demo-server.js'), target);
  // In desktop VS Code the host's executable is Electron; this variable makes it behave as Node.
  await addUserServers([{ name: 'demo', entry: { command: process.execPath, args: [target], env: { ELECTRON_RUN_AS_NODE: '1' } } }]);
  await vscode.commands.executeCommand('mcpToolHost.tools.focus');
}
