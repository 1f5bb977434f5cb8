import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import type { LockDrift } from '../../core/calls/approvalStep';
import { LOCKFILE_NAME } from '../../core/policy/lockfileName';
import type { Lockfile } from '../../core/policy/toolLock';
import { sanitizeLine, shownName } from '../../core/render/sanitize';
import type * as Later from './later';

/** One folder's lockfile as last read, keyed by the file's identity (inode, size, time): read again only when it changed. */
interface Read {
  readonly key: string;
  readonly lock?: Lockfile;
}

/**
 * The team's lockfile (`mcp-tools.lock.json` in a workspace folder, as `mcp-tool-host lock` writes
 * it), which only tightens: a tool that differs from it asks before each call, and nothing in it
 * makes a tool trusted, a hint believed or a prompt skipped. It is read even in a folder not
 * trusted yet, since it can only add prompts; it is looked for at a call (a stat), never at
 * activation, and the code that reads and compares it loads only when there is one. Bounded in
 * size; a file that cannot be used is said once and loosens nothing.
 */
export class WorkspaceLock {
  private readonly _reads = new Map<string, Read>();
  private _problem: string | undefined;

  constructor(
    private readonly _folders: () => readonly string[],
    private readonly _configured: () => readonly string[],
    private readonly _output: vscode.OutputChannel,
    private readonly _later: () => { readonly approvals: Pick<typeof Later, 'readWorkspaceLockfile' | 'driftOfTool'> },
  ) {}

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
