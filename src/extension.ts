import type { SandboxOffer } from './vscode/servers/sandboxOffer';
import type { InstallDeps } from './vscode/install/installServer';
import { userDefinitions } from './vscode/config/userDefinitions';
import type { ChatDeps } from './vscode/chat/chatDeps';
import type { InterfaceEvent } from './vscode/apps/appPanel';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { mementoRuleBindings, ruleProblemReporter, settingsRules } from './vscode/rules/ruleSettings';
import { RuleBindings } from './core/policy/ruleBindings';
import type { RuleSet } from './core/policy/ruleSource';
import { registerRulesView } from './vscode/rules/rulesView';
import { loadChat, loadForms } from './vscode/lazy/load';
import type { Elicitor } from './core/elicitation/formElicitation';
import { CallPipeline } from './core/calls/callPipeline';
import { resolveLaunchAsking } from './core/config/launch';
import { ServerPool } from './core/connection/serverPool';
import { SchemaValidator } from './core/tools/schemaValidator';
import type { QuickPickApprover } from './vscode/approvals/approvalPicker';
import { CallToolCommand } from './vscode/calls/callToolCommand';
import type { ToolTarget } from './vscode/calls/callFlow';
import { OutputChannelSink } from './vscode/calls/outputSink';
import { GrantStore } from './core/policy/grants';
import { RateLimiter } from './core/policy/rateLimiter';
import { ApprovalCommands, mementoGrants } from './vscode/approvals/approvalCommands';
import { FileAuditLog } from './core/calls/fileAuditLog';
import { openAuditLog } from './vscode/calls/auditLog';
import type { ArgumentEditors } from './vscode/calls/argumentEditor';
import { CANCEL_ARGUMENTS_COMMAND, RUN_ARGUMENTS_COMMAND } from './vscode/calls/argumentCommands';
import { ConfiguredServers } from './vscode/config/configuredServers';
import { registerReadOnlyDocuments, showReadOnly } from './vscode/shared/readOnlyDocuments';
import { showDefinitionChanges } from './vscode/approvals/definitionDiff';
import { importSources, scanImportSources } from './core/config/importSources';
import { DefinitionReview } from './vscode/approvals/definitionReview';
import { WorkspaceLock } from './vscode/approvals/workspaceLock';
import type { ResultFolder } from './core/render/resultFolder';
import { ServerLogs } from './vscode/shared/serverLogs';
import { ServerCommands, type ServerTarget } from './vscode/servers/serverCommands';
import { approveAllCalls, offlineSandboxClosed, listingLimits, maxMessageBytes, maxResourceBytes, maxResultChars, rateLimit, resultsBudget, SECTION } from './vscode/config/settings';
import { ToolSchemaDocuments } from './vscode/calls/showSchema';
import { ServerStatusBar } from './vscode/tree/statusBar';
import { ToolTreeProvider } from './vscode/tree/toolTree';
import type { TreeNode } from './vscode/tree/treeNodes';
import { BundleDropController } from './vscode/install/bundleDrop';
import { ErrorBadge } from './vscode/tree/viewBadge';
import { ViewCommands, type ViewTarget } from './vscode/servers/viewCommands';
import { ViewContextKeys } from './vscode/tree/viewContextKeys';
import { InputVariables } from './vscode/config/inputVariables';
import { LaunchGate } from './vscode/servers/launchGate';
import { PromptEvents } from './vscode/shared/promptEvents';
import { toolCacheFor } from './vscode/tree/toolCache';
import { eraMemoryFor } from './vscode/config/eraMemory';
import { watchWorkspaceServerFiles } from './vscode/config/workspaceServers';
import { WaitingServersNotice } from './vscode/tree/untrustedServers';
import { vscodeOAuthHost } from './vscode/auth/oauthHost';
import { registerChatParticipant } from './vscode/chat/chatParticipant';
import { registerLmTools } from './vscode/chat/lmToolRegistration';
import { ChatAsks } from './vscode/prompts/chatAsks';
import { SharedOffers } from './vscode/shared/sharedOffers';
import { CONFIRM_PROMPT_COMMAND, PromptConfirms } from './vscode/chat/promptConfirms';
import { rootsOffer } from './core/config/roots';
import { TaskBoard } from './core/calls/taskBoard';
import { fileTasks, TaskCommands } from './vscode/tasks/taskCommands';
import type { TaskTarget } from './vscode/tasks/taskDeps';
import { WalkthroughProgress } from './vscode/tree/walkthroughProgress';
import { showOnFirstRun } from './vscode/tree/firstRun';
import { OfferRowSource } from './vscode/resources/offerRowSource';
import { registerResourceFileSystem, ResourceFileSystem } from './vscode/resources/resourceFs';
import { ResourceCommands, type ServerArg } from './vscode/resources/resourceCommands';
import { LogLevelSetting } from './vscode/resources/logLevelSetting';
import { GatewayHost } from './vscode/gateway/gatewayHost';
import type { GatewayAddress } from './vscode/gateway/gatewayProvider';
import { telemetrySwitch, type TelemetrySwitch } from './vscode/shared/telemetrySwitch';

