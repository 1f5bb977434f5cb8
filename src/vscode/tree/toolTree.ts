import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerPool } from '../../core/connection/serverPool';
import type { ServerConnection } from '../../core/connection/serverConnection';
import { assertNever, type Disposable } from '../../core/events';
import { callVerdict, toolAnnotations, type ApprovalRules } from '../../core/policy/approvalPolicy';
import { actionItem, configErrorItem, messageItem, serverItem, taskItem, toolItem, trustItem } from './treeItems';
import type { TaskBoard, TaskEntry } from '../../core/calls/taskBoard';
import type { LastError } from './tooltips';
import { loadSearch } from '../../core/search/load';
import type * as Later from './later';
import type { OfferGroupNode, ServerNode, TaskNode, ToolNode, TreeNode } from './treeNodes';
import type { OfferRows } from './offerRows';
import type { WaitingServersNotice } from './untrustedServers';
import { CONTEXT_KEYS } from './viewContextKeys';

export type { TreeNode } from './treeNodes';

/** Changes that arrive together (state, then tools) become one refresh; short enough to feel immediate. */
const REFRESH_DELAY_MS = 15;
/** A server opens expanded when the view stays short: few servers, few tools each. */
const EXPAND_MAX_SERVERS = 10;
const EXPAND_MAX_TOOLS = 100;

/** Which tools changed since first seen (trust on first use); see DefinitionReview. */
export interface ChangeLookup {
  changeOf(server: string, tool: string): { readonly parts: readonly string[] } | undefined;
  readonly onDidChange: (listener: (server: string) => void) => { dispose(): void };
}

/** Which tools differ from a workspace lockfile that locks their server (WorkspaceLock). */
export interface LockMarks {
  driftOf(server: string, tool: Tool): { readonly parts: readonly string[]; readonly lockfile: string } | undefined;
  readonly onDidChange: (listener: () => void) => { dispose(): void };
}

/**
 * The "Tools" view: servers at the top, their tools beneath, the reason and fixes under a
 * failed server, broken configuration entries last. It only reads the pool; a change of one
 * server refreshes that server's row alone, and tooltips of tools are built on hover.
 */
export class ToolTreeProvider implements vscode.TreeDataProvider<TreeNode>, Disposable {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<TreeNode | TreeNode[] | undefined>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly _subscription: Disposable;
  /** One node object per server for its whole life: the view refreshes a row by this identity. */
  private readonly _serverNodes = new Map<string, ServerNode>();
  /** One node object per task while it is listed, by its id: a status change redraws that row alone, and its buttons keep their row. */
  private readonly _taskNodes = new Map<string, TaskNode>();
  private readonly _lastErrors = new Map<string, LastError>();
  private readonly _toolNodesOf = new WeakMap<readonly unknown[], { readonly server: string; readonly nodes: readonly ToolNode[] }>();
  private readonly _pending = new Set<string>();
  /** Task rows to redraw, by id. */
  private readonly _pendingTasks = new Set<string>();
  /** Resources, Resource Templates or Prompts rows to redraw (with what is under them). */
  private readonly _pendingGroups = new Set<OfferGroupNode>();
  private _pendingAll = false;
  private _timer: NodeJS.Timeout | undefined;
  /** The pool has applied a configuration; once the view shows it, the welcome may say "no server". */
  private _configured = false;
  private _shownConfigured = false;

