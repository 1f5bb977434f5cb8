import * as vscode from 'vscode';
import type { ServerPool } from '../../core/connection/serverPool';
import type { Disposable } from '../../core/events';
import { CONTEXT_KEYS } from './viewContextKeys';

/**
 * Ticks the walkthrough's "Configure a server" step when servers are configured. VS Code counts an
 * `onContext` completion only when the key turns true after the walkthrough was registered, and it
 * registers walkthroughs when a Welcome or walkthrough page first opens: a key that was already true
 * by then (servers configured before the page opened) never ticks the step. So this key turns true
 * only while such a page is open and a server is configured, which is after that registration.
 */
export class WalkthroughProgress implements Disposable {
  private readonly _subscriptions: Disposable[];
  private _value = false;

  /** `displayName` is the extension's: VS Code titles our walkthrough's page "Walkthrough: <displayName>". */
  constructor(private readonly _pool: ServerPool, private readonly _displayName: string) {
    this._subscriptions = [_pool.onDidChange(() => this.update()), vscode.window.tabGroups.onDidChangeTabs(() => this.update())];
    this.update();
  }

  update(): void {
    const value = this._pool.connections.length > 0 && this._welcomeOpen();
    if (value === this._value) return;
    this._value = value;
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.walkthroughSeesServers, value);
  }

  dispose(): void {
    for (const s of this._subscriptions) s.dispose();
  }

  /** A Welcome or walkthrough page is open: an editor the tabs API does not type, titled as those pages are. */
  private _welcomeOpen(): boolean {
    return vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => tab.input === undefined && (tab.label === 'Welcome' || tab.label.includes(this._displayName))));
  }
}
