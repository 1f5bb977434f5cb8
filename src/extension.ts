import * as path from 'node:path';
import * as vscode from 'vscode';
import { CallPipeline } from './core/calls/callPipeline';
import { resolveLaunch } from './core/config/launch';
import { ServerPool } from './core/connection/serverPool';
import { SchemaValidator } from './core/tools/schemaValidator';
import { QuickPickApprover } from './vscode/approvalPicker';
import { registerCommands } from './vscode/commands';
import { OutputChannelSink } from './vscode/outputSink';
import { GrantStore } from './core/policy/grants';
import { RateLimiter } from './core/policy/rateLimiter';
import { FileAuditLog, mementoGrants, registerApprovalCommands } from './vscode/approvalCommands';
import { registerDefinitionDocuments } from './vscode/definitionDiff';
import { DefinitionReview } from './vscode/definitionReview';
import { ResultFiles, extensionFor } from './vscode/resultFiles';
import { ServerLogs } from './vscode/serverLogs';
import { approveAllCalls, maxMessageBytes, readServerSettings, SECTION } from './vscode/settings';
import { ToolTreeProvider } from './vscode/toolTree';
import { registerToolsView } from './vscode/toolsView';
import { InputVariables } from './vscode/inputVariables';
import { LaunchGate } from './vscode/launchGate';
import { toolCacheFor } from './vscode/toolCache';
import { watchWorkspaceServerFiles } from './vscode/workspaceServers';
import { vscodeOAuthHost } from './vscode/oauthHost';
import { registerSignOutCommand } from './vscode/signOutCommand';
import { registerChatParticipant } from './vscode/chat/chatParticipant';

/**
 * The extension-host tests' hooks into the running extension. activate() hands them out only
 * when VS Code runs it for tests: to any other extension they would be a way around the
 * CallPipeline (`pool` calls tools without approval), so in normal use it returns nothing.
 */
export interface McpToolHostApi {
  readonly pool: ServerPool;
  readonly pipeline: CallPipeline;
  readonly tree: ToolTreeProvider;
  /** How long activate() took, in ms (the bench reads it; budget 20 ms, ARCHITECTURE.md "Limits"). */
  readonly activationMs: number;
}

let pool: ServerPool | undefined;

export function activate(context: vscode.ExtensionContext): McpToolHostApi | undefined {
  const started = performance.now();
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  const output = vscode.window.createOutputChannel('MCP Tool Host');
  const logs = new ServerLogs();
  const validator = new SchemaValidator();
  let inputSpecs: ReturnType<typeof readServerSettings>['inputs'] = [];
  const inputs = new InputVariables(context.secrets, () => inputSpecs);
  const gate = new LaunchGate(context.workspaceState);
  const folders = () => (vscode.workspace.workspaceFolders ?? []).map((f) => ({ name: f.name, path: f.uri.fsPath, uri: f.uri.toString() }));
  pool = new ServerPool((name, definition) => ({
    log: logs.logFor(name),
    validator,
    clientVersion: version,
    maxMessageBytes: maxMessageBytes(),
    roots: () => folders().map((f) => ({ uri: f.uri, name: f.name })),
    resolveLaunch: async (def) => resolveLaunch(def, { workspaceFolders: folders(), env: process.env, inputs: await inputs.resolve(def) }),
    confirmLaunch: (def, shown) => gate.confirm(def, shown),
    toolCache: toolCacheFor(context.globalState, definition),
    oauth: vscodeOAuthHost(context.secrets),
  }));
  const results = new ResultFiles(path.join(context.globalStorageUri.fsPath, 'results'));
  const sink = new OutputChannelSink(output, {
    maxResultChars: () => vscode.workspace.getConfiguration(SECTION).get<number>('output.maxResultChars', 200_000),
    saveFullResult: (callId, text) => results.save(text, `result-${callId}`, 'txt'),
  });
  const grants = new GrantStore(mementoGrants(context.globalState));
  const audit = new FileAuditLog(path.join(context.globalStorageUri.fsPath, 'audit.jsonl'));
  const pipeline = new CallPipeline(pool, validator, new QuickPickApprover(), sink, {
    approveAll: approveAllCalls,
    saveBinary: (data, mimeType, nameHint) => results.save(data, nameHint, extensionFor(mimeType)),
    grants,
    audit,
    rateLimiter: new RateLimiter(() => {
      const config = vscode.workspace.getConfiguration(SECTION);
      return { burst: config.get<number>('rateLimit.burst', 20), perSecond: config.get<number>('rateLimit.perSecond', 10) };
    }),
  });
  const review = new DefinitionReview(context.globalState, pool, logs);
  const tree = new ToolTreeProvider(pool, pipeline.rules, review);
  const view = vscode.window.createTreeView('mcpToolHost.tools', { treeDataProvider: tree, showCollapseAll: true });
  let shownWarnings = '';
  const reload = () => {
    const settings = readServerSettings();
    inputSpecs = settings.inputs;
    const warnings = settings.warnings.join('\n');
    if (warnings && warnings !== shownWarnings) output.appendLine(`Configuration warnings:\n${settings.warnings.map((w) => `  - ${w}`).join('\n')}`);
    shownWarnings = warnings;
    pool?.apply(settings, { autoStart: true });
  };

  context.subscriptions.push(
    output,
    logs,
    tree,
    view,
    pool,
    registerCommands({ context, pool, pipeline, logs, output, reload }),
    registerToolsView({ context, pool, pipeline, logs, tree, view }),
    registerApprovalCommands(grants, pool, audit),
    review,
    vscode.commands.registerCommand('mcpToolHost.showChanges', (node?: { server: string; tool: string }) => node && review.showChanges(node.server, node.tool)),
    vscode.commands.registerCommand('mcpToolHost.acceptChanges', (node?: { server: string; tool: string }) => node && review.acceptChanges(node.server, node.tool)),
    registerDefinitionDocuments(),
    registerSignOutCommand(pool, context.secrets),
    registerChatParticipant({ context, pool, pipeline }),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(`${SECTION}.servers`) && reload()),
    vscode.workspace.onDidGrantWorkspaceTrust(reload),
    watchWorkspaceServerFiles(reload),
    vscode.workspace.onDidChangeWorkspaceFolders(() => pool?.connections.forEach((c) => c.notifyRootsChanged())),
  );
  reload();
  const activationMs = performance.now() - started;
  return context.extensionMode === vscode.ExtensionMode.Test ? { pool, pipeline, tree, activationMs } : undefined;
}

/** Stops every server: stdin closed, then SIGTERM and SIGKILL of each process tree. */
export async function deactivate(): Promise<void> {
  await pool?.stopAll();
  pool = undefined;
}