/**
 * The extension-host tests' hooks into the running extension. activate() hands them out only
 * when VS Code runs it for tests: to any other extension they would be a way around the
 * CallPipeline (`pool` calls tools without approval), so in normal use it returns nothing.
 */
export interface McpToolHostApi {
  readonly pool: ServerPool;
  /** Where `${input:...}` values are kept (the install tests check a secret landed here, not in settings). */
  readonly secrets: vscode.SecretStorage;
  readonly pipeline: CallPipeline;
  readonly tree: ToolTreeProvider;
  /** The calls that servers run as tasks. */
  readonly tasks: TaskBoard;
  /** Where a chat call's elicitations are shown (the chat tests hand it to their handler). */
  readonly chatAsks: ChatAsks;
  /** How long activate() took, in ms (the bench reads it; budget 20 ms, ARCHITECTURE.md "Limits"). */
  readonly activationMs: number;
  /**
   * The files of dist/ loaded when activate() returned. A test that looks later may find more: a
   * timer after activation (the sandbox check, 3 s) loads dist/core.js, and a loaded host may take
   * that long to hand the test its answer.
   */
  readonly distAtActivation: readonly string[];
  /** Fires with the title of the approval or launch prompt just shown: the tests answer it then. */
  readonly onDidShowPrompt: vscode.Event<string>;
  /** Fires when one of our prompts appears, before it takes answers (the approval prompt arms after 500 ms). */
  readonly onDidOpenPrompt: vscode.Event<string>;
  /** The argument rules in force, and the Rules and Approvals view's rows. */
  readonly ruleSet: RuleSet;
  readonly rulesView: vscode.TreeDataProvider<unknown>;
  /** Fires as each tool interface (MCP Apps) opens, initialises, is fed and closes. */
  readonly onDidInterface: vscode.Event<InterfaceEvent>;
  /** The window's one ResourceOffers and PromptOffers (the chat tests hand them to their handler). */
  readonly offers: SharedOffers;
  /** Where `/prompt`'s Send buttons wait. */
  readonly promptConfirms: PromptConfirms;
  /** What @mcp opens a called tool's interface with (the chat tests hand it to their handler). */
  readonly openInterface: NonNullable<ChatDeps['openInterface']>;
  /** The `mcp-tool-host-resource:` documents (which resources are subscribed to while shown). */
  readonly resourceFs: ResourceFileSystem;
  /** The quick input shown last by our prompts (the tests type into a template's variable box). */
  readonly lastPrompt: () => vscode.QuickInput | undefined;
  /** Why the workspace lockfile is not used, if it is not (not JSON, too big, ...). */
  readonly workspaceLockProblem: () => string | undefined;
  /** Where the gateway for VS Code's own MCP client listens now, and its token (undefined while it is off). */
  readonly gatewayAddress: () => GatewayAddress | undefined;
}

let pool: ServerPool | undefined;
let telemetry: TelemetrySwitch | undefined;
/** How long after activation the results folder is pruned: activation itself stays within its budget (ARCHITECTURE.md "Limits"). */
const PRUNE_DELAY_MS = 5_000;
/** How long after activation the sandbox check runs (it loads dist/forms.js and dist/core.js). */
const SANDBOX_CHECK_DELAY_MS = 3_000;

