import * as vscode from 'vscode';
import { readWorkspaceServerNames } from '../../core/config/serverFiles';
import type { Disposable, Event } from '../../core/events';
import type * as Later from './later';
import type { WaitingServers } from './waitingServers';

/** VS Code's own command: the Workspace Trust editor, where the user trusts the folder. */
export const MANAGE_TRUST_COMMAND = 'workbench.trust.manage';

/**
 * Keeps the Tools view's message in step with what an untrusted workspace defines: `update()`
 * reads it again (at each reload of the servers; trust granted makes it empty).
 */
export class WaitingServersNotice implements Disposable {
  private _current: WaitingServers | undefined;
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChange: Event<void> = this._onDidChange.event;

  /** `show` sets the Tools view's message (undefined removes it); the reading (waitingServers.ts) loads only in a folder not trusted yet. */
  constructor(
    private readonly _show: (message: string | undefined) => void,
    private readonly _later: () => { readonly tree: Pick<typeof Later, 'waitingServers' | 'waitingMessage'> },
  ) {}

  /** What waits for trust now; undefined in a trusted workspace or one that defines no server. */
  get current(): WaitingServers | undefined {
    return this._current;
  }

  /** The view's sentence for what waits now (plain text), or undefined. */
  get message(): string | undefined {
    return this._current && this._later().tree.waitingMessage(this._current);
  }

  update(): void {
    const was = this._current;
    this._current = vscode.workspace.isTrusted ? undefined : this._later().tree.waitingServers(readWorkspaceServerNames);
    this._show(this.message);
    if (JSON.stringify(was) !== JSON.stringify(this._current)) this._onDidChange.fire();
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}
