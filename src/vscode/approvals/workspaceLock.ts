import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import type { LockDrift } from '../../core/calls/approvalStep';
import { LOCKFILE_NAME } from '../../core/policy/lockfileName';
import type { Lockfile } from '../../core/policy/toolLock';
import { pinTool } from '../../core/policy/toolPin';
import { sanitizeLine, shownName } from '../../core/render/sanitize';
import type * as Later from './later';

/** One folder's lockfile as last read, keyed by the file's identity (inode, size, time): read again only when it changed. */
interface Read {
  readonly key: string;
  readonly lock?: Lockfile;
}

/** Where the definitions the user accepted against a lockfile on this machine are kept. */
const ACCEPTED_KEY = 'mcpToolHost.lockfileAccepted';

/**
 * The team's lockfile (`mcp-tools.lock.json` in a workspace folder, as `mcp-tool-host lock` writes
 * it), which only tightens: a tool that differs from it asks before each call and is marked in the
 * Tools view, and nothing in it makes a tool trusted, a hint believed or a prompt skipped. It is
 * read even in a folder not trusted yet, since it can only add prompts; it is looked for at a call
 * or a tool row (a stat), never at activation, and the code that reads and compares it loads only
 * when there is one. Bounded in size; a file that cannot be used is said once and loosens nothing.
 *
 * The user may accept a drifted definition for this machine: kept here (not in the file, which is
 * the team's and changes only through `mcp-tool-host lock` and review), for that exact definition
 * against that exact locked one; either changing asks again.
 */
export class WorkspaceLock implements vscode.Disposable {
  private readonly _reads = new Map<string, Read>();
  private _problem: string | undefined;
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  /** Fires when a lockfile appears, changes or goes, or a drift is accepted: the marks may differ. */
  readonly onDidChange = this._onDidChange.event;
  private readonly _watchers: vscode.Disposable[];

  constructor(
    private readonly _folders: () => readonly string[],
    private readonly _configured: () => readonly string[],
    private readonly _output: vscode.OutputChannel,
    private readonly _later: () => { readonly approvals: Pick<typeof Later, 'readWorkspaceLockfile' | 'driftOfTool'> },
    private readonly _accepted?: vscode.Memento,
  ) {
    this._watchers = (vscode.workspace.workspaceFolders ?? []).map((folder) => {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, LOCKFILE_NAME));
      const fire = () => this._onDidChange.fire();
      return vscode.Disposable.from(watcher, watcher.onDidCreate(fire), watcher.onDidChange(fire), watcher.onDidDelete(fire));
    });
  }

  dispose(): void {
    for (const w of this._watchers) w.dispose();
    this._onDidChange.dispose();
  }

  /**
   * Accepts on this machine the tool's definition as it is now, against the lockfile's: later calls
   * of that definition are decided as if the lockfile agreed (they still ask as any call would).
   */
  async accept(server: string, tool: Tool, drift: LockDrift): Promise<void> {
    if (!this._accepted || !drift.locked) return;
    const all = { ...this._accepted.get<Record<string, string>>(ACCEPTED_KEY, {}) };
    all[acceptedKey(drift.lockfile, server, tool.name)] = pairOf(drift.locked, tool);
    await this._accepted.update(ACCEPTED_KEY, all);
    this._output.appendLine(vscode.l10n.t('Accepted on this machine the definition of "{0}" on {1} that differs from {2} (the lockfile is unchanged).', shownName(tool.name), shownName(server), drift.lockfile));
    this._onDidChange.fire();
  }

  /** Why a workspace lockfile is not used (the last one read), for tests and the log. */
  get problem(): string | undefined {
    return this._problem;
  }

  /** How the tool differs from the first workspace lockfile that locks its server, if one does. */
  driftOf(server: string, tool: Tool): LockDrift | undefined {
    for (const folder of this._folders()) {
      const file = path.join(folder, LOCKFILE_NAME);
      const lock = this._read(file);
      const drift = lock && this._later().approvals.driftOfTool(lock, server, tool);
      if (drift && !this._isAccepted(file, server, tool, drift.locked)) return { ...drift, lockfile: file };
    }
    return undefined;
  }

  private _isAccepted(lockfile: string, server: string, tool: Tool, locked: LockDrift['locked']): boolean {
    if (!this._accepted || !locked) return false;
    return this._accepted.get<Record<string, string>>(ACCEPTED_KEY, {})[acceptedKey(lockfile, server, tool.name)] === pairOf(locked, tool);
  }

  private _read(file: string): Lockfile | undefined {
    let key: string;
    try {
      const s = fs.statSync(file);
      key = `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch {
      this._reads.delete(file);
      return undefined;
    }
    const known = this._reads.get(file);
    if (known?.key === key) return known.lock;
    const read = this._later().approvals.readWorkspaceLockfile(file, this._configured());
    this._problem = read.problem && sanitizeLine(read.problem);
    if (this._problem) {
      this._output.appendLine(this._problem);
      void vscode.window.showWarningMessage(vscode.l10n.t('{0} Its tools are checked as if there were no lockfile.', this._problem));
    }
    if (read.strangers.length > 0) this._output.appendLine(vscode.l10n.t('The workspace lockfile {0} names servers that are not configured, left aside: {1}.', file, read.strangers.map(shownName).join(', ')));
    this._reads.set(file, { key, lock: read.lock });
    return read.lock;
  }
}

/** The key of one tool of one server against one lockfile; NUL cannot occur in a path, so the parts stay apart. */
const acceptedKey = (lockfile: string, server: string, tool: string) => `${lockfile}\u0000${server}\u0000${tool}`;

/** The definition locked and the one accepted, as one value: a change of either is not accepted. */
const pairOf = (locked: NonNullable<LockDrift['locked']>, tool: Tool) => `${pinTool(locked as unknown as Tool).hash}>${pinTool(tool).hash}`;
