import { CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY, MissingRequiredClientCapabilityError, ProtocolError, Server, type CallToolRequest, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import type { Tool } from '@modelcontextprotocol/client';
import type { CallPipeline } from '../calls/callPipeline';
import { effectiveAnnotations } from '../tools/annotations';
import { sanitizeLine, shownName } from '../render/sanitize';
import { callResult, toolError, type GatewayCallResult } from './callResult';
import { clientApprover } from './clientAsks';
import type { GatewayCatalog, OfferedTool } from './gatewayCatalog';
import { CALL_TOOL, SEARCH_MODE_TOOLS, SEARCH_TOOL, searchTools } from './searchMode';
import type { GatewayDeps } from './gatewayTypes';
import { offeredDefinition } from './offeredDefinition';
import { shownDefinition, withheldCall } from './pinCheck';
import { levelPasses, type CallClient } from './backendRelay';
import { LOG_LEVELS, type LogLevel } from '../offers/offerTypes';
import type { GatewayOffers } from './gatewayOffers';
import { INVALID_PARAMS, serveOffers, type ClientState } from './offerHandlers';
import { modernApprover, type ApprovalRounds, type AskedRound } from './approvalRounds';
import { relayedInput, relayRound, type RelayProblem, type RelayTarget } from './inputRelay';
import type { Approver } from '../calls/ports';
import { budgetsOn, fitForModel, gatewayReadTool, GATEWAY_READ_TOOL, readForModel } from './resultBudget';
import type { CallSignal } from '../callSignal';

const SERVER_INFO = { name: 'mcp-tool-host', title: 'MCP Tool Host gateway' };
const INSTRUCTIONS = 'The tools, resources and prompts of the MCP servers configured in MCP Tool Host, tools and prompts named <server>_<name>. Every call goes through the host\'s policy (rules, approvals, pins, rate limits, masking, audit); a call the policy does not run returns a tool error that says why.';

/** What every gateway instance (one a connection, or one an HTTP request) shares. */
export interface GatewayCore {
  readonly deps: GatewayDeps;
  readonly catalog: GatewayCatalog;
  readonly offers: GatewayOffers;
  /** Approvals of 2026-07-28 clients, asked as input_required rounds (one signing key a gateway). */
  readonly rounds: ApprovalRounds;
  /** Who is connected (a stdio connection, an HTTP session): the results kept for its model are its own. None: the clients served per request. */
  readonly client?: string;
}

/** What the gateway offers a client: tools, resources, prompts and completion as the servers do, and their log messages. */
const CAPABILITIES = { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, completions: {}, logging: {} };

/**
 * A fresh MCP server instance of the gateway (the SDK makes one per connection or per request
 * and picks its protocol era): tools/list offers the catalogue, tools/call runs through the pipeline.
 */
export function gatewayServer(core: GatewayCore): Server {
  return gatewayInstance(core).server;
}

/**
 * How the gateway answers one tools/call: the SDK's handler and the stdio raw path (rawToolCalls.ts) both call it.
 * `signal`: the call's own where the raw path made a light one (callSignal.ts); else the context's.
 */
export type ToolCallHandler = (request: CallToolRequest, ctx: ServerContext, signal?: CallSignal) => Promise<CallToolResult | InputRequiredResult>;

/** A gateway server instance and its tools/call handler, for a transport that answers some calls itself. */
export function gatewayInstance(core: GatewayCore): { readonly server: Server; readonly callTool: ToolCallHandler } {
  const { deps, catalog } = core;
  const server = new Server({ ...SERVER_INFO, version: deps.clientVersion }, { capabilities: CAPABILITIES, instructions: INSTRUCTIONS, requestState: { verify: core.rounds.verify } });
  const state: ClientState = { watched: new Map() };
  const canElicit = () => server.getClientCapabilities()?.elicitation !== undefined;
  const canSample = (ctx: ServerContext) => ctx.mcpReq.envelope === undefined && server.getClientCapabilities()?.sampling !== undefined;
  // A 2026-07-28 request declares its capabilities and its log level itself (no level: no log messages);
  // an earlier era's client declared them at initialize and set a level for its session (none set: all).
  const envelopeOf = (ctx: ServerContext): Record<string, unknown> | undefined => ctx.mcpReq.envelope;
  const declared = (ctx: ServerContext) => {
    const envelope = envelopeOf(ctx);
    const capabilities = envelope === undefined ? server.getClientCapabilities() : envelope[CLIENT_CAPABILITIES_META_KEY];
    return typeof capabilities === 'object' && capabilities !== null ? (capabilities as Record<string, unknown>) : {};
  };
  const wantsLog = (ctx: ServerContext, level: LogLevel) => {
    const envelope = envelopeOf(ctx);
    if (envelope === undefined) return levelPasses(level, state.logLevel);
    const least = envelope[LOG_LEVEL_META_KEY];
    return typeof least === 'string' && (LOG_LEVELS as readonly string[]).includes(least) && levelPasses(level, least as LogLevel);
  };
  // A 2026-07-28 request is asked as an input_required round (modernApprover), an earlier era's by a pushed form.
  const clientAsks = (ctx: ServerContext, denials: { reason?: string }, asked: AskedRound): Approver =>
    modernApprover(core.rounds, ctx, denials, asked) ?? clientApprover({ canElicit: canElicit(), elicit: (params, options) => ctx.mcpReq.elicitInput(params, options) }, ctx.mcpReq.signal, denials);
  const approverFor = (ctx: ServerContext, denials: { reason?: string }, asked: AskedRound) => (deps.asks !== 'client' ? undefined : clientAsks(ctx, denials, asked));
  serveOffers(server, core.offers, () => catalog.ready(), approverFor, state, (line) => deps.log?.warn(line), deps.relay && core.rounds);
  server.onclose = () => {
    for (const watch of state.watched.values()) watch.dispose();
    state.watched.clear();
  };
  const definitionOf = (o: OfferedTool) => shownDefinition(deps.pins, o, offeredDefinition(o.name, o.server, o.tool, annotationsOf(deps.pipeline, o.server, o.tool)));
  server.setRequestHandler('tools/list', async () => {
    await catalog.ready();
    const tools = deps.toolMode === 'search' ? [...SEARCH_MODE_TOOLS] : catalog.tools.map(definitionOf);
    return { tools: budgetsOn(deps) ? [...tools, gatewayReadTool()] : tools };
  });
  const callTool: ToolCallHandler = async (request, ctx, signal) => {
    // Every call passes here: once the catalogue is ready, it does not wait a turn for it.
    if (!catalog.isReady) await catalog.ready();
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    if (name === GATEWAY_READ_TOOL && budgetsOn(deps)) return readForModel(deps, args, core.client);
    if (deps.toolMode !== 'search') {
      // A name that is no tool of ours is the client's mistake, not a tool's result (spec: -32602 "Unknown tool").
      const found = catalog.lookup(name);
      if (found.kind === 'not-offered') throw new ProtocolError(INVALID_PARAMS, `Unknown tool: server "${shownName(found.server)}" is not offered through the gateway (its workspace is not trusted).`);
      if (found.kind === 'unknown') throw new ProtocolError(INVALID_PARAMS, `Unknown tool: no tool named "${shownName(name)}" (list the tools again: they may have changed).`);
      return await callOffered(name, args);
    }
    if (name === SEARCH_TOOL) return searchTools(catalog, args, definitionOf, (o) => deps.pins?.changeOf(o.server, o.tool) !== undefined);
    if (name !== CALL_TOOL) throw new ProtocolError(INVALID_PARAMS, `Unknown tool: no tool named "${shownName(name)}": this gateway offers ${SEARCH_TOOL} and ${CALL_TOOL}.`);
    const inner = args.name;
    const innerArgs = args.arguments ?? {};
    if (typeof inner !== 'string' || typeof innerArgs !== 'object' || innerArgs === null || Array.isArray(innerArgs)) return toolError(`Not sent: ${CALL_TOOL} needs "name", a tool's name from ${SEARCH_TOOL}, and "arguments", an object.`);
    return await callOffered(inner, innerArgs as Record<string, unknown>);

    async function callOffered(toolName: string, toolArgs: Record<string, unknown>) {
      if (toolName === GATEWAY_READ_TOOL && budgetsOn(deps)) return readForModel(deps, toolArgs, core.client);
      const found = catalog.lookup(toolName);
      if (found.kind === 'not-offered') return toolError(`Not run: server "${shownName(found.server)}" is not offered through the gateway (its workspace is not trusted).`);
      if (found.kind === 'not-running') return toolError(`Not run: server "${shownName(found.server)}" is not running: ${found.why}. Nothing was sent.`);
      if (found.kind === 'unknown') return toolError(`Not run: no tool named "${shownName(toolName)}" (${deps.toolMode === 'search' ? `find it with ${SEARCH_TOOL}` : 'list the tools again'}: they may have changed).`);
      const withheld = withheldCall(deps.pins, found.offered, { log: deps.audit, args: toolArgs });
      if (withheld) return withheld;
      const { server: backend, tool } = found.offered;
      const progressToken = request.params._meta?.progressToken;
      const traceparent = request.params._meta?.traceparent;
      const denials: { reason?: string } = {};
      const asked: AskedRound = {};
      // A 2026-07-28 client answers the server's own rounds too, where the gateway passes a server's prompts on (relay).
      const target: RelayTarget | undefined = deps.relay && { what: 'tool', server: backend, name: tool.name, args: toolArgs };
      const resumed = target ? relayedInput(core.rounds, ctx, target) : undefined;
      if (resumed?.kind === 'refused') return toolError(resumed.reason);
      // Whether the approver allowed the call matters to a relayed round only; the approver is made when a call is put to it (most are not).
      const approval = resumed ? noteApproval(resumed.approved ? ALREADY_APPROVED : approverFor(ctx, denials, asked)) : undefined;
      const approver = approval ? approval.approver : deps.asks === 'client' ? lazyApprover(() => clientAsks(ctx, denials, asked)) : undefined;
      const run = () => deps.pipeline.call({
        server: backend,
        tool: tool.name,
        args: toolArgs,
        origin: 'gateway',
        keepRaw: true,
        signal: signal ?? ctx.mcpReq.signal,
        approver,
        input: resumed?.input,
        // The client's trace goes on through the backend's call (the telemetry checks the value before use).
        ...(typeof traceparent === 'string' && { traceparent }),
        onProgress: progressToken === undefined ? undefined : (p) => void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...p } }).catch(() => undefined),
      });
      // What the server needed of the client during the call that the client did not declare.
      const lacking = new Set<string>();
      // What the server sends during the call (its forms, its sampling requests, its log messages) goes to this client.
      const client = (): CallClient => ({
        session: server,
        elicit: canElicit() ? (params, signal, timeout) => ctx.mcpReq.elicitInput(params, { signal, timeout }) : undefined,
        // Pushed to a client of an earlier era only: a 2026-07-28 request has no channel for a request of ours.
        sample: canSample(ctx) ? (params, signal, timeout) => ctx.mcpReq.requestSampling(params, { signal, timeout }) : undefined,
        modern: ctx.mcpReq.envelope !== undefined,
        lacks: (capability) => void (declared(ctx)[capability] === undefined && lacking.add(capability)),
        log: (level, data) => wantsLog(ctx, level) && void ctx.mcpReq.notify({ method: 'notifications/message', params: { level, logger: backend, data } }).catch(() => undefined),
      });
      const outcome = await (deps.relay ? deps.relay.during(backend, client(), run) : run());
      if (asked.result) return asked.result;
      if (outcome.kind === 'input-required' && resumed && target) {
        const relayed = await relayRound(core.rounds, ctx, target, outcome.round, { approved: resumed.approved || approval?.approved() === true, round: resumed.round });
        if (!('problem' in relayed)) return relayed;
        const { problem, missing } = relayed as RelayProblem;
        // Nothing to relay but what the client did not declare: that is the protocol's error, as for a form pushed.
        if (missing) throw missingCapabilities(backend, new Set(missing));
        return toolError(`Stopped: ${problem}`);
      }
      // A call that failed for want of a capability the 2026-07-28 request did not declare is that error, not a tool's result:
      // the host found it out, or the server said so itself (it is told the client's capabilities where rounds are relayed).
      if (ctx.mcpReq.envelope !== undefined && outcome.kind === 'protocol-error' && outcome.requiredCapabilities) throw missingCapabilities(backend, new Set(outcome.requiredCapabilities));
      if (lacking.size > 0 && ctx.mcpReq.envelope !== undefined && outcome.kind !== 'ok' && outcome.kind !== 'tool-error') throw missingCapabilities(backend, lacking);
      const result: GatewayCallResult = outcome.kind === 'denied' && outcome.rule === undefined && denials.reason ? toolError(denials.reason) : callResult(outcome, (whole, rendered) => fitForModel(deps, whole, rendered, { server: backend, tool: tool.name, client: core.client }));
      return result;
    }
  };
  server.setRequestHandler('tools/call', callTool);
  server.onerror = (err) => deps.log?.warn(`gateway: ${sanitizeLine(err.message)}`);
  return { server, callTool };
}

