import * as vscode from 'vscode';
import { launchFingerprint, type ServerDefinition } from '../../core/config/serverConfig';
import type { PromptEvents } from '../shared/promptEvents';
import type * as Later from './later';

/**
 * Workspace trust for servers a workspace defines: their first start, and any start after their
 * launch definition (command, args, env, cwd, url, headers, oauth) changed, asks the user, showing
 * exactly what will run or be sent. Servers from user settings start without asking. After
 * "Do not start", the server is not asked about again (a change of its file included) until the
 * user starts it themselves.
 */
export class LaunchGate {
  constructor(
    private readonly _state: vscode.Memento,
    private readonly _prompts: PromptEvents,
    /** The launch prompt (launchPrompt.ts), loaded when first asked. */
    private readonly _later: () => { readonly servers: Pick<typeof Later, 'askToLaunch'> },
  ) {}

  /**
   * Whether the user let this launch run as it is now, without asking: a server of their own, or a
   * workspace's whose current launch they allowed (what another client, the gateway's, may reach).
   */
  allowed(def: ServerDefinition): boolean {
    return def.source !== 'workspace' || (vscode.workspace.isTrusted && this._state.get<string>(`launchApproved:${def.name}`) === launchFingerprint(def.spec));
  }

  /** Asks when the launch is new or changed; `waiting` tells the server's row that the start waits for the user. */
  async confirm(def: ServerDefinition, shownLaunch: string, waiting: (message: string) => void = () => undefined, byUser = false): Promise<boolean | { readonly notAsked: string }> {
    if (def.source !== 'workspace') return true;
    const key = `launchApproved:${def.name}`;
    const declinedKey = `launchDeclined:${def.name}`;
    const fingerprint = launchFingerprint(def.spec);
    const previous = this._state.get<string>(key);
    if (previous === fingerprint) return true;
    if (this._state.get<boolean>(declinedKey) && !byUser) return { notAsked: vscode.l10n.t('not started: you chose "Do not start"') };
    waiting(vscode.l10n.t('Waiting for you to allow it to start'));
    // The prompt itself (launchPrompt.ts) loads with dist/forms.js: most windows never show it.
    const start = await this._later().servers.askToLaunch(def, shownLaunch, previous !== undefined, this._prompts);
    await this._state.update(declinedKey, start ? undefined : true);
    if (start) await this._state.update(key, fingerprint);
    return start;
  }
}
