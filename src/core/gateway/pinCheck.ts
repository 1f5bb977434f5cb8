import { randomUUID } from 'node:crypto';
import { argumentsHash } from '../calls/auditHash';
import type { AuditLog } from '../calls/ports';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerPool } from '../connection/serverPool';
import type { DefinitionPins } from '../policy/definitionPins';
import { visibleLine } from '../render/sanitize';
import { toolError, type GatewayCallResult } from './callResult';
import type { OfferedTool } from './gatewayCatalog';
import type { GatewayPins } from './gatewayTypes';
import type { GatewayToolDefinition } from './offeredDefinition';

/**
 * The definition a client is shown: as offered, or for a tool that changed since the user pinned
 * it, a stand-in that keeps its name and hints and says it is withheld. Nothing the server changed
 * (title, description, schema) reaches the model until the user accepted it: a changed description
 * is exactly where a server would hide new instructions.
 */
export function shownDefinition(pins: GatewayPins | undefined, offered: OfferedTool, definition: GatewayToolDefinition): GatewayToolDefinition {
  const parts = pins?.changeOf(offered.server, offered.tool);
  if (!parts) return definition;
  return {
    name: definition.name,
    description: `Withheld: this tool changed since the user pinned it (${parts.join(', ')}), so calls to it are refused until they accept the change; ${visibleLine(pins!.acceptHint(offered.server, offered.tool.name))}.`,
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: definition.annotations.readOnlyHint, destructiveHint: definition.annotations.destructiveHint, idempotentHint: definition.annotations.idempotentHint, openWorldHint: definition.annotations.openWorldHint },
  };
}

/** The tool error for a call to a tool that changed since it was pinned, or undefined when it may run. Checked at each call: an accept elsewhere counts at once. */
export function withheldCall(pins: GatewayPins | undefined, offered: OfferedTool, audit?: { readonly log: AuditLog | undefined; readonly args: Record<string, unknown> }): GatewayCallResult | undefined {
  const parts = pins?.changeOf(offered.server, offered.tool);
  if (!parts) return undefined;
  // A refusal is a decision of the policy: audited as the pipeline audits its own (no arguments, their hash).
  audit?.log?.append({
    time: new Date().toISOString(),
    callId: randomUUID().slice(0, 8),
    origin: 'gateway',
    server: offered.server,
    tool: offered.tool.name,
    argsHash: argumentsHash(audit.args),
    decision: `withheld: the tool changed since it was pinned (${parts.join(', ')})`,
    outcome: 'denied',
  });
  return toolError(`Not run: ${offered.name} changed since you pinned it (${parts.join(', ')}); ${visibleLine(pins!.acceptHint(offered.server, offered.tool.name))}.`);
}

/** How long one look at the pins store holds for the calls that follow it (ms). */
const LOOK_MS = 2;

/**
 * GatewayPins over a DefinitionPins (the CLI's pins file): the first listing of each server is
 * pinned in one write; a later definition that differs is a change until accepted. The answer for a
 * server is kept while its tool list and the store (`version`: another process may accept a change
 * meanwhile) stay the same, so a call costs a lookup, not a hash of the tool. `onDidAccept` hears
 * the store change elsewhere (the CLI: its file, written by `pins accept` in another process).
 */
export function storedPins(store: DefinitionPins, pool: ServerPool, version: () => string, acceptHint: GatewayPins['acceptHint'], onDidAccept?: GatewayPins['onDidAccept'], clock: () => number = performance.now.bind(performance)): GatewayPins {
  const reviewed = new Map<string, { readonly tools: readonly Tool[]; readonly version: string; readonly changed: ReadonlyMap<string, readonly string[]> }>();
  // Calls of the same moment share one look at the store (a stat): a tool answering call by call made a stat a call.
  // An accept elsewhere takes a process of its own to run: it counts from the next look, at most LOOK_MS later.
  let now: string | undefined;
  let lookedAt = -Infinity;
  const currentVersion = () => {
    const at = clock();
    if (now === undefined || at - lookedAt >= LOOK_MS) {
      now = version();
      lookedAt = at;
    }
    return now;
  };
  return {
    acceptHint,
    onDidAccept,
    changeOf(server, tool) {
      const connection = pool.get(server);
      const tools = connection?.tools.includes(tool) ? connection.tools : [tool];
      let known = reviewed.get(server);
      const current = currentVersion();
      if (!known || known.tools !== tools || known.version !== current) {
        const instructions = connection?.state.kind === 'running' ? connection.state.instructions : undefined;
        const review = store.review(server, tools, instructions);
        // The review may have pinned new tools (a write): the version after it is the one that holds.
        now = undefined;
        known = { tools, version: currentVersion(), changed: new Map(review.changed.map((c) => [c.tool, c.parts.length > 0 ? c.parts : ['definition']])) };
        reviewed.set(server, known);
      }
      return known.changed.get(tool.name);
    },
  };
}
