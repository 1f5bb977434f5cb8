// Case 12's gateway with its CallPipeline left out: gatewayServe.ts as it is, but each call goes from
// the gateway's handler straight to the server's connection (no validation, rules, rate slot,
// approval, rendering, masking or audit line). What is left is the plumbing every call pays for
// whatever the policy costs: the client's wire, the raw path, the handler's lookup and pin check,
// the connection's layers and the backend's transport. Beside the gateway in the same rounds, it
// splits the gateway's CPU a call into the plumbing's and the pipeline's. A measurement, never a
// product path: it exists only in this file. `node out/bench/gatewayPlumbing.js CONFIG RULES`
import { CallPipeline } from '../src/core/calls/callPipeline';
import type { CallOutcome, CallRequest } from '../src/core/calls/callTypes';
import type { ServerPool } from '../src/core/connection/serverPool';
import type { RenderedResult } from '../src/core/render/renderResult';
// The gateway itself, started as case 12 starts it (argv: CONFIG RULES). Its module runs first, but no
// call can reach the pipeline before this module's body has replaced `call`: a call comes by I/O, later.
import './gatewayServe';

/** The outcome's rendering, which the pipeline would make: none here (the gateway sends the raw result on). */
const NOT_RENDERED: RenderedResult = { text: '', isError: false, files: [] };
const LIMIT_MS = 60_000;

CallPipeline.prototype.call = async function plumbingOnly(this: CallPipeline, request: CallRequest): Promise<CallOutcome> {
  // The pipeline's own pool (a private field): the connection every call of the gateway is sent through.
  const connection = (this as unknown as { readonly _pool: ServerPool })._pool.get(request.server);
  if (!connection) return { kind: 'failed', message: `no server "${request.server}"` };
  const raw = await connection.callTool(request.tool, request.args, { timeoutMs: LIMIT_MS, maxTotalTimeoutMs: LIMIT_MS, signal: request.signal });
  return { kind: 'ok', raw, result: NOT_RENDERED, durationMs: 0 };
};