export function activate(context: vscode.ExtensionContext): McpToolHostApi | undefined {
  const started = performance.now();
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  const storage = context.globalStorageUri.fsPath;
  const output = vscode.window.createOutputChannel('MCP Tool Host');
  const logs = new ServerLogs();
  const validator = new SchemaValidator();
  const servers = new ConfiguredServers(output);
  const inputs = new InputVariables(context.secrets);
  let elicitor: Elicitor | undefined;
  const prompts = new PromptEvents();
  const chatAsks = new ChatAsks();
  const interfaceEvents = new vscode.EventEmitter<InterfaceEvent>();
  const gate = new LaunchGate(context.workspaceState, prompts, loadForms);
  const folders = () => (vscode.workspace.workspaceFolders ?? []).map((f) => ({ name: f.name, path: f.uri.fsPath, uri: f.uri.toString() }));
  pool = new ServerPool((name, definition) => {
    const offer = rootsOffer(definition, folders);
    return {
      log: logs.logFor(name),
      validator,
      clientVersion: version,
      maxMessageBytes: maxMessageBytes(),
      listingLimits: listingLimits(),
      roots: offer.kind === 'offered' ? offer.roots : undefined,
      rootsWhy: offer.why,
      // A workspace's remote server may send the user's environment only as the launch prompt shows it (launchGate.ts);
      // the administrator's allowlist judges the launch before any ${input:...} is asked.
      resolveLaunch: (def) => resolveLaunchAsking(def, { workspaceFolders: folders(), env: process.env }, () => inputs.resolve(def), { envInWorkspaceRequests: 'shown' }),
      confirmLaunch: (def, shown, waiting, byUser) => gate.confirm(def, shown, waiting, byUser),
      toolCache: toolCacheFor(context.globalState, definition),
      eraMemory: eraMemoryFor(context.globalState, definition),
      // A server's form or link during a call (elicitation): in the chat for chat calls, else quick inputs; loaded at first use.
      // While it waits, the task rows it belongs to say what they wait for.
      elicit: (request) => loadForms().tasks.askingFor(tasks, request, () => (elicitor ??= loadForms().prompts.vscodeElicitor(prompts, chatAsks))(request)),
      oauth: vscodeOAuthHost(context.secrets, loadForms),
      // Dev mode's watcher and debugger load (dist/forms.js) only for a server whose definition has a "dev".
      ...(definition.spec.type === 'stdio' && definition.spec.dev && { dev: loadForms().servers.vscodeDevHost((server) => logs.logFor(server)) }),
    };
  });
  // Saved results are held to the user's budget: pruned at each save, and once soon after activation, off its path.
  // The folder's code loads with dist/forms.js at the first save or prune, not at activation.
  let resultFolder: ResultFolder | undefined;
  const results = () => (resultFolder ??= new (loadForms().calls.ResultFolder)(path.join(storage, 'results'), resultsBudget, { owns: 'folder', fullWhy: (max) => vscode.l10n.t('the results folder is full (mcpToolHost.results.maxSize: {0} MiB)', max / (1024 * 1024)) }));
  const pruning = setTimeout(() => void (fs.existsSync(path.join(storage, 'results')) && results().prune().catch(() => undefined)), PRUNE_DELAY_MS);
  // Whether this machine can sandbox, for the walkthrough's sandbox steps: checked soon after activation, off its path.
  const sandboxSupport = setTimeout(() => void loadForms().servers.markSandboxSupport().catch(() => undefined), SANDBOX_CHECK_DELAY_MS);
  const sink = new OutputChannelSink(output, {
    maxResultChars,
    saveFullResult: (callId, pieces) => results().saveText(callId, pieces, 'result'),
  });
  const grants = new GrantStore(mementoGrants(context.globalState));
  // Argument rules: read from settings and policy files at the first call that needs a decision.
  const ruleSet = settingsRules(ruleProblemReporter(output));
  const audit = new FileAuditLog(path.join(storage, 'audit.jsonl'));
  // Calls the servers run as tasks; kept per workspace, so a reload can still fetch their results.
  const tasks = new TaskBoard(fileTasks((context.storageUri ?? context.globalStorageUri).fsPath));
  // The approval prompt loads with the first call that needs one (dist/forms.js).
  let approver: QuickPickApprover | undefined;
  const approvals = { approve: (request: Parameters<QuickPickApprover['approve']>[0]) => (approver ??= new (loadForms().approvals.QuickPickApprover)(prompts, { showReadOnly, showDefinitionChanges, acceptLockDrift })).approve(request) };
  telemetry = telemetrySwitch(pool, output);
  // The team's lockfile in a workspace folder: a tool that differs from it asks before each call.
  const workspaceLock = new WorkspaceLock(() => folders().map((f) => f.path), () => pool?.connections.map((c) => c.name) ?? [], output, loadForms, context.globalState);
  context.subscriptions.push(workspaceLock);
  const acceptLockDrift: NonNullable<ConstructorParameters<typeof QuickPickApprover>[1]['acceptLockDrift']> = (server, tool, changed) => workspaceLock.accept(server, tool, { parts: changed.parts, locked: changed.before, lockfile: changed.against });
  const pipeline = new CallPipeline(pool, validator, approvals, sink, {
    telemetry: telemetry.current,
    lockDrift: (server, tool) => workspaceLock.driftOf(server, tool),
    approveAll: approveAllCalls,
    offlineSandboxClosed,
    saveBinary: (callId) => (data, mimeType, nameHint) => results().saveBinary(callId, data, mimeType, nameHint),
    grants,
    audit,
    rateLimiter: new RateLimiter(rateLimit),
    tasks,
    argumentRules: ruleSet,
    ruleBindings: new RuleBindings(mementoRuleBindings(context.globalState)),
    workspaceFolder: () => folders()[0]?.path,
  });
  // VS Code's own MCP client reaches our servers through the gateway, while the user's setting says so:
  // only servers the user let run, and every call asks through our approval prompt, never the client.
  const review = new DefinitionReview(context.globalState, pool, logs);
  const served = pool;
  const gateway = new GatewayHost({
    pool,
    pipeline,
    clientVersion: version,
    offers: (server) => {
      const def = served.get(server)?.definition;
      return def !== undefined && gate.allowed(def);
    },
    // The Tools view's trust on first use decides: a tool it marks changed is withheld until "Accept Changes".
    pins: {
      changeOf: (server, tool) => review.changedParts(server, tool.name),
      acceptHint: (server, tool) => vscode.l10n.t('the user can accept its new definition with "Accept Changes" on {0} › {1} in the MCP Tool Host Tools view', server, tool),
      onDidAccept: (listener) => review.onDidAccept(listener),
    },
  });
  // Started off the activation path (it loads dist/gateway.js); nothing loads while the setting is off.
  const gatewayStart = setTimeout(() => void gateway.apply(), 0);
  const promptConfirms = new PromptConfirms();
  // In a folder not trusted yet, the view names the servers it defines and offers to trust it.
  const waiting = new WaitingServersNotice((message) => (view.message = message), loadForms);
  // What servers offer besides tools: made at first use (dist/offers.js), shared by the view, the palette and chat.
  const offers = new SharedOffers({ pool, pipeline, audit, maxReadBytes: maxResourceBytes });
  const offerRows = new OfferRowSource(pool, offers, loadForms);
  const resourceFs = new ResourceFileSystem(() => offers.resources());
  const tree = new ToolTreeProvider(pool, loadForms, pipeline.rules, review, tasks, waiting, offerRows, workspaceLock);
  const view = vscode.window.createTreeView('mcpToolHost.tools', { treeDataProvider: tree, showCollapseAll: true, dragAndDropController: new BundleDropController() });
  const reload = () => {
    waiting.update();
    pool?.apply(servers.read(), { autoStart: true });
  };
  // The arguments editor (code lens, diagnostics, status bar item) comes with its first use (dist/forms.js).
  let editorsMade: ArgumentEditors | undefined;
  const editors = () => (editorsMade ??= new (loadForms().calls.ArgumentEditors)());
  const schemas = new ToolSchemaDocuments(pool);

  // This activation's pool, as the other commands hold it (the module's `pool` is gone after deactivate).
  const signingOut = pool;
  const taskCommands = new TaskCommands({ pool, pipeline, tasks, output, logs }, loadForms);
  const rulesView = registerRulesView({ ruleSet, pool, pipeline, workspaceState: context.workspaceState, showReadOnly }, loadForms);

  // Where tool interfaces (MCP Apps) open, for tree, palette and chat calls alike.
  const interfaceDeps = { pool, pipeline, offers, output, interfaceEvents: (e: InterfaceEvent) => interfaceEvents.fire(e), later: loadForms };
  const openInterface: NonNullable<ChatDeps['openInterface']> = (call) => loadForms().apps.startInterface(interfaceDeps, call);
  const viewCommands = new ViewCommands({ pool, logs, tree, view, schemas, extensionId: context.extension.id, later: loadForms });
  // What installing a stranger's server needs (Add Server from Registry, Install MCP Bundle).
  const installDeps: InstallDeps = { pool, tree, view, secrets: context.secrets, prompts, definitions: userDefinitions };
  context.subscriptions.push(
    output,
    { dispose: () => clearTimeout(pruning) },
    { dispose: () => clearTimeout(sandboxSupport) },
    { dispose: () => clearTimeout(gatewayStart) },
    gateway,
    taskCommands,
    prompts,
    logs,
    tree,
    view,
    waiting,
    pool,
    review,
    { dispose: () => editorsMade?.dispose() },
    schemas,
    new ErrorBadge(pool, view),
    new ServerStatusBar(pool, pipeline, tasks),
    tasks,
    new ViewContextKeys(pool),
    new WalkthroughProgress(pool, String(context.extension.packageJSON.displayName ?? 'MCP Tool Host')),
    registerReadOnlyDocuments(),
    offers,
    offerRows,
    resourceFs,
    registerResourceFileSystem(resourceFs),
    new LogLevelSetting(pool, offers, logs),
    chatAsks,
    interfaceEvents,
    promptConfirms,
    registerChatParticipant({ context, pool, pipeline, asks: chatAsks, openInterface, offers, confirms: promptConfirms, waitingServers: () => waiting.message }, loadChat),
    registerLmTools({ pool, pipeline, offers, openInterface }, loadChat),
    ...rulesView.disposables,
    ...registerAll(
      commandTable({
        calls: new CallToolCommand({ ...interfaceDeps, workspaceState: context.workspaceState, editors }, loadForms),
        servers: new ServerCommands({ pool, logs, output, reload, globalStoragePath: storage, extensionPath: context.extensionPath }),
        view: viewCommands,
        audit,
        approvals: new ApprovalCommands(grants, pool, ruleSet, loadForms),
        signOut: (arg) => loadForms().auth.signOut(signingOut, context.secrets, arg),
        sandboxEveryServer: () => loadForms().servers.sandboxEveryServer(),
        addFromRegistry: () => loadForms().install.addServerFromRegistry({ ...installDeps, storagePath: storage }),
        tasks: taskCommands,
        review,
        editors: () => editorsMade,
        runPrompt: (first, second) => loadChat().runPromptCommand({ pool: signingOut, offers, shown: prompts }, first, second),
        promptConfirms,
        resources: new ResourceCommands({ pool, offers, fs: resourceFs, logs }, prompts, loadForms),
        installBundle: (file) => loadForms().install.installBundle({ ...installDeps, storagePath: storage }, file),
      }),
    ),
    vscode.workspace.onDidChangeConfiguration((e) => (e.affectsConfiguration(`${SECTION}.servers`) || e.affectsConfiguration(`${SECTION}.sandbox.stdioByDefault`)) && reload()),
    vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration(`${SECTION}.rules`) && ruleSet.changed()),
    vscode.workspace.onDidGrantWorkspaceTrust(reload),
    // A server made before the folder was trusted asked for dev mode and could not have it: it watches from now on.
    vscode.workspace.onDidGrantWorkspaceTrust(() => served.renewDev()),
    watchWorkspaceServerFiles(reload),
    vscode.workspace.onDidChangeWorkspaceFolders(() => (ruleSet.changed(), pool?.connections.forEach((c) => c.notifyRootsChanged()))),
  );
  reload();
  void showOnFirstRun(context.globalState, () => viewCommands.openWalkthrough()).catch((err: unknown) => output.appendLine(vscode.l10n.t('Could not open the walkthrough: {0}', err instanceof Error ? err.message : String(err))));
  const activationMs = performance.now() - started;
  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  const dist = path.join(context.extensionPath, 'dist') + path.sep;
  const distAtActivation = Object.keys(require.cache).filter((file) => file.startsWith(dist)).map((file) => file.slice(dist.length));
  return { pool, secrets: context.secrets, pipeline, tree, tasks, chatAsks, activationMs, distAtActivation, onDidShowPrompt: prompts.onDidShowPrompt, onDidOpenPrompt: prompts.onDidOpenPrompt, ruleSet, rulesView: rulesView.provider, onDidInterface: interfaceEvents.event, openInterface, offers, promptConfirms, resourceFs, lastPrompt: () => prompts.lastShown, workspaceLockProblem: () => workspaceLock.problem, gatewayAddress: () => gateway.address };
}

