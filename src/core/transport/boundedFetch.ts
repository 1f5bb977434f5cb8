// What one message from a remote server may bring, held as it streams. The SDK's HTTP transports
// read a JSON answer whole (`response.json()`) and an SSE event whole before they parse it, so
// without this a server could send gigabytes and they would all be held. Each answer body and
// each SSE event is counted as it arrives; past the limit its bytes are dropped and the request it
// answers fails with an error saying so, as a stdio message over the limit does (messagePump.ts).

/** The sentence for a message dropped at the limit. */
export function oversizeSentence(bytes: number, maxBytes: number, whole: boolean): string {
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `A message of ${whole ? '' : 'more than '}${mib(bytes)} exceeded the ${mib(maxBytes)} limit and was dropped (raise the setting mcpToolHost.maxMessageSize to accept it).`;
}

/** The id of the response a message's first bytes begin, or undefined for a request, a notification or bytes that say nothing. */
export function responseIdIn(head: string): string | number | undefined {
  const id = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(head);
  if (!id || /"method"\s*:/.test(head.slice(0, id.index))) return undefined;
  return JSON.parse(id[1]) as string | number;
}

/** How much of a dropped message is kept to find whose answer it was. */
const HEAD_BYTES = 4096;

/**
 * `fetch` whose answers are bounded: a body that is not an event stream (a JSON answer, an error
 * page) may bring at most `maxBytes`, and so may each event of an event stream. What was dropped
 * is told to `onDropped` and, when it answered a request, becomes that request's error.
 */
export function boundedFetch(inner: typeof fetch, maxBytes: number, onDropped: (sentence: string) => void): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.body || response.status === 204 || response.status === 205 || (response.status >= 300 && response.status < 400)) return response;
    const asked = requestIdOf(init?.body);
    const events = /^\s*text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    const body = events ? response.body.pipeThrough(eventBound(maxBytes, asked, onDropped)) : wholeBound(response.body, maxBytes, asked, onDropped);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}

/** The id of the one JSON-RPC request a POST sent, if it sent one. */
function requestIdOf(body: unknown): string | number | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const message = JSON.parse(body) as { id?: unknown; method?: unknown };
    return typeof message.method === 'string' && (typeof message.id === 'string' || typeof message.id === 'number') ? message.id : undefined;
  } catch {
    return undefined;
  }
}

const errorFor = (id: string | number, message: string) => JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message } });

/**
 * A body read whole, as the SDK would, but never more than `maxBytes` of it: past that the rest is
 * not read (the connection is dropped) and the body becomes the request's error.
 */
function wholeBound(body: ReadableStream<Uint8Array>, maxBytes: number, asked: string | number | undefined, onDropped: (sentence: string) => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const held: Uint8Array[] = [];
  let bytes = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          for (const chunk of held.splice(0)) controller.enqueue(chunk);
          controller.close();
          return;
        }
        bytes += value.byteLength;
        if (bytes <= maxBytes) {
          held.push(value);
          continue;
        }
        const head = new TextDecoder().decode(concat(held, HEAD_BYTES));
        held.length = 0;
        void reader.cancel().catch(() => undefined);
        const sentence = oversizeSentence(bytes, maxBytes, false);
        onDropped(sentence);
        const id = responseIdIn(head) ?? asked;
        if (id === undefined) controller.error(new Error(sentence));
        else {
          controller.enqueue(new TextEncoder().encode(errorFor(id, sentence)));
          controller.close();
        }
        return;
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/**
 * An event stream passed on event by event, each held until its blank line; an event over
 * `maxBytes` is dropped as it streams (nothing of it is held past the limit but its first bytes).
 * One that answered a request becomes that request's error; on the stream of a POST the request
 * is the one it sent, and the stream ends there (an endless event would never end otherwise).
 */
function eventBound(maxBytes: number, asked: string | number | undefined, onDropped: (sentence: string) => void): TransformStream<Uint8Array, Uint8Array> {
  let held: Uint8Array[] = [];
  let bytes = 0;
  let dropping = false;
  let lineStart = true;
  let afterCr = false;
  const drop = (controller: TransformStreamDefaultController<Uint8Array>): void => {
    const head = new TextDecoder().decode(concat(held, HEAD_BYTES));
    held = [];
    const sentence = oversizeSentence(bytes, maxBytes, false);
    onDropped(sentence);
    for (const id of new Set([responseIdIn(head), asked])) {
      if (id !== undefined) controller.enqueue(new TextEncoder().encode(`event: message\ndata: ${errorFor(id, sentence)}\n\n`));
    }
    if (asked !== undefined) controller.terminate();
    else dropping = true;
  };
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      let start = 0;
      for (let i = 0; i < chunk.byteLength; i++) {
        const b = chunk[i];
        if (b === 0x0a && afterCr) {
          afterCr = false;
          continue;
        }
        if (b !== 0x0a && b !== 0x0d) {
          lineStart = false;
          afterCr = false;
          continue;
        }
        afterCr = b === 0x0d;
        if (!lineStart) {
          lineStart = true;
          continue;
        }
        // A blank line: the event ends here.
        if (dropping) dropping = false;
        else {
          for (const part of held) controller.enqueue(part);
          controller.enqueue(chunk.subarray(start, i + 1));
        }
        held = [];
        bytes = 0;
        start = i + 1;
      }
      if (dropping || start === chunk.byteLength) return;
      const rest = chunk.subarray(start);
      held.push(rest);
      bytes += rest.byteLength;
      if (bytes > maxBytes) drop(controller);
    },
    flush(controller) {
      for (const part of held) controller.enqueue(part);
    },
  });
}

/** The first `max` bytes of the chunks, as one array. */
function concat(chunks: readonly Uint8Array[], max: number): Uint8Array {
  const out = new Uint8Array(Math.min(max, chunks.reduce((n, c) => n + c.byteLength, 0)));
  let at = 0;
  for (const chunk of chunks) {
    if (at >= out.byteLength) break;
    const part = chunk.subarray(0, out.byteLength - at);
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