  /** `rules` (approve-all and the user's grants) let a tool's tooltip say whether a call would ask, as the pipeline decides it. */
  constructor(
    private readonly _pool: ServerPool,
    /** The tooltips (tooltips.ts), loaded at the first hover. */
    private readonly _later: () => { readonly tree: typeof Later },
    private readonly _rules: ApprovalRules = { approveAll: () => false },
    private readonly _review?: ChangeLookup,
    private readonly _tasks?: TaskBoard,
    private readonly _waiting?: Pick<WaitingServersNotice, 'current' | 'onDidChange'>,
    /** Resources, templates and prompts under each running server that offers them. */
    private readonly _offers?: OfferRows,
    /** Tools that differ from the team's lockfile: marked like a changed tool. */
    private readonly _lock?: LockMarks,
  ) {
    const changes = _review?.onDidChange((server) => this._changed(_pool.get(server)));
    // A task that appears or ends redraws its server's rows; one whose status changed redraws its own
    // row alone (the board replaces an entry that changed), so its row and buttons stay put while it runs.
    const listed = () => new Map<string, TaskEntry>(_tasks?.entries().map((e) => [taskNodeId(e.server, e.taskId), e]));
    let shown = listed();
    const tasks = _tasks?.onDidChange(() => {
      const now = listed();
      for (const [id, entry] of now) {
        const was = shown.get(id);
        if (!was) this._changed(_pool.get(entry.server));
        else if (was !== entry) this._taskChanged(id);
      }
      for (const [id, entry] of shown) {
        if (now.has(id)) continue;
        this._taskNodes.delete(id);
        this._changed(_pool.get(entry.server));
      }
      shown = now;
    });
    const pool = _pool.onDidChange((connection) => {
      if (connection === undefined) this._configured = true;
      this._changed(connection);
    });
    const waiting = _waiting?.onDidChange(() => this._changed(undefined));
    const offers = _offers?.onDidChange((change) => (change.rows ? this._groupsChanged(change.rows) : this._changed(_pool.get(change.server))));
    const lock = _lock?.onDidChange(() => this._changed(undefined));
    this._subscription = { dispose: () => (pool.dispose(), changes?.dispose(), tasks?.dispose(), waiting?.dispose(), offers?.dispose(), lock?.dispose()) };
    for (const c of _pool.connections) this._remember(c);
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (!node) return this._roots();
    if (node.kind === 'offerGroup') return [...(this._offers?.children(node) ?? [])];
    if (node.kind !== 'server') return [];
    const connection = this._pool.get(node.server);
    return connection ? [...this._taskRows(node.server), ...this._serverChildren(connection)] : [];
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'server': {
        const connection = this._pool.get(node.server);
        if (!connection) return new vscode.TreeItem(node.server);
        const expand = connection.state.kind === 'error' || (this._pool.connections.length <= EXPAND_MAX_SERVERS && connection.tools.length <= EXPAND_MAX_TOOLS);
        return serverItem(connection, expand);
      }
      case 'tool':
        return toolItem(node, this._annotations(node), this._review?.changeOf(node.server, node.tool)?.parts, this._lock?.driftOf(node.server, node.definition) !== undefined);
      case 'task': {
        const entry = this._tasks?.get(node.server, node.taskId);
        return entry ? taskItem(node, entry) : new vscode.TreeItem(node.taskId);
      }
      case 'message':
        return messageItem(node);
      case 'action':
        return actionItem(node);
      case 'configError':
        return configErrorItem(node);
      case 'trust':
        return trustItem();
      case 'offerGroup':
        return this._offers?.groupItem(node) ?? new vscode.TreeItem(node.group);
      case 'offer':
        return this._offers?.item(node) ?? new vscode.TreeItem(node.id);
      default:
        return assertNever(node);
    }
  }

  /** A row's parent, so the view can reveal any row. */
  getParent(node: TreeNode): TreeNode | undefined {
    if (node.kind === 'offer') {
      const connection = this._pool.get(node.server);
      return connection && this._offers?.groups(connection).find((g) => g.group === node.group);
    }
    return node.kind === 'server' || node.kind === 'configError' || node.kind === 'trust' ? undefined : this._serverNodes.get(node.server);
  }

  /** Fills in a row's tooltip when the user hovers it (built in dist/forms.js: activation needs none). */
  resolveTreeItem(item: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    const connection = node.kind === 'server' ? this._pool.get(node.server) : undefined;
    if (connection && item.tooltip === undefined) {
      // A server's counts its tools' tokens: the first hover loads the tokenizer (~150 ms, once), counts are cached per tool definition.
      const tokens = connection.tools.length > 0 ? loadSearch().toolsTokens(connection.tools) : undefined;
      item.tooltip = this._later().tree.serverTooltip(connection, this._lastErrors.get(connection.name), tokens);
    }
    if (node.kind === 'tool' && item.tooltip === undefined) {
      const a = this._annotations(node);
      const verdict = callVerdict(node.server, node.definition, a, this._rules);
      item.tooltip = this._later().tree.toolTooltip(node.server, node.definition, a, verdict, this._review?.changeOf(node.server, node.tool)?.parts, this._lock?.driftOf(node.server, node.definition));
    }
    return item;
  }

  /** The row of a server, for reveal() and for commands that need the node. */
  serverNode(name: string): ServerNode | undefined {
    return this._serverNodes.get(name);
  }

  dispose(): void {
    clearTimeout(this._timer);
    this._subscription.dispose();
    this._onDidChangeTreeData.dispose();
  }

  private _roots(): TreeNode[] {
    if (this._configured && !this._shownConfigured) {
      // Set as the configured servers are handed to the view, so the welcome never claims "no server" while reading.
      this._shownConfigured = true;
      void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.ready, true);
    }
    const names = new Set<string>();
    const servers = this._pool.connections.map((c) => {
      names.add(c.name);
      let n = this._serverNodes.get(c.name);
      if (!n) this._serverNodes.set(c.name, (n = { kind: 'server', server: c.name }));
      return n;
    });
    for (const name of [...this._serverNodes.keys()]) if (!names.has(name)) this._serverNodes.delete(name);
    const errors = this._pool.configErrors.map((error, i): TreeNode => ({ kind: 'configError', error, id: `configError:${i}:${error.serverName}` }));
    // The servers of a folder not trusted yet are named in the view's message; this row trusts it.
    const trust: TreeNode[] = this._waiting?.current ? [{ kind: 'trust' }] : [];
    return [...trust, ...servers, ...errors];
  }

  private _serverChildren(c: ServerConnection): readonly TreeNode[] {
    const server = c.name;
    const message = (text: string, tone: 'error' | 'info'): TreeNode => ({ kind: 'message', server, text, tone, id: `message:${server}` });
    const state = c.state;
    switch (state.kind) {
      case 'error': {
        // A refusal is fixed by the policy, not the server: the way to read it comes first; Restart tries again once it changed.
        const actions = state.refusedBy !== undefined ? (['openPolicy', 'restart', 'showLog'] as const) : (['showLog', 'restart', 'runDoctor'] as const);
        return [message(state.message, 'error'), ...actions.map((action): TreeNode => ({ kind: 'action', server, action }))];
      }
      case 'disabled':
        return [message(vscode.l10n.t('Disabled in its configuration ("disabled": true).'), 'info'), { kind: 'action', server, action: 'openConfiguration' }];
      case 'stopped':
        return c.tools.length ? this._toolNodes(c) : [{ kind: 'action', server, action: 'start' }];
      case 'running': {
        const offers: readonly OfferGroupNode[] = this._offers?.groups(c) ?? [];
        if (c.tools.length) return [...this._toolNodes(c), ...offers];
        if (offers.length) return offers;
        // A listing that failed is not an empty server: say why, with the way to the log and the doctor.
        const failed = c.facts.listingError;
        if (failed) return [message(failed, 'error'), ...(['showLog', 'runDoctor'] as const).map((action): TreeNode => ({ kind: 'action', server, action }))];
        return [message(vscode.l10n.t('This server offers no tools.'), 'info')];
      }
      case 'starting':
        return this._toolNodes(c);
      default:
        return assertNever(state);
    }
  }

  private _taskRows(server: string): TaskNode[] {
    return (this._tasks?.entries(server) ?? []).map((e) => {
      const id = taskNodeId(server, e.taskId);
      let node = this._taskNodes.get(id);
      if (!node) this._taskNodes.set(id, (node = { kind: 'task', server, taskId: e.taskId, id }));
      return node;
    });
  }

  /** The rows of a listing, made once per listing (its array stays the same object until the next). */
  private _toolNodes(c: ServerConnection): readonly ToolNode[] {
    const tools = c.tools;
    const made = this._toolNodesOf.get(tools);
    if (made?.server === c.name) return made.nodes;
    const seen = new Set<string>();
    const nodes = tools.map((definition): ToolNode => {
      // A server may list a name twice; each row still needs its own id.
      let id = `tool:${c.name}/${definition.name}`;
      for (let n = 2; seen.has(id); n++) id = `tool:${c.name}/${definition.name}#${n}`;
      seen.add(id);
      return { kind: 'tool', server: c.name, tool: definition.name, definition, id };
    });
    this._toolNodesOf.set(tools, { server: c.name, nodes });
    return nodes;
  }

  private _annotations(node: ToolNode) {
    return toolAnnotations(this._rules, node.server, node.definition, this._pool.get(node.server)?.definition.trustAnnotations ?? false);
  }

  private _remember(c: ServerConnection): void {
    if (c.state.kind === 'error' && this._lastErrors.get(c.name)?.message !== c.state.message) this._lastErrors.set(c.name, { message: c.state.message, at: new Date() });
  }

  private _changed(connection: ServerConnection | undefined): void {
    if (connection) {
      this._remember(connection);
      this._pending.add(connection.name);
    } else {
      this._pendingAll = true;
      for (const name of [...this._lastErrors.keys()]) if (!this._pool.get(name)) this._lastErrors.delete(name);
    }
    this._timer ??= setTimeout(() => this._flush(), REFRESH_DELAY_MS);
  }

  private _taskChanged(id: string): void {
    this._pendingTasks.add(id);
    this._timer ??= setTimeout(() => this._flush(), REFRESH_DELAY_MS);
  }

  private _groupsChanged(rows: readonly OfferGroupNode[]): void {
    for (const row of rows) this._pendingGroups.add(row);
    this._timer ??= setTimeout(() => this._flush(), REFRESH_DELAY_MS);
  }

  private _flush(): void {
    this._timer = undefined;
    const names = [...this._pending];
    const nodes = names.map((n) => this._serverNodes.get(n));
    // A row the view was never given needs no redraw; one under a server redrawn anyway neither.
    const rows = [...[...this._pendingTasks].flatMap((id) => this._taskNodes.get(id) ?? []), ...this._pendingGroups].filter((row) => !this._pending.has(row.server));
    this._pending.clear();
    this._pendingTasks.clear();
    this._pendingGroups.clear();
    if (this._pendingAll || nodes.some((n) => !n)) this._onDidChangeTreeData.fire(undefined);
    else if (nodes.length + rows.length) this._onDidChangeTreeData.fire([...(nodes as ServerNode[]), ...rows]);
    this._pendingAll = false;
  }
}

const taskNodeId = (server: string, taskId: string) => `task:${JSON.stringify([server, taskId])}`;
