import { Worker } from 'node:worker_threads';
import type { Disposable } from '../events';

/** A worker with nothing to do ends after this long; the next large message starts another. */
export const PARSER_IDLE_MS = 30_000;
/** "Mostly long strings": at most one object or array per this many bytes. */
const BYTES_PER_CONTAINER = 64 * 1024;

/** A string longer than this comes back in pieces of about this many characters (textPieces.ts). */
export const LONG_STRING_CHARS = 1 << 20;

// The worker's whole program (eval'd, so it needs no file of its own next to any bundle). It
// decodes each message's pieces as they stream in, parses it at the end, and answers
// { id, value, longs } when it is mostly long strings (a text result: cheap to copy back), { id, text }
// when it is many small objects (a long tool list: V8 copies those back ~2x slower than
// JSON.parse builds them, so the main thread parses it again), or { id, error }. In a value, each
// string over LONG_STRING_CHARS is left out (''), listed in `longs` with where it was and how many
// pieces it has, and its pieces (cut after a newline where there is one, never inside a CRLF or a
// surrogate pair) are sent one per { op: 'next' }: each its own short task on the main thread.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { StringDecoder } = require('node:string_decoder');
const LONG = ${LONG_STRING_CHARS};
const open = new Map();
const queued = new Map();
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
const cutEnd = (s, at) => {
  let end = Math.min(s.length, at + LONG);
  if (end === s.length) return end;
  const nl = s.lastIndexOf('\\n', end - 1);
  if (nl > at) return nl + 1;
  const c = s.charCodeAt(end - 1);
  return c === 13 || (c >= 0xd800 && c <= 0xdbff) ? end - 1 : end;
};
const cutLong = (value, pieces) => {
  const longs = [];
  const stack = [[value, []]];
  while (stack.length) {
    const [v, path] = stack.pop();
    for (const key in v) {
      const x = v[key];
      if (typeof x === 'string' && x.length > LONG) {
        let count = 0;
        for (let at = 0; at < x.length; count++) {
          const end = cutEnd(x, at);
          pieces.push(x.slice(at, end));
          at = end;
        }
        v[key] = '';
        longs.push({ path: [...path, key], count });
      } else if (x !== null && typeof x === 'object') stack.push([x, [...path, key]]);
    }
  }
  return longs;
};
parentPort.on('message', ({ op, id, bytes, budget }) => {
  if (op === 'piece') {
    let m = open.get(id);
    if (!m) open.set(id, (m = { decoder: new StringDecoder('utf8'), parts: [] }));
    m.parts.push(m.decoder.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
    return;
  }
  if (op === 'next') {
    const pieces = queued.get(id) || [];
    parentPort.postMessage({ id, piece: pieces.shift() ?? '' });
    if (pieces.length === 0) queued.delete(id);
    return;
  }
  if (op === 'drop') return void queued.delete(id);
  const m = open.get(id);
  open.delete(id);
  if (op !== 'end') return;
  const text = m ? m.parts.join('') + m.decoder.end() : '';
  try {
    const value = JSON.parse(text);
    if (!fewContainers(value, budget)) return void parentPort.postMessage({ id, text });
    const pieces = [];
    const longs = value !== null && typeof value === 'object' ? cutLong(value, pieces) : [];
    if (pieces.length > 0) queued.set(id, pieces);
    parentPort.postMessage({ id, value, longs });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});`;

/** Where a long string was left out of a value, and how many pieces it comes back in. */
type Long = { path: string[]; count: number };
type Reply = { id: number; value?: unknown; longs?: Long[]; text?: string; error?: string; piece?: string };
type Settle = { resolve: (value: unknown) => void; reject: (error: Error) => void };

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
 * than 50 ms). The main thread pays ~0.6 ms per MiB to copy the value back, a long string a
 * piece per task (textPieces.ts), so no copy is longer than ~1 ms. The worker starts with the
 * first large message, never keeps the process alive, and ends after `PARSER_IDLE_MS` without
 * work. Where a worker cannot start, messages are joined and parsed inline.
 */
export class OffThreadJsonParser implements Disposable {
  /**
   * @param _setInPieces puts a long string back into the value from its pieces (textPieces.ts's
   * setInPieces: passed in, since this module is bundled apart from the code that reads them).
   */
  constructor(private readonly _setInPieces: (container: object, key: string, pieces: readonly string[]) => void) {}

  private _worker: Worker | undefined;
  private _unavailable = false;
  private _nextId = 0;
  private readonly _pending = new Map<number, Settle>();
  /** The message whose long strings are being fetched piece by piece: who waits for the next piece. */
  private readonly _pieceFor = new Map<number, Settle>();
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
    if (reply.piece !== undefined) {
      const next = this._pieceFor.get(reply.id);
      this._pieceFor.delete(reply.id);
      next?.resolve(reply.piece);
      return;
    }
    const pending = this._pending.get(reply.id);
    if (!pending) return;
    if (reply.longs?.length) {
      void this._fetchLongs(reply.id, reply.value, reply.longs).then(
        () => this._settle(reply.id, () => pending.resolve(reply.value)),
        (err: Error) => {
          this._worker?.postMessage({ op: 'drop', id: reply.id }); // the pieces not fetched yet
          this._settle(reply.id, () => pending.reject(err));
        },
      );
      return;
    }
    this._settle(reply.id, () => {
      if (reply.error !== undefined) pending.reject(new SyntaxError(reply.error));
      else if (reply.text !== undefined) parseInto(reply.text, pending);
      else pending.resolve(reply.value);
    });
  }

  private _settle(id: number, then: () => void): void {
    if (!this._pending.delete(id)) return; // failed already: the worker stopped, or dispose
    then();
    if (this._pending.size === 0) this._scheduleIdleStop();
  }

  /** Asks for the pieces of the value's long strings one at a time, and puts each string back in its place. */
  private async _fetchLongs(id: number, value: unknown, longs: readonly Long[]): Promise<void> {
    for (const { path, count } of longs) {
      const pieces: string[] = [];
      for (let i = 0; i < count; i++) pieces.push(await this._nextPiece(id));
      const key = path[path.length - 1];
      let container = value as Record<string, unknown>;
      for (const step of path.slice(0, -1)) container = container[step] as Record<string, unknown>;
      this._setInPieces(container, key, pieces);
    }
  }

  private _nextPiece(id: number): Promise<string> {
    const worker = this._worker;
    if (!worker || !this._pending.has(id)) return Promise.reject(new Error('The connection closed while a message was being parsed.'));
    return new Promise<unknown>((resolve, reject) => {
      this._pieceFor.set(id, { resolve, reject });
      // Asked from a task of its own: Node delivers a port's messages in a loop that also takes the
      // ones arriving meanwhile, so a piece asked for at once could land in the same task as the
      // last, and on a busy machine all 50 pieces of a 50 MiB result did (72-133 ms without a break).
      setImmediate(() => worker.postMessage({ op: 'next', id }));
    }) as Promise<string>;
  }

  private _onWorkerGone(worker: Worker, error: Error): void {
    if (this._worker !== worker) return;
    this._worker = undefined;
    this._failAll(error);
  }

  private _failAll(error: Error): void {
    const waiting = [...this._pending.values(), ...this._pieceFor.values()];
    this._pending.clear();
    this._pieceFor.clear();
    for (const { reject } of waiting) reject(error);
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

function parseInto(text: string, settle: Settle): void {
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
