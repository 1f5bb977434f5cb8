import type { PinnedDefinition, ToolPin } from './toolPin';
import { changedParts } from './toolPin';
import { Emitter, type Event } from '../events';

/** What a user allowed beyond a single call. */
export type GrantScope = 'tool-session' | 'tool-always' | 'server-session';

export interface Grant {
  readonly scope: GrantScope;
  readonly server: string;
  /**
   * The server's launch it was given under (`launchKey`): a different command under the same
   * name is a different server, and a grant never passes from one to the other.
   */
  readonly launch?: string;
  /** Absent for a server-wide grant. */
  readonly tool?: string;
  /** The tool definition the grant was given for; a different definition suspends it. */
  readonly pin?: ToolPin;
  readonly createdAt: string;
}

/** Where "always" grants persist (extension state; a file in the CLI; memory in tests). */
export interface GrantPersistence {
  load(): Grant[];
  save(grants: readonly Grant[]): void;
}

export type GrantCheck =
  | { readonly kind: 'none' }
  | { readonly kind: 'granted'; readonly grant: Grant }
  /** A grant exists but the server changed the tool since: the user must see what changed. */
  | { readonly kind: 'suspended'; readonly grant: Grant; readonly changed: readonly string[]; readonly before: PinnedDefinition };

/**
 * The user's standing approvals. Session grants live in memory; "always" grants persist. Every
 * tool grant is bound to the tool's pinned definition (a rug-pull suspends it), and a
 * server-wide grant never covers a destructive tool.
 */
export class GrantStore {
  private _session: Grant[] = [];
  private _always: Grant[];
  private readonly _onDidChange = new Emitter<void>();
  /** A grant was given or revoked (the Rules and Approvals view redraws). */
  readonly onDidChange: Event<void> = this._onDidChange.event;

  constructor(private readonly _persistence: GrantPersistence) {
    this._always = _persistence.load();
  }

  get all(): readonly Grant[] {
    return [...this._always, ...this._session];
  }

  check(server: string, launch: string | undefined, tool: string, pin: ToolPin, destructive: boolean): GrantCheck {
    const toolGrant = this.all.find((g) => g.server === server && g.launch === launch && g.tool === tool);
    if (toolGrant) {
      if (toolGrant.pin?.hash === pin.hash) return { kind: 'granted', grant: toolGrant };
      const before = toolGrant.pin?.definition ?? { name: tool };
      return { kind: 'suspended', grant: toolGrant, changed: changedParts(before, pin.definition), before };
    }
    const serverGrant = this._session.find((g) => g.server === server && g.launch === launch && g.scope === 'server-session');
    if (serverGrant && !destructive) return { kind: 'granted', grant: serverGrant };
    return { kind: 'none' };
  }

  add(scope: GrantScope, server: string, launch: string | undefined, tool: string | undefined, pin: ToolPin | undefined): Grant {
    this.revokeWhere((g) => g.server === server && g.tool === tool && (tool !== undefined || g.scope === scope));
    const grant: Grant = { scope, server, launch, tool: scope === 'server-session' ? undefined : tool, pin: scope === 'server-session' ? undefined : pin, createdAt: new Date().toISOString() };
    if (scope === 'tool-always') {
      this._always.push(grant);
      this._persistence.save(this._always);
    } else {
      this._session.push(grant);
    }
    this._onDidChange.fire();
    return grant;
  }

  revoke(grant: Grant): void {
    this.revokeWhere((g) => g === grant);
  }

  revokeWhere(predicate: (g: Grant) => boolean): void {
    const [always, session] = [this._always.length, this._session.length];
    this._always = this._always.filter((g) => !predicate(g));
    this._session = this._session.filter((g) => !predicate(g));
    if (this._always.length !== always) this._persistence.save(this._always);
    if (this._always.length !== always || this._session.length !== session) this._onDidChange.fire();
  }

  clear(): void {
    this._session = [];
    this._always = [];
    this._persistence.save([]);
    this._onDidChange.fire();
  }
}

/** Grants for tests and the CLI's single run. */
export function memoryPersistence(initial: Grant[] = []): GrantPersistence {
  let stored = initial;
  return { load: () => [...stored], save: (g) => void (stored = [...g]) };
}
