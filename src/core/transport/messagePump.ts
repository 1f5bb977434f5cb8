import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { Frame } from './lineFramer';
import { oversizeSentence, responseIdIn } from './boundedFetch';

/** A line this long is parsed in a macrotask of its own, apart from the join and decode before it. */
export const OWN_TASK_PARSE_CHARS = 1024 * 1024;

/** A frame waiting its turn, or a large message whose parse is under way (on a worker thread). */
export type Queued = Extract<Frame, { kind: 'line' | 'oversize' }> | { readonly kind: 'parsing'; readonly message: Promise<unknown>; readonly head: string };

/** Where the pump delivers, and how it waits a macrotask (setImmediate; tests pass their own). */
export interface PumpSink {
  /**
   * Delivers one message; true when it was handled in full now, with no handler of it left to run
   * later (progress on a token of our own, taken off before the SDK), so what follows it needs no
   * macrotask.
   */
  message(message: JSONRPCMessage): boolean | void;
  /** Things worth a warning in the server's log: non-JSON stdout, dropped oversize messages. */
  warning(text: string): void;
  /** A message handler threw. */
  error(err: Error): void;
  readonly later?: (run: () => void) => void;
}

/**
 * Delivers the frames of a stdio stream strictly in arrival order. After a notification the rest
 * waits one macrotask (the SDK runs notification handlers a microtask late, so without it the
 * last progress of a call arrived after its result), unless the sink handled it in full at once
 * (a wait after each answer's progress let 64 pipelined answers out one a turn); a line over 1 MiB waits one before its
 * parse, so joining and parsing a 15 MiB line are two ~15-30 ms tasks instead of one; a very
 * large message holds the queue until its off-thread parse is done. An oversize frame becomes
 * an error response for its request alone. Pure: no process, no stream; tested with frames.
 */
export class MessagePump {
  private readonly _queue: Queued[] = [];
  private _pumping = false;
  private _stopped = false;
  /** The large line that already waited a task before its parse. */
  private _yieldedFor: Queued | undefined;
  private readonly _later: (run: () => void) => void;

  constructor(private readonly _sink: PumpSink, private readonly _maxMessageBytes: number) {
    this._later = _sink.later ?? ((run) => setImmediate(run));
  }

  /** Nothing queued and nothing being delivered. */
  get idle(): boolean {
    return this._queue.length === 0 && !this._pumping;
  }

  /**
   * Queues the frames of one chunk (in stream order), then delivers what can go now. A chunk's
   * frames are queued together so a notification followed by a result in the same chunk still
   * gets its macrotask before the result.
   */
  push(items: readonly Queued[]): void {
    for (const item of items) this._queue.push(item);
    this._pump();
  }

  /** After this, a failed large parse is no longer worth a warning (the session is gone). */
  stop(): void {
    this._stopped = true;
  }

  private _pump(): void {
    if (this._pumping) return;
    this._pumping = true;
    let resumeLater = false;
    try {
      while (this._queue.length > 0) {
        const frame = this._queue.shift()!;
        if (frame.kind === 'parsing') {
          resumeLater = true;
          const head = () => frame.head.slice(0, 200);
          void frame.message.then(
            (message) => this._resume(this._dispatch(message, head)),
            () => {
              if (!this._stopped) this._sink.warning(`Ignored a stdout line that is not JSON-RPC: ${head()}`);
              this._resume('other');
            },
          );
          return;
        }
        if (frame.kind === 'line' && frame.text.length >= OWN_TASK_PARSE_CHARS && this._yieldedFor !== frame) {
          // Joining and decoding it took this task; parsing it gets one of its own, a whole turn of
          // the event loop later. One setImmediate from the stream's read callback would run it in
          // the same turn, before any timer or I/O: one long block, not two short ones.
          this._yieldedFor = frame;
          this._queue.unshift(frame);
          resumeLater = true;
          this._later(() => this._later(() => this._resume('other')));
          return;
        }
        if (this._deliver(frame) === 'notification' && this._queue.length > 0) {
          resumeLater = true;
          this._later(() => this._resume('other'));
          return;
        }
      }
    } finally {
      if (!resumeLater) this._pumping = false;
    }
  }

  private _resume(delivered: 'notification' | 'other'): void {
    if (delivered === 'notification' && this._queue.length > 0) {
      this._later(() => this._resume('other'));
      return;
    }
    this._pumping = false;
    this._pump();
  }

  private _deliver(frame: Extract<Frame, { kind: 'line' | 'oversize' }>): 'notification' | 'other' {
    if (frame.kind === 'oversize') {
      this._failOversize(frame);
      return 'other';
    }
    const text = frame.text.trim();
    if (!text) return 'other';
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this._sink.warning(`Ignored a stdout line that is not JSON-RPC: ${text.slice(0, 200)}`);
      return 'other';
    }
    return this._dispatch(message, () => text.slice(0, 200));
  }

  private _dispatch(message: unknown, head: () => string): 'notification' | 'other' {
    if (!isJsonRpc(message)) {
      this._sink.warning(`Ignored a stdout line that is not JSON-RPC: ${head()}`);
      return 'other';
    }
    let handledNow = false;
    try {
      handledNow = this._sink.message(message) === true;
    } catch (err) {
      this._sink.error(err instanceof Error ? err : new Error(String(err)));
    }
    return 'method' in message && !('id' in message) && !handledNow ? 'notification' : 'other';
  }

  /** Turns a dropped response into an error for its request alone; the session goes on. */
  private _failOversize(frame: Extract<Frame, { kind: 'oversize' }>): void {
    const what = oversizeSentence(frame.bytes, this._maxMessageBytes, true);
    this._sink.warning(what);
    const id = responseIdIn(frame.head);
    if (id === undefined) return;
    const error: JSONRPCMessage = { jsonrpc: '2.0', id, error: { code: -32000, message: what } };
    this._sink.message(error);
  }
}

function isJsonRpc(value: unknown): value is JSONRPCMessage {
  return typeof value === 'object' && value !== null && (value as { jsonrpc?: unknown }).jsonrpc === '2.0';
}
