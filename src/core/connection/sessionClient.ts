import type { ServerDefinition } from '../config/serverConfig';
import { loadElicitation } from '../elicitation/load';
import type { ServerLog } from '../serverLog';
import type { ConnectionDeps } from './connectionDeps';
import type { PromptGate } from './promptGate';
import { SdkClient, type OfferNotice } from './sdkClient';
import { safeSampling } from './samplingRequests';
import { safeElicitation } from './elicitationRequests';

/** What a session's client needs of its connection. */
export interface SessionClientHost {
  readonly definition: ServerDefinition;
  readonly deps: ConnectionDeps;
  readonly prompts: PromptGate;
  /** Where the server's own log messages go. */
  readonly serverMessages: ServerLog;
  readonly secrets: () => readonly string[];
  readonly onToolsChanged: () => void;
  readonly onOfferNotice: (notice: OfferNotice) => void;
  /** Names this server for the Tasks package: the same launch is the same server, across sessions and reloads. */
  readonly endpointId: string;
}

/**
 * The SDK client of one session (one per handshake): the server's prompts go through the
 * connection's gate, and a form it sends names the server, with the server's secrets masked.
 */
export function newSessionClient(host: SessionClientHost): SdkClient {
  const { definition, deps } = host;
  const { elicit, sample } = deps;
  host.prompts.newSession();
  return new SdkClient({
    clientVersion: deps.clientVersion,
    validator: deps.validator,
    roots: deps.roots,
    elicitLinks: deps.elicitLinks,
    // A form names the calls it may belong to (the gate's): a server's request does not say which of its calls asks.
    // While the user answers, the calls are held as answering: their idle timers stand still.
    // The server may withdraw its request (notifications/cancelled): the prompt closes as when its calls end.
    elicit: elicit && (({ withdrawn, ...asked }, { calls, tasks, callsEnded, endsAt, hold }) => loadElicitation().whileAnswering(hold, () => elicit({ ...safeElicitation(asked, host.secrets()), calls, tasks, callsEnded: loadElicitation().endedOrWithdrawn(callsEnded, withdrawn), endsAt, server: definition.name }), asked.mode === 'url' ? asked.completion : undefined)),
    // A sampling request likewise: its calls held as answering, its texts made safe and masked for the server's secrets.
    sample: sample && (async (params, { calls, callsEnded, hold }, withdrawn) => {
      const release = hold();
      try {
        return await sample({ server: definition.name, params: safeSampling(params, host.secrets()), calls, callsEnded: loadElicitation().endedOrWithdrawn(callsEnded, withdrawn) });
      } finally {
        release();
      }
    }),
    prompts: host.prompts,
    log: host.serverMessages,
    listingLimits: deps.listingLimits,
    endpointId: host.endpointId,
    onToolsChanged: host.onToolsChanged,
    onOfferNotice: host.onOfferNotice,
  });
}