/** The objects whose methods handle the commands; built in activate(). */
interface CommandHandlers {
  readonly calls: CallToolCommand;
  readonly servers: ServerCommands;
  readonly view: ViewCommands;
  readonly approvals: ApprovalCommands;
  readonly audit: FileAuditLog;
  /** Sign Out of Server (signOutCommand.ts, loaded at first use). */
  readonly signOut: (arg?: string | { server?: string }) => Promise<void>;
  /** Sandbox Every Local Server (sandboxOffer.ts, loaded at first use); returns what it did. */
  readonly sandboxEveryServer: () => Promise<SandboxOffer>;
  /** Add Server from Registry... (install/registryCommand.ts, loaded at first use). */
  readonly addFromRegistry: () => Promise<unknown>;
  readonly tasks: TaskCommands;
  readonly review: DefinitionReview;
  /** The arguments editor, if one was opened (the commands have nothing to do otherwise). */
  readonly editors: () => ArgumentEditors | undefined;
  /** Run Prompt... (chat/promptCommands.ts, loaded at first use): a server's prompt in an untitled document. */
  readonly runPrompt: (first?: unknown, second?: unknown) => Promise<unknown>;
  readonly promptConfirms: PromptConfirms;
  readonly resources: ResourceCommands;
  /** Install MCP Bundle... (install/bundleCommand.ts, loaded at first use): a .mcpb file, or a dialog for one. */
  readonly installBundle: (file?: unknown) => Promise<unknown>;
}

