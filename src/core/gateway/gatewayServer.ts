import { Server } from '@modelcontextprotocol/server';
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

const SERVER_INFO = { name: 'mcp-tool-host', title: 'MCP Tool Host gateway' };
const INSTRUCTIONS = 'The tools of the MCP servers configured in MCP Tool Host, named <server>_<tool>. Every call goes through the host\'s policy (rules, approvals, pins, rate limits, masking, audit); a call the policy does not run returns a tool error that says why.';

/** What every gateway instance (one a connection, or one an HTTP request) shares. */
export interface GatewayCore {
  readonly deps: GatewayDeps;
  readonly catalog: GatewayCatalog;
}

/**
 * A fresh MCP server instance of the gateway (the SDK makes one per connection or per request
 * and picks its protocol era): tools/list offers the catalogue, tools/call runs through the pipeline.
 */
export function gatewayServer(core: GatewayCore): Server {
  const { deps, catalog } = core;
  const server = new Server({ ...SERVER_INFO, version: deps.clientVersion }, { capabilities: { tools: { listChanged: true } }, instructions: INSTRUCTIONS });
  const definitionOf = (o: OfferedTool) => offeredDefinition(o.name, o.server, o.tool, annotationsOf(deps.pipeline, o.server, o.tool));
  server.setRequestHandler('tools/list', async () => {
    await catalog.ready();
    return { tools: deps.toolMode === 'search' ? [...SEARCH_MODE_TOOLS] : catalog.tools.map(definitionOf) };
  });
  server.setRequestHandler('tools/call', async (request, ctx) => {
    await catalog.ready();
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    if (deps.toolMode !== 'search') return callOffered(name, args);
    if (name === SEARCH_TOOL) return searchTools(catalog, args, definitionOf);
    if (name !== CALL_TOOL) return toolError(`Not run: no tool named "${shownName(name)}": this gateway offers ${SEARCH_TOOL} and ${CALL_TOOL}.`);
    const inner = args.name;
    const innerArgs = args.arguments ?? {};
    if (typeof inner !== 'string' || typeof innerArgs !== 'object' || innerArgs === null || Array.isArray(innerArgs)) return toolError(`Not sent: ${CALL_TOOL} needs "name", a tool's name from ${SEARCH_TOOL}, and "arguments", an object.`);
    return callOffered(inner, innerArgs as Record<string, unknown>);

    async function callOffered(toolName: string, toolArgs: Record<string, unknown>) {
      const found = catalog.lookup(toolName);
      if (found.kind === 'not-offered') return toolError(`Not run: server "${shownName(found.server)}" is not offered through the gateway (its workspace is not trusted).`);
      if (found.kind === 'unknown') return toolError(`Not run: no tool named "${shownName(toolName)}" (list the tools again: they may have changed).`);
      const { server: backend, tool } = found.offered;
      const progressToken = request.params._meta?.progressToken;
      const denials: { reason?: string } = {};
      const approver = deps.asks === 'client'
        ? clientApprover({ canElicit: server.getClientCapabilities()?.elicitation !== undefined, elicit: (params, options) => ctx.mcpReq.elicitInput(params, options) }, ctx.mcpReq.signal, denials)
        : undefined;
      const outcome = await deps.pipeline.call({
        server: backend,
        tool: tool.name,
        args: toolArgs,
        origin: 'gateway',
        keepRaw: true,
        signal: ctx.mcpReq.signal,
        approver,
        onProgress: progressToken === undefined ? undefined : (p) => void ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...p } }).catch(() => undefined),
      });
      const result: GatewayCallResult = outcome.kind === 'denied' && outcome.rule === undefined && denials.reason ? toolError(denials.reason) : callResult(outcome);
      return result;
    }
  });
  server.onerror = (err) => deps.log?.warn(`gateway: ${sanitizeLine(err.message)}`);
  return server;
}

/** The annotations the pipeline judges the tool by; a server gone meanwhile: its hints at their worst. */
function annotationsOf(pipeline: CallPipeline, server: string, tool: Tool) {
  return pipeline.rules.annotationsOf?.(server, tool) ?? effectiveAnnotations(tool, false);
}
