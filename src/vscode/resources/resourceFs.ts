import * as vscode from 'vscode';
import type { Disposable } from '../../core/events';
import type { ResourceOffers } from '../../core/offers/offerTypes';
import { contentOf } from './resourceContent';
import { addressOf, RESOURCE_SCHEME } from './resourceUri';

/**
 * `mcp-tool-host-resource:` documents, read-only: each read goes to the server through ResourceOffers
 * (audited, capped, sanitised), nothing is ever written. While a tab shows a resource, it is
 * subscribed to; an update fires a change, and the editor reads it again.
 */
export class ResourceFileSystem implements vscode.FileSystemProvider, Disposable {
  private readonly _onDidChangeFile = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this._onDidChangeFile.event;
  /** A read the open command just made, handed to the editor's first read rather than asking twice. */
  private readonly _primed = new Map<string, Uint8Array>();
  private readonly _mtimes = new Map<string, number>();
  /** Subscriptions by our URI: whether a tab showed it yet, and since when it is watched. */
  private readonly _watched = new Map<string, { readonly subscription: Disposable; shown: boolean; readonly since: number }>();
  private readonly _tabs: vscode.Disposable;

  constructor(private readonly _offers: () => ResourceOffers) {
    this._tabs = vscode.window.tabGroups.onDidChangeTabs(() => this._dropClosed());
  }

  /** The content the open command read, for the editor's first read. */
  prime(uri: vscode.Uri, content: Uint8Array): void {
    this._primed.set(uri.toString(), content);
    this._mtimes.set(uri.toString(), Date.now());
  }

  /** How many updates the servers sent for shown resources (tests read it). */
  updates = 0;

  /** The resource URIs subscribed to now (tests read it). */
  get watching(): readonly string[] {
    return [...this._watched.keys()];
  }

  watch(): vscode.Disposable {
    // Subscriptions follow the tabs (readFile, _dropClosed): VS Code watches only some editors.
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    if (!addressOf(uri)) throw vscode.FileSystemError.FileNotFound(uri);
    const key = uri.toString();
    return { type: vscode.FileType.File, ctime: 0, mtime: this._mtimes.get(key) ?? 0, size: this._primed.get(key)?.length ?? 0, permissions: vscode.FilePermission.Readonly };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const address = addressOf(uri);
    if (!address) throw vscode.FileSystemError.FileNotFound(uri);
    const key = uri.toString();
    this._watch(uri);
    const primed = this._primed.get(key);
    if (primed) {
      this._primed.delete(key);
      return primed;
    }
    const outcome = await this._offers().read({ server: address.server, uri: address.uri, origin: 'tree' });
    if (outcome.kind === 'denied') throw vscode.FileSystemError.NoPermissions(outcome.message);
    if (outcome.kind === 'failed') throw vscode.FileSystemError.Unavailable(outcome.message);
    return await contentOf(outcome);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  writeFile(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  dispose(): void {
    this._tabs.dispose();
    for (const w of this._watched.values()) w.subscription.dispose();
    this._watched.clear();
    this._onDidChangeFile.dispose();
  }

  private _watch(uri: vscode.Uri): void {
    const key = uri.toString();
    const address = addressOf(uri);
    if (!address || this._watched.has(key)) return;
    const subscription = this._offers().subscribe(address.server, address.uri, () => {
      this.updates++;
      this._mtimes.set(key, Date.now());
      this._onDidChangeFile.fire([{ type: vscode.FileChangeType.Changed, uri }]);
    });
    this._watched.set(key, { subscription, shown: false, since: Date.now() });
    // A read for something no tab shows (a peek, a restore that failed) does not keep a subscription.
    setTimeout(() => this._dropClosed(), CHECK_AFTER_READ_MS + 100);
  }

  /**
   * Unsubscribes from each resource no tab shows any more: one a tab showed and closed, or one no
   * tab showed within CHECK_AFTER_READ_MS of its read (its editor opens after the read).
   */
  private _dropClosed(): void {
    if (this._watched.size === 0) return;
    const shown = new Set<string>();
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const input = tab.input;
        if (input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom) shown.add(input.uri.toString());
      }
    }
    for (const [key, w] of [...this._watched]) {
      if (shown.has(key)) w.shown = true;
      else if (w.shown || Date.now() - w.since >= CHECK_AFTER_READ_MS) {
        w.subscription.dispose();
        this._watched.delete(key);
      }
    }
  }
}

/** Long enough for the editor the read was for to have its tab. */
const CHECK_AFTER_READ_MS = 10_000;

export function registerResourceFileSystem(fs: ResourceFileSystem): vscode.Disposable {
  return vscode.workspace.registerFileSystemProvider(RESOURCE_SCHEME, fs, { isCaseSensitive: true, isReadonly: true });
}
