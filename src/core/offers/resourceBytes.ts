import type { ResourcePart } from './offerTypes';

/** How much text is encoded in one go: ~1-3 ms here, the event loop free between. */
const ENCODE_SLICE_CHARS = 1 << 20;

/**
 * A read's parts as the bytes of one document (text parts joined by a newline, UTF-8): what an
 * editor opens. A long text is encoded slice by slice into one buffer, yielding between slices:
 * `TextEncoder.encode` of 50 MiB at once held the event loop ~80 ms (BENCHMARKS.md case 11).
 */
export async function documentBytes(parts: readonly ResourcePart[]): Promise<Uint8Array> {
  const slices: string[] = [];
  for (const [i, part] of parts.entries()) {
    if (part.kind !== 'text') continue;
    if (i > 0 && slices.length > 0) slices.push('\n');
    for (const piece of part.pieces ?? [part.text]) {
      for (let at = 0; at < piece.length; ) {
        let end = Math.min(piece.length, at + ENCODE_SLICE_CHARS);
        // A surrogate pair is encoded whole: cut between its halves, each would become U+FFFD.
        if (end < piece.length && isHighSurrogate(piece.charCodeAt(end - 1))) end--;
        slices.push(at === 0 && end === piece.length ? piece : piece.slice(at, end));
        at = end;
      }
    }
  }
  let total = 0;
  for (const [i, slice] of slices.entries()) {
    if (i > 0 && slice.length > 1) await new Promise<void>((resolve) => setImmediate(resolve));
    total += Buffer.byteLength(slice, 'utf8');
  }
  // Not zero-filled (50 MiB of zeros is a long task of its own): every byte is written below, the
  // total being counted from the same slices.
  const bytes = Buffer.allocUnsafe(total);
  const encoder = new TextEncoder();
  let offset = 0;
  for (const [i, slice] of slices.entries()) {
    if (i > 0 && slice.length > 1) await new Promise<void>((resolve) => setImmediate(resolve));
    offset += encoder.encodeInto(slice, bytes.subarray(offset)).written;
  }
  return offset === total ? bytes : bytes.subarray(0, offset);
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
