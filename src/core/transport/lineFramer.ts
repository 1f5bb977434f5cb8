/** What the framer hands back for each newline-terminated frame. */
export type Frame =
  | { readonly kind: 'line'; readonly text: string }
  /** A frame longer than the cap: its bytes were dropped; `head` is its first bytes, to find the request id. */
  | { readonly kind: 'oversize'; readonly bytes: number; readonly head: string };

const NEWLINE = 0x0a;
const HEAD_BYTES = 256;

/**
 * Splits a byte stream into newline-delimited frames in linear time: each chunk is scanned once
 * and a frame's pieces are joined once (the SDK's buffer re-concatenates and re-scans on every
 * chunk, which made a 50 MiB result take ~30 s). A frame over `maxFrameBytes` is dropped as it
 * streams past, so memory stays bounded and the stream resynchronises at the next newline.
 */
export class LineFramer {
  private _pieces: Buffer[] = [];
  private _pending = 0;
  private _dropping: { bytes: number; head: string } | undefined;

  constructor(private readonly _maxFrameBytes: number) {}

  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        this._keep(chunk.subarray(start));
        return frames;
      }
      this._keep(chunk.subarray(start, nl));
      frames.push(this._takeFrame());
      start = nl + 1;
    }
  }

  /** Bytes held for the frame in progress (0 when between frames). */
  get pendingBytes(): number {
    return this._pending;
  }

  private _keep(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this._dropping) {
      this._dropping.bytes += piece.length;
      return;
    }
    if (this._pending + piece.length > this._maxFrameBytes) {
      const head = Buffer.concat([...this._pieces, piece.subarray(0, HEAD_BYTES)]).subarray(0, HEAD_BYTES);
      this._dropping = { bytes: this._pending + piece.length, head: head.toString('utf8') };
      this._pieces = [];
      this._pending = 0;
      return;
    }
    this._pieces.push(piece);
    this._pending += piece.length;
  }

  private _takeFrame(): Frame {
    if (this._dropping) {
      const { bytes, head } = this._dropping;
      this._dropping = undefined;
      return { kind: 'oversize', bytes, head };
    }
    const buf = this._pieces.length === 1 ? this._pieces[0] : Buffer.concat(this._pieces, this._pending);
    this._pieces = [];
    this._pending = 0;
    let text = buf.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    return { kind: 'line', text };
  }
}
