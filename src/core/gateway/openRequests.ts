import type { ServerResponse } from 'node:http';
import { ProtocolErrorCode, type JSONRPCErrorResponse, type RequestId, type Transport } from '@modelcontextprotocol/server';

/**
 * What a stopping gateway answers each request it was serving: JSON-RPC's internal error (-32603), as
 * for a request the server failed, with a sentence that says why and what to do.
 */
const STOPPED_ERROR = { code: ProtocolErrorCode.InternalError, message: 'The MCP Tool Host gateway stopped before the call ended: it was shut down while this request was open; send it again once the gateway runs.' };

/** The JSON-RPC error answer to request `id`: the gateway stopped. */
export const stoppedAnswer = (id: RequestId): JSONRPCErrorResponse => ({ jsonrpc: '2.0', id, error: STOPPED_ERROR });

/** The same answer as an HTTP body the gateway writes itself, to the request in `body` (id null when it holds none, or several). */
export function stoppedBody(body: unknown): string {
  const ids = requestIds(body);
  return JSON.stringify({ jsonrpc: '2.0', id: ids.length === 1 ? ids[0] : null, error: STOPPED_ERROR });
}

/** One POST the gateway serves: its response, the ids of the requests in its body, and the transport that holds them (undefined: not yet at a server). */
interface Exchange {
  readonly res: ServerResponse;
  readonly ids: readonly RequestId[];
  readonly transport: () => Pick<Transport, 'send'> | undefined;
}

/**
 * The requests the HTTP gateway took and has not answered yet, so that stopping it answers each:
 * closing a session or a per-request server ends its response with no answer, and the client then
 * waits out its own timeout (a minute, minutes for an agent). The answer goes through the transport
 * that holds the request, so it has the form the request's era expects: an SSE event or a JSON body
 * for a 2025 session, the HTTP response of a 2026-07-28 request.
 */
export class OpenRequests {
  private readonly _open = new Set<Exchange>();

  /** Keeps the requests in `body` (a message or a 2025 batch) until `res` ends; a body of notifications or responses is not kept. */
  track(res: ServerResponse, body: unknown, transport: Exchange['transport']): void {
    const ids = requestIds(body);
    if (ids.length === 0 || res.writableEnded) return;
    const exchange: Exchange = { res, ids, transport };
    this._open.add(exchange);
    res.once('close', () => this._open.delete(exchange));
  }

  /** Answers every open request that a transport holds with `stoppedAnswer` (one answered meanwhile is left alone: the transport knows it no more). */
  answerAll(): void {
    for (const { ids, transport } of this._open) {
      const holder = transport();
      if (holder) for (const id of ids) void answer(holder, id).catch(() => undefined);
    }
  }

  /** Resolves once every open response has ended (its answer written), or after `ms`, whichever is first. */
  async ended(ms: number): Promise<void> {
    if (this._open.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const waits = [...this._open].map(({ res }) => new Promise<void>((resolve) => res.once('close', () => resolve())));
    await Promise.race([Promise.all(waits), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }
}

/** Sends `id` its answer; async so a transport that throws at once rejects like one that fails later. */
const answer = async (holder: Pick<Transport, 'send'>, id: RequestId) => holder.send(stoppedAnswer(id));

/** The ids of the JSON-RPC requests in a body: a request, or a batch of messages. */
export function requestIds(body: unknown): RequestId[] {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const ids: RequestId[] = [];
  for (const m of messages) {
    if (typeof m !== 'object' || m === null) continue;
    const { method, id } = m as { method?: unknown; id?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}
