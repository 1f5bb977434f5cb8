import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

/**
 * The answers we check item by item ourselves (toolListing.ts, renderResult.ts): one bad tool or
 * one unknown content block costs that item, not the whole answer (issue 13, "Tolerance").
 */
const OWN_CHECKS: Readonly<Record<string, string>> = {
  'tools/list': 'tools',
  'tools/call': 'content',
};

const NOT_CACHED = { ttlMs: 0, cacheScope: 'private' };

/** On a request of the 2026-07-28 era: the envelope's protocol version in `_meta`. */
const ERA_KEY = 'io.modelcontextprotocol/protocolVersion';

/** What we asked: which items the answer lists, and whether in the 2026-07-28 era. */
interface Asked {
  readonly items: string;
  readonly modern: boolean;
}

/** Where the server's own answer rides on the stand-in the SDK checks. */
const RAW = Symbol('mcp-tool-host.rawAnswer');

/**
 * Lets the server's answers to `tools/list` and `tools/call` reach us unchecked in both protocol
 * eras. The 2025 codec takes the result schema we give it; the 2026-07-28 codec parses every
 * result strictly before any schema of ours runs. So on the way in, a complete answer to one of
 * these requests is replaced by a stand-in with no items (which the SDK's parse accepts) that
 * carries the real answer under a symbol; the SDK copies the result's own properties, symbols
 * included, and `rawAnswer` takes it back off. `input_required` and errors are left to the SDK.
 * A 2026-07-28 answer without `resultType` (which its servers must send) is read as complete, as
 * an earlier era's is: refusing the whole answer for it would cost the user the result.
 * Any answer whose result is not an object fails its request at once (the SDK would not
 * recognise it, and the request would wait for its timeout).
 *
 * Installed on the transport object itself, not a wrapper: the SDK tells transports apart by
 * their properties (stdio or HTTP), and a wrapper would change that.
 */
export function keepRawAnswers(transport: Transport): void {
  const asked = new Map<string | number, Asked>();
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message && 'id' in message && Object.hasOwn(OWN_CHECKS, message.method)) {
      const meta = (message.params as { _meta?: unknown } | undefined)?._meta;
      asked.set(message.id, { items: OWN_CHECKS[message.method], modern: isObject(meta) && ERA_KEY in meta });
    }
    return send(message, options);
  };
  const close = transport.close.bind(transport);
  transport.close = () => {
    asked.clear();
    return close();
  };
  let handler = transport.onmessage;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => handler,
    set: (next: Transport['onmessage']) => {
      handler = next && ((message, extra) => next(standIn(message, asked), extra));
    },
  });
}

/** The server's own answer, when `keepRawAnswers` put it aside; otherwise the answer as it came. */
export function rawAnswer(answer: unknown): unknown {
  if (typeof answer !== 'object' || answer === null || !(RAW in answer)) return answer;
  const raw = { ...(answer as Record<symbol, Record<string, unknown>>)[RAW] };
  delete raw.resultType; // the 2026-07-28 envelope, which the SDK has already acted on
  return raw;
}

function standIn(message: JSONRPCMessage, asked: Map<string | number, Asked>): JSONRPCMessage {
  if ('method' in message || !('id' in message) || message.id === undefined) return message;
  const request = asked.get(message.id);
  asked.delete(message.id);
  if (!('result' in message)) return message;
  const result: unknown = message.result;
  // The SDK does not recognise a response whose result is not an object, and its request would
  // wait for its timeout: fail it now, saying why.
  if (!isObject(result)) return { jsonrpc: '2.0', id: message.id, error: { code: -32603, message: `The server answered with ${result === null ? 'null' : Array.isArray(result) ? 'a list' : `a ${typeof result}`} where a result object belongs` } };
  if (!request || (result.resultType ?? (request.modern ? 'complete' : undefined)) !== 'complete' || RAW in result) return message;
  const { items } = request;
  // Only what the SDK needs to accept the answer, so a malformed cursor or cache hint is ours to
  // judge too. A list must say how long it may be cached: not at all (we do not cache through the SDK).
  const stand: Record<string | symbol, unknown> = { resultType: 'complete', [items]: [], ...(items === 'tools' && NOT_CACHED), [RAW]: result };
  return { ...message, result: stand } as JSONRPCMessage;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
