import * as vscode from 'vscode';
import type { Grant, GrantPersistence, GrantStore } from '../../core/policy/grants';
import type { ServerPool } from '../../core/connection/serverPool';
import type { RuleSet } from '../../core/policy/ruleSource';
import type * as Later from './later';

const GRANTS_KEY = 'grants.always';

/** "Always" grants live in the extension's global state. */
export function mementoGrants(state: vscode.Memento): GrantPersistence {
  return { load: () => state.get<Grant[]>(GRANTS_KEY, []), save: (grants) => void state.update(GRANTS_KEY, grants) };
}

/** Manage Approvals and Reset Approvals. */
export class ApprovalCommands {
  constructor(private readonly _grants: GrantStore, private readonly _pool: ServerPool, private readonly _rules: RuleSet, private readonly _later: () => { readonly approvals: typeof Later }) {}

  /** Lists the grants beyond a single call; the ones picked are revoked (approvalActions.ts, loaded at first use). */
  manage(): Promise<void> {
    return this._later().approvals.manageApprovals(this._grants, this._pool);
  }

  /** Asks, then forgets every grant (approvalActions.ts, loaded at first use); the question counts the allow rules, which still allow. */
  reset(): Promise<void> {
    return this._later().approvals.resetApprovals(this._grants, this._rules.rules.filter((r) => r.effect === 'allow').length);
  }
}
