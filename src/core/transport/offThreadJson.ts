import { Worker } from 'node:worker_threads';
import type { Disposable } from '../events';

/** A worker with nothing to do ends after this long; the next large message starts another. */
export const PARSER_IDLE_MS = 30_000;
/** "Mostly long strings": at most one object or array per this many bytes. */
const BYTES_PER_CONTAINER = 64 * 1024;

// The worker's whole program (eval'd, so it needs no file of its own next to any bundle). It
// decodes each message's pieces as they stream in, parses it at the end, and answers
// { id, value } when it is mostly long strings (a text result: cheap to copy back), { id, text }
// when it is many small objects (a long tool list: V8 copies those back ~2x slower than
// JSON.parse builds them, so the main thread parses it again), or { id, error }.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { StringDecoder } = require('node:string_decoder');
const open = new Map();
const fewContainers = (value, budget) => {
  const stack = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (--budget < 0) return false;
    for (const key in v) stack.push(v[key]);
  }
  return true;
};
parentPort.on('message', ({ op, id, bytes, budget }) => {
  if (op === 'piece') {
    let m = open.get(id);
    if (!m) open.set(id, (m = { decoder: new StringDecoder('utf8'), parts: [] }));
    m.parts.push(m.decoder.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
    return;
  }
  const m = open.get(id);
  open.delete(id);
  if (op !== 'end') return;
  const text = m ? m.parts.join('') + m.decoder.end() : '';
  try {
    const value = JSON.parse(text);
    parentPort.postMessage(fewContainers(value, budget) ? { id, value } : { id, text });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});`;

type Reply = { id: number; value?: unknown; text?: string; error?: string };

/** One large message on its way in: its bytes go to the parser as they arrive. */
export interface StreamingJson {
  push(bytes: Buffer): void;
  /** The parsed message; rejects with a SyntaxError when it is not JSON. */
  end(): Promise<unknown>;
  abort(): void;
}

/**
 * Decodes large JSON messages on a worker thread while they stream in and parses them there, so
 * a 50 MiB tool result does not stop the extension host for the ~160 ms that joining, decoding
 * and parsing it takes on the main thread (ARCHITECTURE.md "Limits": the event loop is never blocked for more
 * than 50 ms); the main thread pays ~0.6 ms per MiB to copy the value back. The worker starts with the first large message, never keeps the
 * process alive, and ends after `PARSER_IDLE_MS` without work. Where a worker cannot start,
 * messages are joined and parsed inline.
 */
export class OffThreadJsonParser implements Disposable {
  private _worker: Worker | undefined;
  private _unavailable = false;
  private _nextId = 0;
  private readonly _pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private _idleTimer: NodeJS.Timeout | undefined;

  begin(): StreamingJson {
    const worker = this._ensureWorker();
    return worker ? this._streamTo(worker) : inlineStream();
  }

  /** Messages whose result has not come back yet. */
  get pendingCount(): number {
    return this._pending.size;
  }

  dispose(): void {
    clearTimeout(this._idleTimer);
    const worker = this._worker;
    this._worker = undefined;
    this._failAll(new Error('The connection closed while a message was being parsed.'));
    void worker?.terminate();
  }

  private _streamTo(worker: Worker): StreamingJson {
    clearTimeout(this._idleTimer);
    const id = this._nextId++;
    let total = 0;
    return {
      push: (bytes) => {
        total += bytes.length;
        // Hand the memory over: a piece that shares its buffer (a slice of a stream chunk) is copied
        // into one of its own first, so exactly its bytes move and nothing else is detached.
        let own = bytes;
        if (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength) {
          own = Buffer.allocUnsafeSlow(bytes.length);
          bytes.copy(own);
        }
        try {
          worker.postMessage({ op: 'piece', id, bytes: own }, [own.buffer as ArrayBuffer]);
        } catch {
          worker.postMessage({ op: 'piece', id, bytes: own }); // a buffer Node will not let go of is copied
        }
      },
      end: () => new Promise((resolve, reject) => {
        this._pending.set(id, { resolve, reject });
        worker.postMessage({ op: 'end', id, budget: Math.ceil(total / BYTES_PER_CONTAINER) });
      }),
      abort: () => worker.postMessage({ op: 'abort', id }),
    };
  }

  private _ensureWorker(): Worker | undefined {
    if (this._worker || this._unavailable) return this._worker;
    let worker: Worker;
    try {
      worker = new Worker(WORKER_SOURCE, { eval: true });
    } catch {
      this._unavailable = true;
      return undefined;
    }
    worker.unref();
    worker.on('message', (reply: Reply) => this._onReply(reply));
    worker.on('error', (err) => this._onWorkerGone(worker, err));
    worker.on('exit', () => this._onWorkerGone(worker, new Error('The JSON parser thread stopped.')));
    this._worker = worker;
    return worker;
  }

  private _onReply(reply: Reply): void {
    const pending = this._pending.get(reply.id);
    if (!pending) return;
    this._pending.delete(reply.id);
    if (reply.error !== undefined) pending.reject(new SyntaxError(reply.error));
    else if (reply.text !== undefined) parseInto(reply.text, pending);
    else pending.resolve(reply.value);
    if (this._pending.size === 0) this._scheduleIdleStop();
  }

  private _onWorkerGone(worker: Worker, error: Error): void {
    if (this._worker !== worker) return;
    this._worker = undefined;
    this._failAll(error);
  }

  private _failAll(error: Error): void {
    for (const { reject } of this._pending.values()) reject(error);
    this._pending.clear();
  }

  private _scheduleIdleStop(): void {
    clearTimeout(this._idleTimer);
    this._idleTimer = setTimeout(() => {
      const worker = this._worker;
      this._worker = undefined;
      void worker?.terminate();
    }, PARSER_IDLE_MS);
    this._idleTimer.unref();
  }
}

function parseInto(text: string, settle: { resolve: (value: unknown) => void; reject: (error: Error) => void }): void {
  try {
    settle.resolve(JSON.parse(text));
  } catch (err) {
    settle.reject(err instanceof Error ? err : new SyntaxError(String(err)));
  }
}

/** Without a worker: the pieces are kept and parsed at the end, as a small message would be. */
function inlineStream(): StreamingJson {
  let pieces: Buffer[] = [];
  return {
    push: (bytes) => void pieces.push(bytes),
    end: () => new Promise((resolve, reject) => parseInto(Buffer.concat(pieces).toString('utf8'), { resolve, reject })),
    abort: () => void (pieces = []),
  };
}