/** A command's handler; `never[]` because VS Code passes whatever the caller (menu, tree row, test) gives. */
type CommandHandler = (...args: never[]) => unknown;

/** A tree row with a tool, as the "changed" rows' menus pass it. */
type ToolRow = { server: string; tool: string };

/**
 * Every command the extension contributes (package.json `contributes.commands`), by id. The
 * `mcpToolHost.tree.*` ids are the Tools view menus' short-titled twins of the palette commands.
 */
function commandTable(h: CommandHandlers): Record<string, CommandHandler> {
  const { servers, view } = h;
  return {
    'mcpToolHost.callTool': (t?: ToolTarget | TreeNode) => h.calls.run(t),
    'mcpToolHost.openInterface': (t?: { server?: unknown; tool?: unknown }) => loadForms().apps.reopenLastInterface(t),
    [RUN_ARGUMENTS_COMMAND]: (uri?: unknown) => h.editors()?.run(uri instanceof vscode.Uri ? uri : undefined),
    [CANCEL_ARGUMENTS_COMMAND]: (uri?: unknown) => h.editors()?.cancel(uri instanceof vscode.Uri ? uri : undefined),

    'mcpToolHost.addDemoServer': () => servers.addDemoServer(),
    'mcpToolHost.addServer': () => view.addServer(),
    'mcpToolHost.addServerFromRegistry': () => h.addFromRegistry(),
    'mcpToolHost.installBundle': (file?: unknown) => h.installBundle(file),
    'mcpToolHost.importServers': () => loadForms().servers.importServers((home) => scanImportSources(importSources(process.platform, home, process.env))),
    'mcpToolHost.openSettings': () => servers.openSettings(),
    'mcpToolHost.refresh': () => servers.refresh(),
    'mcpToolHost.startServer': (t?: ServerTarget) => servers.start(t),
    'mcpToolHost.stopServer': (t?: ServerTarget) => servers.stop(t),
    'mcpToolHost.restartServer': (t?: ServerTarget) => servers.restart(t),
    'mcpToolHost.showServerLog': (t?: ServerTarget) => servers.showLog(t),
    'mcpToolHost.openPolicyFile': (t?: ServerTarget) => servers.openPolicyFile(t),
    'mcpToolHost.attachDebugger': (t?: ServerTarget) => servers.attachDebugger(t),
    'mcpToolHost.showOutput': () => servers.showOutput(),
    'mcpToolHost.openServerConfiguration': (t?: ViewTarget) => view.openServerConfiguration(t),
    'mcpToolHost.runDoctor': (t?: ViewTarget) => view.runDoctor(t),
    'mcpToolHost.showSchema': (t?: ViewTarget) => view.showSchema(t),
    'mcpToolHost.openWalkthrough': () => view.openWalkthrough(),
    'mcpToolHost.signOut': (arg?: string | { server?: string }) => h.signOut(arg),
    'mcpToolHost.sandboxEveryServer': () => h.sandboxEveryServer(),

    'mcpToolHost.openResource': (t?: Parameters<ResourceCommands['open']>[0], saveTo?: unknown) => h.resources.open(t, saveTo),
    'mcpToolHost.openResourceFromTemplate': (t?: Parameters<ResourceCommands['openFromTemplate']>[0]) => h.resources.openFromTemplate(t),
    'mcpToolHost.browseResources': (t?: ServerArg) => h.resources.browse(t),
    'mcpToolHost.setLogLevel': (t?: ServerArg, level?: unknown) => h.resources.setLogLevel(t, level),

    'mcpToolHost.cancelTask': (t?: TaskTarget) => h.tasks.cancel(t),
    'mcpToolHost.showTask': (t?: TaskTarget) => h.tasks.show(t),
    'mcpToolHost.fetchTaskResult': (t?: TaskTarget) => h.tasks.fetchResult(t),
    'mcpToolHost.forgetTask': (t?: TaskTarget) => h.tasks.forget(t),

    'mcpToolHost.manageApprovals': () => h.approvals.manage(),
    'mcpToolHost.resetApprovals': () => h.approvals.reset(),
    'mcpToolHost.openAuditLog': () => openAuditLog(h.audit),
    'mcpToolHost.runPrompt': (first?: unknown, second?: unknown) => h.runPrompt(first, second),
    [CONFIRM_PROMPT_COMMAND]: (id?: unknown, choice?: unknown) => h.promptConfirms.choose(id, choice),
    'mcpToolHost.showChanges': (row?: ToolRow) => row && h.review.showChanges(row.server, row.tool),
    'mcpToolHost.acceptChanges': (row?: ToolRow) => row && h.review.acceptChanges(row.server, row.tool),

    'mcpToolHost.tree.callTool': (t?: ViewTarget) => view.forTool('mcpToolHost.callTool', t),
    'mcpToolHost.tree.showSchema': (t?: ViewTarget) => view.forTool('mcpToolHost.showSchema', t),
    'mcpToolHost.tree.openInterface': (t?: ViewTarget) => view.forTool('mcpToolHost.openInterface', t),
    'mcpToolHost.tree.copyName': (t?: ViewTarget) => view.copyName(t),
    'mcpToolHost.tree.start': (t?: ViewTarget) => view.forServer('mcpToolHost.startServer', t),
    'mcpToolHost.tree.stop': (t?: ViewTarget) => view.forServer('mcpToolHost.stopServer', t),
    'mcpToolHost.tree.restart': (t?: ViewTarget) => view.forServer('mcpToolHost.restartServer', t),
    'mcpToolHost.tree.showLog': (t?: ViewTarget) => view.forServer('mcpToolHost.showServerLog', t),
    'mcpToolHost.tree.attachDebugger': (t?: ViewTarget) => view.forServer('mcpToolHost.attachDebugger', t),
    'mcpToolHost.tree.runDoctor': (t?: ViewTarget) => view.forServer('mcpToolHost.runDoctor', t),
    'mcpToolHost.tree.openConfiguration': (t?: ViewTarget) => view.openConfiguration(t),
  };
}

function registerAll(table: Record<string, CommandHandler>): vscode.Disposable[] {
  return Object.entries(table).map(([id, handler]) => vscode.commands.registerCommand(id, handler));
}

/** Stops every server: stdin closed, then SIGTERM and SIGKILL of each process tree. */
export async function deactivate(): Promise<void> {
  await pool?.stopAll();
  pool = undefined;
  // The settings listener ends and the last spans (the servers' stops among them) are sent, within a bound.
  await telemetry?.dispose();
  telemetry = undefined;
}
