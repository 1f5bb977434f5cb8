import * as vscode from 'vscode';
import { MANAGE_TRUST_COMMAND } from './untrustedServers';
import type { ServerConnection } from '../../core/connection/serverConnection';
import { ServerState } from '../../core/connection/serverState';
import { assertNever } from '../../core/events';
import { sanitizeLine, sanitizeText, shownName, shownTitle } from '../../core/render/sanitize';
import { annotationsKey, type EffectiveAnnotations } from '../../core/tools/annotations';
import { rowBadgeDescription, toolBadges, toolRisk, untrustedClaim, type ToolRisk } from '../../core/tools/toolBadges';
import { appReferenceOf } from '../../core/apps/appReference';
import type { ActionNode, ConfigErrorNode, MessageNode, ServerAction, TaskNode, ToolNode } from './treeNodes';
import type { TaskEntry } from '../../core/calls/taskBoard';

const icon = (id: string, color?: string) => new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);
const toolCount = (n: number) => (n === 1 ? vscode.l10n.t('1 tool') : vscode.l10n.t('{0} tools', n));
const cachedCount = (n: number) => (n === 1 ? vscode.l10n.t('1 cached tool') : vscode.l10n.t('{0} cached tools', n));

/** The icon of each risk: red trash, orange globe, blue pencil, green eye (rows of one risk share it). */
const RISK_ICON: Readonly<Record<ToolRisk, vscode.ThemeIcon>> = {
  destructive: icon('trash', 'charts.red'),
  'open-world': icon('globe', 'charts.orange'),
  writes: icon('edit', 'charts.blue'),
  'read-only': icon('eye', 'charts.green'),
};
/** A tool of an untrusted server that claims a milder effect: neither the claim's icon (not trusted) nor a trash can (not declared). */
const UNTRUSTED_CLAIM_ICON = icon('unverified', 'charts.yellow');

/**
 * A server row: its state as icon (spinner, green check, red error, history for cached tools,
 * slashed circle, empty circle), tool count and version or state as description.
 */
