/** What the framer hands back, in stream order, for each newline-terminated frame. */
export type Frame =
  | { readonly kind: 'line'; readonly text: string }
  /** A frame longer than the cap: its bytes were dropped; `head` is its first bytes, to find the request id. */
  | { readonly kind: 'oversize'; readonly bytes: number; readonly head: string }
  /** The next bytes of a frame that reached `largeFrameBytes`: they are handed on as they arrive. */
  | { readonly kind: 'large-piece'; readonly bytes: Buffer }
  /** The large frame whose pieces came before is complete: `bytes` long, starting with `head`. */
  | { readonly kind: 'large-end'; readonly bytes: number; readonly head: string }
  /** The large frame whose pieces came before went over the cap: forget them (an `oversize` follows). */
  | { readonly kind: 'large-abort' };

const NEWLINE = 0x0a;
const HEAD_BYTES = 256;

/**
 * Splits a byte stream into newline-delimited frames in linear time: each chunk is scanned once
 * and a frame's pieces are joined once (the SDK's buffer re-concatenates and re-scans on every
 * chunk, which made a 50 MiB result take ~30 s). A frame over `maxFrameBytes` is dropped as it
 * streams past, so memory stays bounded and the stream resynchronises at the next newline.
 * A frame that reaches `largeFrameBytes` is not kept at all: its bytes come back as pieces while
 * it streams in (so they can be decoded elsewhere), then a `large-end`.
 */
export class LineFramer {
  private _pieces: Buffer[] = [];
  private _pending = 0;
  private _head: Buffer | undefined;
  private _large = false;
  private _dropping: { bytes: number; head: string } | undefined;

  constructor(
    private readonly _maxFrameBytes: number,
    private readonly _largeFrameBytes = Number.POSITIVE_INFINITY,
  ) {}

  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        this._keep(chunk.subarray(start), frames);
        return frames;
      }
      this._keep(chunk.subarray(start, nl), frames);
      frames.push(this._takeFrame());
      start = nl + 1;
    }
  }

  /** Bytes held for the frame in progress (0 when between frames; a large frame holds none). */
  get pendingBytes(): number {
    return this._large ? 0 : this._pending;
  }

  private _keep(piece: Buffer, frames: Frame[]): void {
    if (piece.length === 0) return;
    if (this._dropping) {
      this._dropping.bytes += piece.length;
      return;
    }
    if (this._pending + piece.length > this._maxFrameBytes) {
      if (this._large) frames.push({ kind: 'large-abort' });
      const head = this._head ?? headBytesOf([...this._pieces, piece]);
      this._dropping = { bytes: this._pending + piece.length, head: head.toString('utf8') };
      this._pieces = [];
      this._pending = 0;
      this._large = false;
      return;
    }
    this._pending += piece.length;
    if (this._large) {
      frames.push({ kind: 'large-piece', bytes: piece });
    } else if (this._pending >= this._largeFrameBytes) {
      // Each piece goes on as it is: joining the 16 MiB kept so far would be one long task.
      this._large = true;
      this._pieces.push(piece);
      this._head = headBytesOf(this._pieces); // a copy: the pieces go to another thread
      for (const bytes of this._pieces) frames.push({ kind: 'large-piece', bytes });
      this._pieces = [];
    } else {
      this._pieces.push(piece);
    }
  }

  private _takeFrame(): Frame {
    const dropping = this._dropping;
    const large = this._large;
    const head = this._head;
    const bytes = this._pending;
    const pieces = this._pieces;
    this._dropping = undefined;
    this._large = false;
    this._pieces = [];
    this._pending = 0;
    this._head = undefined;
    if (dropping) return { kind: 'oversize', bytes: dropping.bytes, head: dropping.head };
    if (large) return { kind: 'large-end', bytes, head: head?.toString('utf8') ?? '' };
    const buf = pieces.length === 1 ? pieces[0] : Buffer.concat(pieces, bytes);
    let text = buf.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    return { kind: 'line', text };
  }
}

/** A copy of the first HEAD_BYTES of the pieces, joining no more of them than it needs. */
function headBytesOf(pieces: readonly Buffer[]): Buffer {
  const needed: Buffer[] = [];
  let length = 0;
  for (const piece of pieces) {
    if (length >= HEAD_BYTES) break;
    needed.push(piece.subarray(0, HEAD_BYTES - length));
    length += needed[needed.length - 1].length;
  }
  return Buffer.concat(needed, length);
}
