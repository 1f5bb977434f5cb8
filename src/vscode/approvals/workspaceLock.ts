import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import type { LockDrift } from '../../core/calls/approvalStep';
import { readLockfile } from '../../core/policy/lockfileFile';
import { driftOfTool, LOCKFILE_NAME, type Lockfile } from '../../core/policy/toolLock';
import { sanitizeLine, shownName } from '../../core/render/sanitize';

/** One folder's lockfile as last read, keyed by the file's identity (inode, size, time): read again only when it changed. */
interface Read {
  readonly key: string;
  readonly lock?: Lockfile;
  readonly problem?: string;
}

/**
 * The team's lockfile (`mcp-tools.lock.json` in a workspace folder, as `mcp-tool-host lock` writes
 * it), which only tightens: a tool that differs from it asks before each call, and nothing in it
 * makes a tool trusted, a hint believed or a prompt skipped. It is read even in a folder not
 * trusted yet, since it can only add prompts; it is read at a call (a stat, then the file only when
 * it changed), never at activation, bounded in size, and a file that cannot be used is said once,
 * loosening nothing.
 */
export class WorkspaceLock {
  private readonly _reads = new Map<string, Read>();
  private _problem: string | undefined;

  constructor(
    private readonly _folders: () => readonly string[],
    private readonly _configured: () => readonly string[],
    private readonly _output: vscode.OutputChannel,
  ) {}

  /** Why a workspace lockfile is not used (the last one found), for tests and the log. */
  get problem(): string | undefined {
    return this._problem;
  }

  /** How the tool differs from the first workspace lockfile that locks its server, if one does. */
  driftOf(server: string, tool: Tool): LockDrift | undefined {
    for (const folder of this._folders()) {
      const file = path.join(folder, LOCKFILE_NAME);
      const lock = this._read(file);
      const drift = lock && driftOfTool(lock, server, tool);
      if (drift) return { ...drift, lockfile: file };
    }
    return undefined;
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
    let read: Read;
    try {
      const lock = readLockfile(file);
      read = { key, lock };
      this._problem = undefined;
      const strangers = lock ? [...lock.servers.keys()].filter((s) => !this._configured().includes(s)) : [];
      if (strangers.length > 0) this._output.appendLine(vscode.l10n.t('The workspace lockfile {0} names servers that are not configured, left aside: {1}.', file, strangers.map(shownName).join(', ')));
    } catch (err) {
      const problem = sanitizeLine((err as Error).message);
      read = { key, problem };
      this._problem = problem;
      this._output.appendLine(problem);
      void vscode.window.showWarningMessage(vscode.l10n.t('{0} Its tools are checked as if there were no lockfile.', problem));
    }
    this._reads.set(file, read);
    return read.lock;
  }
}
