import type { Writable } from 'node:stream';

/** Writes `text`; the stream's own answer (false: wait for 'drain'). */
export type TurnWrites = (text: string) => boolean;

/**
 * Writes to a pipe in at most two system calls a turn of the event loop: the first message of a
 * turn goes out at once (a lone answer waits for nothing, not for the turn's other callbacks, an
 * audit append among them); the rest of that turn are held (corked) and go out together in one
 * write once the turn's I/O is done (64 calls in flight answered together: two writes, not 64).
 * A function, not a class: dist/extension.js and a lazy bundle may both hold this file (esbuild.mjs).
 */
export function turnWrites(stream: Pick<Writable, 'write' | 'cork' | 'uncork'>): TurnWrites {
  let wrote = false;
  let corked = false;
  const endTurn = () => {
    wrote = false;
    if (!corked) return;
    corked = false;
    stream.uncork();
  };
  return (text) => {
    if (!wrote) {
      wrote = true;
      setImmediate(endTurn);
    } else if (!corked) {
      corked = true;
      stream.cork();
    }
    return stream.write(text);
  };
}
