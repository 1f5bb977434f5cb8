import type { Writable } from 'node:stream';

/**
 * Writes to a pipe in at most two system calls a turn of the event loop: the first message of a
 * turn goes out at once (a lone answer waits for nothing, not for the turn's other callbacks, an
 * audit append among them); the rest of that turn are held (corked) and go out together in one
 * write once the turn's I/O is done (64 calls in flight answered together: two writes, not 64).
 */
export class TurnWrites {
  private _wrote = false;
  private _corked = false;

  constructor(private readonly _stream: Pick<Writable, 'write' | 'cork' | 'uncork'>) {}

  /** Writes `text`; the stream's own answer (false: wait for 'drain'). */
  write(text: string): boolean {
    const stream = this._stream;
    if (!this._wrote) {
      this._wrote = true;
      setImmediate(this._endTurn);
    } else if (!this._corked) {
      this._corked = true;
      stream.cork();
    }
    return stream.write(text);
  }

  private readonly _endTurn = () => {
    this._wrote = false;
    if (!this._corked) return;
    this._corked = false;
    this._stream.uncork();
  };
}
