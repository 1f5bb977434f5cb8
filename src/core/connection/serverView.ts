import type { Tool } from '@modelcontextprotocol/client';
import type { ResolvedLaunch } from '../config/launch';
import { Emitter, type Disposable } from '../events';
import { maskSecrets, safeText } from '../render/secrets';
import type { ServerLog } from '../serverLog';
import type { LaunchView } from './launchAttempt';
import { ServerState } from './serverState';

/**
 * What a user sees of one server: its state, the launch last shown, its tools. All of it is free
 * of the launch's secrets (`${input:...}` values): an error may quote the launch or echo a
 * header, a tool's title or description may echo them. A launch fills it in as it goes.
 */
export class ServerView implements LaunchView, Disposable {
  private readonly _onDidChange = new Emitter<ServerState>();
  readonly onDidChange = this._onDidChange.event;
  private _state: ServerState;
  private _secrets: readonly string[] = [];
  private _workingFolder: string | undefined;
  private _launchArgs: readonly string[] = [];
  private _launchLine: string | undefined;
  /** The tools masked, kept while the listing and the secrets are the same. */
  private _masked: { readonly listed: readonly Tool[]; readonly secrets: readonly string[]; readonly tools: readonly Tool[] } | undefined;

  constructor(initial: ServerState, private readonly _log: ServerLog) {
    this._state = initial;
  }

  get state(): ServerState {
    return this._state;
  }
  get secrets(): readonly string[] {
    return this._secrets;
  }
  get workingFolder(): string | undefined {
    return this._workingFolder;
  }
  /** The launch's arguments (stdio): argument rules read a relative path from the folders among them too. */
  get launchArgs(): readonly string[] {
    return this._launchArgs;
  }
  get launchLine(): string | undefined {
    return this._launchLine;
  }

  set(state: ServerState): void {
    const secrets = this._secrets;
    if (state.kind === 'error') state = { ...state, message: safeText(state.message, secrets), detail: state.detail?.map((line) => safeText(line, secrets)) };
    else if (state.kind === 'starting' && state.message !== undefined) state = { ...state, message: safeText(state.message, secrets) };
    this._state = state;
    this._onDidChange.fire(state);
  }

  /** The listed tools with titles and descriptions masked. */
  tools(listed: readonly Tool[]): readonly Tool[] {
    const secrets = this._secrets;
    if (secrets.length === 0) return listed;
    if (this._masked?.listed !== listed || this._masked.secrets !== secrets) {
      const mask = (text: string | undefined) => (text === undefined ? undefined : maskSecrets(text, secrets));
      this._masked = { listed, secrets, tools: listed.map((t) => ({ ...t, title: mask(t.title), description: mask(t.description) })) };
    }
    return this._masked.tools;
  }

  resolved(launch: ResolvedLaunch): void {
    this._secrets = launch.secrets ?? [];
    this._workingFolder = launch.type === 'stdio' ? launch.launch.cwd : undefined;
    this._launchArgs = launch.type === 'stdio' ? launch.launch.args : [];
  }
  launching(shown: string): void {
    this._launchLine = shown;
  }
  waiting(message: string | undefined): void {
    if (message !== undefined) this.set({ kind: 'starting', message });
    else if (this._state.kind === 'starting' && this._state.message) this.set(ServerState.starting);
  }
  declined(warning: string, rowMessage?: string): void {
    this._log.warn(warning);
    this.set(rowMessage === undefined ? ServerState.stopped : { kind: 'stopped', message: rowMessage });
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}
