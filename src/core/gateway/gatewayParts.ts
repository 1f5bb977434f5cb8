import type { Server } from '@modelcontextprotocol/server';
import type { Disposable } from '../events';
import { ApprovalRounds } from './approvalRounds';
import { GatewayCatalog } from './gatewayCatalog';
import { GatewayOffers } from './gatewayOffers';
import type { GatewayDeps } from './gatewayTypes';

/** Which of the lists a client may have read changed. */
export type ChangedList = 'tools' | 'resources' | 'prompts';

/** What one gateway shares among its clients, whatever carries them (stdio, HTTP). */
export interface GatewayParts extends Disposable {
  readonly catalog: GatewayCatalog;
  readonly offers: GatewayOffers;
  readonly rounds: ApprovalRounds;
}

/** The catalogue, the offers and the approval rounds of one gateway; `changed` hears each list that changed. */
export function gatewayParts(deps: GatewayDeps, changed: (list: ChangedList) => void): GatewayParts {
  const catalog = new GatewayCatalog(deps);
  const offers = new GatewayOffers(deps);
  const rounds = new ApprovalRounds(deps.approvalSeconds);
  const subscriptions = [
    catalog.onDidChange(() => changed('tools')),
    offers.resources.onDidChange(() => changed('resources')),
    offers.prompts.onDidChange(() => changed('prompts')),
  ];
  return {
    catalog,
    offers,
    rounds,
    dispose() {
      for (const s of subscriptions) s.dispose();
      catalog.dispose();
      offers.dispose();
    },
  };
}

/** Tells one connected client that a list changed; a client gone meanwhile is no error. */
export function sendListChanged(server: Server, list: ChangedList): void {
  const sent = list === 'tools' ? server.sendToolListChanged() : list === 'resources' ? server.sendResourceListChanged() : server.sendPromptListChanged();
  void sent.catch(() => undefined);
}
