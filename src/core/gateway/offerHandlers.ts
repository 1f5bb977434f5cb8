import { ProtocolError, type PromptMessage, type ReadResourceResult, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { Approver } from '../calls/ports';
import type { ApprovalRounds, AskedRound } from './approvalRounds';
import { relayedInput, relayRound, type RelayTarget } from './inputRelay';
import type { Disposable } from '../events';
import { LOG_LEVELS, type LogLevel, type PromptMessagePart, type ResourcePart } from '../offers/offerTypes';
import { sanitizeLine, shownName } from '../render/sanitize';
import type { GatewayOffers } from './gatewayOffers';

/** JSON-RPC's "Invalid params": an unknown prompt, a resource not found (the spec says so for both). */
export const INVALID_PARAMS = -32602;
/** A read or prompt that was refused or failed: the message says why. */
const INTERNAL_ERROR = -32603;

/** What one client's gateway instance keeps of its own: the log level it asked for, the resources it watches. */
export interface ClientState {
  logLevel?: LogLevel;
  readonly watched: Map<string, Disposable>;
}

/** How a read the client asked for is decided when it asks (the same as a call's), and why it was denied. */
export type ReadApprover = (ctx: ServerContext, denials: { reason?: string }, asked: AskedRound) => Approver | undefined;

/**
 * resources/*, prompts/*, completion/complete and logging/setLevel for one gateway instance:
 * names and URIs from GatewayOffers, every read through the host's audited, capped read, decided
 * as a read the model asked for (the client may be an agent acting for one). With
 * `relayRounds`, a prompt's input_required rounds go to a 2026-07-28 client to answer (inputRelay.ts).
 */
export function serveOffers(server: Server, offers: GatewayOffers, ready: () => Promise<void>, approverFor: ReadApprover, state: ClientState, log: (line: string) => void, relayRounds?: ApprovalRounds): void {
  server.setRequestHandler('resources/list', async () => {
    await ready();
    return { resources: await offers.resourceList() };
  });
  server.setRequestHandler('resources/templates/list', async () => {
    await ready();
    return { resourceTemplates: await offers.templateList() };
  });
  server.setRequestHandler('resources/read', async (request, ctx) => {
    await ready();
    const asked = request.params.uri;
    const route = await offers.route(asked);
    if ('problem' in route) throw new ProtocolError(INVALID_PARAMS, route.problem, { uri: asked });
    const denials: { reason?: string } = {};
    const round: AskedRound = {};
    const outcome = await offers.resources.read({ server: route.server, uri: route.uri, origin: 'gateway', byModel: true, approver: approverFor(ctx, denials, round), signal: ctx.mcpReq.signal });
    if (round.result) return round.result;
    if (outcome.kind === 'denied') throw new ProtocolError(INTERNAL_ERROR, denials.reason ?? outcome.message, { uri: asked });
    if (outcome.kind === 'failed') throw new ProtocolError(INTERNAL_ERROR, `Not read: ${outcome.message}`, { uri: asked });
    return { contents: outcome.parts.map((p) => contentOf(p, p.uri === route.uri ? asked : p.uri)) } satisfies ReadResourceResult;
  });
  server.setRequestHandler('resources/subscribe', async (request) => {
    await ready();
    const asked = request.params.uri;
    const route = await offers.route(asked);
    if ('problem' in route) throw new ProtocolError(INVALID_PARAMS, route.problem, { uri: asked });
    if (!state.watched.has(asked)) {
      const watch = offers.resources.subscribe(route.server, route.uri, () => {
        // A client gone (its send fails) stops watching.
        server.sendResourceUpdated({ uri: asked }).catch(() => {
          watch.dispose();
          state.watched.delete(asked);
        });
      });
      state.watched.set(asked, watch);
    }
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    state.watched.get(request.params.uri)?.dispose();
    state.watched.delete(request.params.uri);
    return {};
  });
  server.setRequestHandler('prompts/list', async () => {
    await ready();
    return { prompts: (await offers.promptList()).map((p) => p.prompt) };
  });
  server.setRequestHandler('prompts/get', async (request, ctx) => {
    await ready();
    const owner = await offers.promptOwner(request.params.name);
    if (!owner) throw new ProtocolError(INVALID_PARAMS, `Unknown prompt: no prompt named "${shownName(request.params.name)}" (list the prompts again: they may have changed).`);
    const args = request.params.arguments ?? {};
    // As its listing says: a server asked without one may answer with a hole in its text, or a less clear error.
    const missing = (owner.prompt.arguments ?? []).filter((a) => a.required === true && typeof args[a.name] !== 'string');
    if (missing.length > 0) throw new ProtocolError(INVALID_PARAMS, `The prompt "${shownName(request.params.name)}" needs ${missing.map((a) => `"${shownName(a.name)}"`).join(', ')} (required by its listing); nothing was asked of its server.`);
    const target: RelayTarget = { what: 'prompt', server: owner.server, name: owner.name, args };
    const resumed = relayRounds && relayedInput(relayRounds, ctx, target);
    if (resumed?.kind === 'refused') throw new ProtocolError(INVALID_PARAMS, resumed.reason);
    const outcome = await offers.prompts.getRelayed({ server: owner.server, name: owner.name, args, origin: 'gateway', signal: ctx.mcpReq.signal, input: resumed?.input });
    if (outcome.kind === 'input-required') {
      const relayed = await relayRound(relayRounds!, ctx, target, outcome.round, { approved: false, round: resumed!.round });
      if ('problem' in relayed) throw new ProtocolError(INTERNAL_ERROR, `Stopped: ${relayed.problem}`);
      return relayed;
    }
    if (outcome.kind === 'failed') throw new ProtocolError(INTERNAL_ERROR, outcome.message);
    return { ...(outcome.description !== undefined && { description: outcome.description }), messages: outcome.messages.map(messageOf) };
  });
  server.setRequestHandler('completion/complete', async (request, ctx) => {
    await ready();
    const { ref, argument, context } = request.params;
    const target = ref.type === 'ref/prompt' ? await promptTarget(offers, ref.name) : await offers.templateOwner(ref.uri);
    if ('problem' in target) throw new ProtocolError(INVALID_PARAMS, target.problem);
    const answer = await offers.prompts.complete({
      server: target.server,
      ref: ref.type === 'ref/prompt' ? { type: 'ref/prompt', name: target.uri } : { type: 'ref/resource', uri: target.uri },
      argument,
      context: context?.arguments,
      signal: ctx.mcpReq.signal,
    });
    return { completion: { values: [...answer.values], ...(answer.total !== undefined && { total: answer.total }), hasMore: answer.hasMore } };
  });
  server.setRequestHandler('logging/setLevel', async (request) => {
    await ready();
    const level = request.params.level;
    if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new ProtocolError(INVALID_PARAMS, `"${shownName(level)}" is not a log level; one of: ${LOG_LEVELS.join(', ')}.`);
    state.logLevel = level;
    // Asked of every offered server that logs: their messages during this client's calls reach it at this level.
    await Promise.all(
      offers.running('logging').map(({ server: backend }) =>
        offers.prompts.setLogLevel(backend, level).catch((err: unknown) => log(`gateway: "${shownName(backend)}" did not take log level ${level}: ${sanitizeLine(err instanceof Error ? err.message : String(err))}`)),
      ),
    );
    return {};
  });
}

async function promptTarget(offers: GatewayOffers, name: string): Promise<{ server: string; uri: string } | { problem: string }> {
  const owner = await offers.promptOwner(name);
  return owner ? { server: owner.server, uri: owner.name } : { problem: `Unknown prompt: no prompt named "${shownName(name)}"` };
}

/** A read's part as the client gets it: text as made safe (secrets masked), bytes as base64. */
function contentOf(part: ResourcePart, uri: string): ReadResourceResult['contents'][number] {
  const mime = part.mimeType !== undefined ? { mimeType: part.mimeType } : {};
  return part.kind === 'text' ? { uri, ...mime, text: part.text } : { uri, ...mime, blob: Buffer.from(part.bytes).toString('base64') };
}

function messageOf(part: PromptMessagePart): PromptMessage {
  const role = part.role;
  switch (part.kind) {
    case 'text':
      return { role, content: { type: 'text', text: part.text } };
    case 'image':
    case 'audio':
      return { role, content: { type: part.kind, mimeType: part.mimeType, data: Buffer.from(part.bytes).toString('base64') } };
    case 'resource':
      return { role, content: { type: 'resource', resource: contentOf(part.part, part.part.uri) } };
    case 'resource_link':
      return { role, content: { type: 'resource_link', uri: part.uri, name: part.name } };
  }
}
