import { SdkError, SdkErrorCode, type CallToolRequest, type JSONRPCMessage, type RequestId, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { GatewayWire } from './gatewayWire';
import { checkedResult } from './resultCheck';
import type { ToolCallHandler } from './gatewayServer';
import { abortSignalOf, CallCancel, type CallSignal } from '../callSignal';

const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;
/** An era's code the 2025 era does not know (resource not found) is sent as invalid params, as the SDK sends it. */
const NOT_IN_2025 = -32002;

/** The connection's server instance, when its calls may be answered past the SDK. */
export interface RawInstance {
  readonly server: Server;
  readonly callTool: ToolCallHandler;
}

/** A tools/call the raw path answers: the request as the SDK's schemas would pass it on. */
type PlainCall = CallToolRequest & { readonly id: RequestId };

/**
 * tools/call of a 2025-era stdio client answered past the SDK's server: no schema parse of the
 * message, the request or the result it built itself, no context object per request beyond the
 * one the handler reads. The answer is the one the SDK's path gives: the same handler
 * (`gatewayInstance`'s callTool: pipeline, pins, rules, rate limit, masking, audit, the same result
 * function), the client's forms and sampling pushed through the same server instance, progress
 * on the request's token, `notifications/cancelled` stopping the call with no answer, the same
 * error codes. Only a request in the plainest shape the SDK accepts is taken (`plainCall`);
 * anything else (extra keys, an odd id, a 2026-07-28 envelope, a task) goes to the SDK, which
 * answers or refuses it as it always did.
 */
export class RawToolCalls {
  private readonly _inFlight = new Map<RequestId, CallCancel>();

  constructor(
    private readonly _wire: GatewayWire,
    private readonly _instance: () => RawInstance | undefined,
  ) {}

  /** Answers `message` when it is a tools/call of ours to answer; false: the SDK's to handle. */
  readonly take = (message: unknown): boolean => {
    const request = plainCall(message);
    if (!request) return false;
    const instance = this._instance();
    if (!instance) return false;
    this._run(instance, request);
    return true;
  };

  /** A cancellation of a call answered here stops it (the SDK would not know its id). */
  readonly watch = (message: JSONRPCMessage): void => {
    if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message) return;
    const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
    if (id !== undefined) this._inFlight.get(id)?.abort((message.params as { reason?: unknown }).reason);
  };

  /** The connection closed: every call in flight stops, unanswered. */
  closeAll(): void {
    const error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    for (const controller of this._inFlight.values()) controller.abort(error);
    this._inFlight.clear();
  }

  private _run(instance: RawInstance, request: PlainCall): void {
    const { id } = request;
    // A light signal (callSignal.ts): the context makes a real one only for what asks it for one.
    const controller = new CallCancel();
    this._inFlight.set(id, controller);
    const answer = (body: string) => {
      if (!controller.signal.aborted) this._wire.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},${body}}\n`);
    };
    instance
      .callTool(request, legacyContext(instance.server, request, controller.signal), controller.signal)
      .then(
        (result) => {
          const checked = checkedResult(result);
          answer(checked.ok ? `"result":${checked.json}` : errorBody(INVALID_PARAMS, `Invalid tools/call result: ${checked.issues}`));
        },
        (error: unknown) => {
          const e = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; message?: unknown; data?: unknown };
          const code = Number.isSafeInteger(e.code) ? (e.code as number) : INTERNAL_ERROR;
          answer(errorBody(code === NOT_IN_2025 ? INVALID_PARAMS : code, typeof e.message === 'string' ? e.message : 'Internal error', e.data));
        },
      )
      .catch(() => answer(errorBody(INTERNAL_ERROR, 'Internal error')))
      .finally(() => {
        if (this._inFlight.get(id) === controller) this._inFlight.delete(id);
      });
  }
}

function errorBody(code: number, message: string, data?: unknown): string {
  return `"error":${JSON.stringify({ code, message, ...(data !== undefined && { data }) })}`;
}

/**
 * What the handler reads of a request of the 2025 era on stdio, as the SDK's server builds it:
 * no envelope, no requestState, no inputResponses; forms, sampling and notifications go through
 * the connection's server instance (on stdio a related request needs no routing). What does not
 * depend on the request is made once a server instance (`serverParts`): a call makes two objects
 * and one closure here, not seven closures. Its `signal` is an AbortSignal made when read: the
 * handler is given the call's light one, and only a form pushed to the client reads this.
 */
function legacyContext(server: Server, request: PlainCall, signal: CallSignal): ServerContext {
  return { mcpReq: new LegacyRequest(server, request, signal) };
}

/** A request's part of the context, its AbortSignal made when read (the handler is given the light one). */
class LegacyRequest {
  readonly id: RequestId;
  readonly method: string;
  readonly _meta: PlainCall['params']['_meta'];
  readonly requestState = noRequestState;
  readonly send: SharedParts['send'];
  readonly log: SharedParts['log'];
  readonly elicitInput: SharedParts['elicitInput'];
  readonly requestSampling: SharedParts['requestSampling'];

  constructor(
    private readonly _server: Server,
    request: PlainCall,
    private readonly _signal: CallSignal,
  ) {
    const shared = serverParts(_server);
    this.id = request.id;
    this.method = request.method;
    this._meta = request.params._meta;
    this.send = shared.send;
    this.log = shared.log;
    this.elicitInput = shared.elicitInput;
    this.requestSampling = shared.requestSampling;
  }

  get signal(): AbortSignal {
    return abortSignalOf(this._signal);
  }

  readonly notify: ServerContext['mcpReq']['notify'] = (notification) => this._server.notification(notification as Parameters<Server['notification']>[0], { relatedRequestId: this.id });
}

type SharedParts = Pick<ServerContext['mcpReq'], 'send' | 'log' | 'elicitInput' | 'requestSampling'>;

/** The request-free parts of a context, one set a server instance. */
const sharedParts = new WeakMap<Server, SharedParts>();

function serverParts(server: Server): SharedParts {
  let parts = sharedParts.get(server);
  if (!parts) {
    parts = {
      // The SDK's overloads (with or without a result schema) pass straight on to the instance's own.
      send: ((...args: unknown[]) => Reflect.apply(server.request, server, args) as Promise<unknown>) as ServerContext['mcpReq']['send'],
      log: (level, data, logger) => server.sendLoggingMessage({ level, data, ...(logger !== undefined && { logger }) }),
      elicitInput: (params, requestOptions) => server.elicitInput(params, requestOptions),
      requestSampling: (params, requestOptions) => server.createMessage(params, requestOptions),
    };
    sharedParts.set(server, parts);
  }
  return parts;
}

const noRequestState = (() => undefined) as ServerContext['mcpReq']['requestState'];

const CALL_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_KEYS = new Set(['name', 'arguments', '_meta']);

/**
 * `message` as a tools/call request when it has the plainest shape the SDK's schemas accept and
 * pass on unchanged: exactly jsonrpc "2.0", an id (a string or a safe integer), the method and
 * params; params with a string name, an optional arguments object, an optional _meta holding at
 * most a progress token (a string or a safe integer). Anything else: undefined (the SDK decides).
 */
export function plainCall(message: unknown): PlainCall | undefined {
  if (!isObject(message) || message.method !== 'tools/call' || message.jsonrpc !== '2.0') return undefined;
  if (!onlyKeys(message, CALL_KEYS) || !isId(message.id)) return undefined;
  const params = message.params;
  if (!isObject(params) || !onlyKeys(params, PARAMS_KEYS) || typeof params.name !== 'string') return undefined;
  if (params.arguments !== undefined && (!isObject(params.arguments) || Object.hasOwn(params.arguments, '__proto__'))) return undefined;
  const meta = params._meta;
  if (meta !== undefined && (!isObject(meta) || !onlyKeys(meta, PROGRESS_ONLY) || (meta.progressToken !== undefined && !isId(meta.progressToken)))) return undefined;
  return message as unknown as PlainCall;
}

const PROGRESS_ONLY = new Set(['progressToken']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is RequestId {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key of Object.keys(value)) if (!allowed.has(key)) return false;
  return true;
}