export function serverItem(connection: ServerConnection, expanded: boolean): vscode.TreeItem {
  // The tooltip comes on hover (resolveTreeItem): what the tools cost in tokens loads the tokenizer then, not with the view.
  const item = new vscode.TreeItem(shownName(connection.name), expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `server:${connection.name}`;
  const state = connection.state;
  // A server running with dev mode's Node inspector offers Attach Debugger (its session may have been ended).
  item.contextValue = `mcpServer;${ServerState.phase(state)};${connection.debuggable ? 'debuggable;' : ''}`;
  const tools = connection.tools.length;
  // Tools shown while the server is not running are the last-known list: "cached".
  const cached = tools > 0 && (connection.toolsFromCache || !ServerState.isRunning(state));
  switch (state.kind) {
    case 'running':
      item.iconPath = icon('pass-filled', 'testing.iconPassed');
      item.description = `${toolCount(tools)}${state.serverVersion ? ` · v${sanitizeLine(state.serverVersion)}` : ''}`;
      break;
    case 'starting': {
      // A start that waits on the user (the launch prompt, a sign-in) says so, and does not spin.
      item.iconPath = state.message ? icon('bell-dot', 'notificationsInfoIcon.foreground') : icon('loading~spin');
      const starting = vscode.l10n.t('starting…');
      item.description = state.message ? sanitizeLine(state.message) : cached ? `${starting} · ${cachedCount(tools)}` : starting;
      break;
    }
    case 'error':
      item.iconPath = icon('error', 'testing.iconFailed');
      // Refused by the administrator, not broken: the row says so before anyone opens it.
      if (state.refusedBy !== undefined) item.description = vscode.l10n.t('refused by policy');
      else item.description = state.restartInMs ? vscode.l10n.t('crashed · restarting in {0} s', Math.round(state.restartInMs / 1000)) : vscode.l10n.t('error');
      break;
    case 'stopped':
      item.iconPath = cached ? icon('history', 'descriptionForeground') : icon('circle-large-outline');
      item.description = state.message ? sanitizeLine(state.message) : cached ? `${vscode.l10n.t('stopped')} · ${cachedCount(tools)}` : vscode.l10n.t('stopped');
      break;
    case 'disabled':
      item.iconPath = icon('circle-slash', 'disabledForeground');
      item.description = vscode.l10n.t('disabled');
      break;
    default:
      assertNever(state);
  }
  if (!connection.definition.trustAnnotations) item.description = `${item.description} · ${vscode.l10n.t('hints not trusted')}`;
  const spec = connection.definition.spec;
  if (spec.type === 'stdio' && spec.sandbox) item.description = `${item.description} · ${vscode.l10n.t('sandboxed')}`;
  // Restarts when its files change, maybe under a debugger: the author should see why it comes and goes.
  if (connection.devMode) item.description = `${item.description} · ${vscode.l10n.t('dev')}`;
  return item;
}

/**
 * A tool row: display name, badges as description, the icon and color of its risk; clicking
 * calls it. The tooltip comes later, in resolveTreeItem. Thousands of rows stay cheap: what a
 * row draws from its definition is made once per definition, what it draws from its annotations
 * once per distinct annotations, and the rest is read from `vscode` once (in the bundle each
 * `vscode.X` is a getter, and `l10n.t` looks its text up each time).
 */
export function toolItem(node: ToolNode, annotations: EffectiveAnnotations, changed?: readonly string[], lockDrift = false): vscode.TreeItem {
  const facts = definitionFacts(node.definition);
  const look = claimedLook(node.definition, annotations) ?? rowLook(annotations);
  const words = rowWords();
  const item = new words.TreeItem(facts.label, words.none);
  item.id = node.id;
  // A tool with its own interface (MCP Apps): said on the row, and "Open Interface" in its menus.
  // One that differs from the team's lockfile is marked as a changed one is (its tooltip says against what).
  const marked = changed !== undefined || lockDrift || facts.withInterface;
  item.description = marked ? `${changed ? `${words.changed} · ` : ''}${lockDrift ? `${words.lockDrift} · ` : ''}${look.description}${facts.withInterface ? ` · ${words.interface}` : ''}` : look.description;
  item.iconPath = look.icon;
  // Flags for `viewItem =~ /;destructive;/`: readonly, writes, destructive, idempotent, openworld.
  item.contextValue = marked ? `${look.contextValue}${changed ? 'changed;' : ''}${lockDrift ? 'lockDrift;' : ''}${facts.withInterface ? 'interface;' : ''}` : look.contextValue;
  item.command = { command: 'mcpToolHost.callTool', title: words.callTool, arguments: [{ server: node.server, tool: node.tool }] };
  item.accessibilityInformation = { label: `${facts.label}, ${item.description}` };
  return item;
}

/** What a row draws from its definition. */
interface DefinitionFacts {
  readonly label: string;
  readonly withInterface: boolean;
}

/** What a row draws from its annotations. */
interface RowLook {
  readonly description: string;
  readonly contextValue: string;
  readonly icon: vscode.ThemeIcon;
}

/** The words and classes every tool row uses. */
interface RowWords {
  readonly TreeItem: typeof vscode.TreeItem;
  readonly none: vscode.TreeItemCollapsibleState;
  readonly callTool: string;
  readonly changed: string;
  readonly lockDrift: string;
  readonly interface: string;
}

// A listing's definitions stay the same objects until the next listing.
const factsByDefinition = new WeakMap<object, DefinitionFacts>();
function definitionFacts(definition: ToolNode['definition']): DefinitionFacts {
  let facts = factsByDefinition.get(definition);
  if (!facts) factsByDefinition.set(definition, (facts = { label: shownTitle(definition), withInterface: appReferenceOf(definition).kind === 'app' }));
  return facts;
}

// A few dozen kinds of annotations at most, told apart by annotationsKey.
const looksByAnnotations = new Map<number, RowLook>();
function rowLook(annotations: EffectiveAnnotations): RowLook {
  const key = annotationsKey(annotations);
  let look = looksByAnnotations.get(key);
  if (!look) {
    const badges = toolBadges(annotations);
    look = { description: rowBadgeDescription(badges), contextValue: `mcpTool;${badges.map((b) => `${b.word.replace('-', '')};`).join('')}`, icon: RISK_ICON[toolRisk(annotations)] };
    looksByAnnotations.set(key, look);
  }
  return look;
}

/**
 * The row of a tool whose server's hints are not trusted but which declares itself read-only (or
 * non-destructive): "declared read-only, not trusted" with a neutral icon. Its contextValue keeps the
 * worst-case flags: it is still approved as destructive and open-world.
 */
function claimedLook(definition: ToolNode['definition'], annotations: EffectiveAnnotations): RowLook | undefined {
  const claim = untrustedClaim(definition, annotations);
  if (!claim) return undefined;
  const worst = rowLook(annotations);
  const description = claim === 'read-only' ? vscode.l10n.t('declared read-only, not trusted') : vscode.l10n.t('declared non-destructive, not trusted');
  return { description, contextValue: worst.contextValue, icon: UNTRUSTED_CLAIM_ICON };
}

// Read once: the display language is fixed for the window's life.
let wordsRead: RowWords | undefined;
function rowWords(): RowWords {
  return (wordsRead ??= { TreeItem: vscode.TreeItem, none: vscode.TreeItemCollapsibleState.None, callTool: vscode.l10n.t('Call Tool'), changed: vscode.l10n.t('changed!'), lockDrift: vscode.l10n.t('differs from lockfile!'), interface: vscode.l10n.t('interface') });
}

/**
 * A task row: the tool, and what the server said of the task last. Running: a spinner, Cancel
 * Task inline. From an earlier session: a history icon, Fetch Result (the click) and Forget inline.
 */
export function taskItem(node: TaskNode, entry: TaskEntry): vscode.TreeItem {
  const item = new vscode.TreeItem(vscode.l10n.t('{0} (task)', shownName(entry.tool)), vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  const said = entry.statusMessage ? ` · ${entry.statusMessage}` : '';
  // The question it asks now, while the user has it to answer (TaskBoard.asking).
  const question = entry.question;
  if (entry.live) {
    item.iconPath = entry.status === 'input_required' || question !== undefined ? icon('bell-dot', 'notificationsInfoIcon.foreground') : icon('sync~spin');
    item.description = question === undefined ? `${taskStatusWord(entry.status)}${said}` : vscode.l10n.t('waiting for your answer: {0}', question);
    item.command = { command: 'mcpToolHost.showTask', title: vscode.l10n.t('Show Task Status'), arguments: [node] };
  } else {
    item.iconPath = icon('history', 'descriptionForeground');
    item.description = entry.status === 'earlier' ? vscode.l10n.t('from an earlier session') : `${taskStatusWord(entry.status)}${said} · ${vscode.l10n.t('from an earlier session')}`;
    item.command = { command: 'mcpToolHost.fetchTaskResult', title: vscode.l10n.t('Fetch Result'), arguments: [node] };
  }
  item.contextValue = `mcpTask;${entry.live ? 'live' : 'earlier'};`;
  item.tooltip = [
    vscode.l10n.t('Task {0} of {1}', shownName(entry.taskId), shownName(entry.tool)),
    vscode.l10n.t('Started {0}', new Date(entry.startedAt).toLocaleString()),
    ...(question === undefined ? [] : [vscode.l10n.t('Waits for your answer: {0}', question)]),
    entry.live ? vscode.l10n.t('Running; Cancel Task asks the server to stop it.') : vscode.l10n.t('Started in an earlier session: Fetch Result shows its result in the output channel, where the server still keeps it.'),
  ].join('\n');
  item.accessibilityInformation = { label: `${item.label as string}, ${item.description}` };
  return item;
}

/** A task's status in words. */
function taskStatusWord(status: TaskEntry['status']): string {
  switch (status) {
    case 'working':
      return vscode.l10n.t('working');
    case 'input_required':
      return vscode.l10n.t('waiting for input');
    case 'completed':
      return vscode.l10n.t('completed');
    case 'failed':
      return vscode.l10n.t('failed');
    case 'cancelled':
      return vscode.l10n.t('cancelled');
    case 'earlier':
      return vscode.l10n.t('from an earlier session');
    default:
      return assertNever(status);
  }
}

/** A line under a server: the reason it failed (error), or why it has no tools (info). */
export function messageItem(node: MessageNode): vscode.TreeItem {
  const item = new vscode.TreeItem(sanitizeLine(node.text), vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.iconPath = node.tone === 'error' ? icon('warning', 'problemsWarningIcon.foreground') : icon('info');
  item.tooltip = sanitizeText(node.text);
  item.contextValue = `mcpMessage;${node.tone};`;
  if (node.tone === 'error') item.command = { command: 'mcpToolHost.showServerLog', title: vscode.l10n.t('Show Log'), arguments: [node.server] };
  return item;
}

/** The fixes under a server; a function, so the texts are looked up in the user's language when shown. */
function actionOf(action: ServerAction): { label: string; icon: string; description: string; command: string } {
  switch (action) {
    case 'showLog':
      return { label: vscode.l10n.t('Show Log'), icon: 'output', description: vscode.l10n.t('launch line, stderr, MCP messages'), command: 'mcpToolHost.showServerLog' };
    case 'restart':
      return { label: vscode.l10n.t('Restart'), icon: 'debug-restart', description: vscode.l10n.t('try again'), command: 'mcpToolHost.restartServer' };
    case 'runDoctor':
      return { label: vscode.l10n.t('Run Doctor'), icon: 'pulse', description: vscode.l10n.t('check command, PATH and handshake'), command: 'mcpToolHost.runDoctor' };
    case 'start':
      return { label: vscode.l10n.t('Start'), icon: 'debug-start', description: vscode.l10n.t('to list its tools'), command: 'mcpToolHost.startServer' };
    case 'openConfiguration':
      return { label: vscode.l10n.t('Open Configuration'), icon: 'gear', description: vscode.l10n.t('where it is defined'), command: 'mcpToolHost.openServerConfiguration' };
    case 'openPolicy':
      return { label: vscode.l10n.t('Open the Policy'), icon: 'law', description: vscode.l10n.t("the administrator's file that refused it"), command: 'mcpToolHost.openPolicyFile' };
    default:
      return assertNever(action);
  }
}

/** A clickable fix under a server. */
export function actionItem(node: ActionNode): vscode.TreeItem {
  const action = actionOf(node.action);
  const item = new vscode.TreeItem(action.label, vscode.TreeItemCollapsibleState.None);
  item.id = `action:${node.server}:${node.action}`;
  item.iconPath = icon(action.icon);
  item.description = action.description;
  item.contextValue = `mcpAction;${node.action};`;
  item.command = { command: action.command, title: action.label, arguments: [node.server] };
  return item;
}

/** A broken configuration entry: its name, and the problem in the tooltip; click opens where it is. */
export function configErrorItem(node: ConfigErrorNode): vscode.TreeItem {
  const item = new vscode.TreeItem(shownName(node.error.serverName), vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.description = vscode.l10n.t('configuration error');
  item.iconPath = icon('warning', 'problemsWarningIcon.foreground');
  item.tooltip = node.error.message;
  item.contextValue = 'mcpConfigError;';
  item.command = { command: 'mcpToolHost.openServerConfiguration', title: vscode.l10n.t('Open Configuration'), arguments: [node] };
  return item;
}

/** The row that opens VS Code's Workspace Trust editor, where trusting the folder starts the servers it defines. */
export function trustItem(): vscode.TreeItem {
  const item = new vscode.TreeItem(vscode.l10n.t('Manage Workspace Trust'), vscode.TreeItemCollapsibleState.None);
  item.id = 'trust';
  item.iconPath = icon('workspace-untrusted');
  item.description = vscode.l10n.t('trust this folder to start its servers');
  item.tooltip = vscode.l10n.t('Servers this folder defines start only once you trust the folder (each still asks before its first start).');
  // A string tooltip would be the row's accessible name: say what the row is instead.
  item.accessibilityInformation = { label: `${item.label as string}: ${item.description as string}` };
  item.contextValue = 'mcpTrust;';
  item.command = { command: MANAGE_TRUST_COMMAND, title: vscode.l10n.t('Manage Workspace Trust') };
  return item;
}