/** The approver of a retry whose call the person approved in an earlier round: the call is not put to them again. */
const ALREADY_APPROVED: Approver = { approve: () => Promise.resolve('allow-once') };

/** An approver made when a call is first put to it: most calls are decided by the rules or a grant, and ask no one. */
function lazyApprover(make: () => Approver): Approver {
  let made: Approver | undefined;
  return { approve: (request) => (made ??= make()).approve(request) };
}

/** An approver that notes whether it allowed the call (a relayed round carries that on); none: the pipeline's own. */
function noteApproval(approver: Approver | undefined): { readonly approver: Approver | undefined; approved(): boolean } {
  let allowed = false;
  if (!approver) return { approver, approved: () => false };
  return {
    approver: {
      approve: async (request) => {
        const decision = await approver.approve(request);
        allowed = typeof decision === 'string' && decision !== 'deny';
        return decision;
      },
    },
    approved: () => allowed,
  };
}

/** MissingRequiredClientCapabilityError (-32021, HTTP 400) naming what the server needed of the client. */
function missingCapabilities(server: string, lacking: ReadonlySet<string>): MissingRequiredClientCapabilityError {
  const names = [...lacking];
  return new MissingRequiredClientCapabilityError({ requiredCapabilities: Object.fromEntries(names.map((n) => [n, {}])) }, `The server "${shownName(server)}" needed the client's ${names.join(' and ')} capability during the call, which the request did not declare.`);
}

/** The annotations the pipeline judges the tool by; a server gone meanwhile: its hints at their worst. */
function annotationsOf(pipeline: CallPipeline, server: string, tool: Tool) {
  return pipeline.rules.annotationsOf?.(server, tool) ?? effectiveAnnotations(tool, false);
}
