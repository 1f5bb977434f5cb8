import * as fs from 'node:fs/promises';

// A long result travels as pieces (CallSink.end): its text is never joined to anything, since
// joining, prefixing or encoding 50 MiB at once copies all of it in one task (~30-40 ms here,
// more on a busy machine) and the extension host would stop for that long.

/**
 * Appends the pieces in order: short ones joined into one append, a long one in slices of
 * `sliceChars`, yielding to the event loop after each slice. A short summary is one append, at once.
 */
export async function appendInSlices(pieces: readonly string[], append: (text: string) => void, sliceChars: number): Promise<void> {
  let pending = '';
  for (const text of pieces) {
    if (pending.length + text.length <= sliceChars) {
      pending += text;
      continue;
    }
    if (pending) append(pending);
    pending = '';
    for (let at = 0; at < text.length; at += sliceChars) {
      append(text.slice(at, at + sliceChars));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (pending) append(pending);
}

/** The first `chars` characters of the pieces, still in pieces. */
export function headOf(pieces: readonly string[], chars: number): string[] {
  const head: string[] = [];
  for (const piece of pieces) {
    if (chars <= 0) break;
    head.push(piece.length <= chars ? piece : piece.slice(0, chars));
    chars -= piece.length;
  }
  return head;
}

export const totalLength = (pieces: readonly string[]): number => pieces.reduce((sum, piece) => sum + piece.length, 0);

/**
 * How a sink shows a call's summary (vscode/calls/outputSink.ts; the bench's case 4 does the same): whole
 * when it fits `cap`; otherwise all of it saved first, then its first `cap` characters. Says how
 * many were not shown and where they went, for the sink to tell the user.
 */
export async function showSummary<Saved>(
  callId: string,
  summary: readonly string[],
  sink: { readonly cap: number; readonly sliceChars: number; append(text: string): void; save(pieces: readonly string[]): Promise<Saved> },
): Promise<{ readonly hidden: number; readonly saved: Saved } | undefined> {
  const length = totalLength(summary);
  if (length <= sink.cap) {
    await appendInSlices([`[${callId}] `, ...summary, '\n'], (text) => sink.append(text), sink.sliceChars);
    return undefined;
  }
  const saved = await sink.save(summary);
  await appendInSlices([`[${callId}] `, ...headOf(summary, sink.cap), '\n'], (text) => sink.append(text), sink.sliceChars);
  return { hidden: length - sink.cap, saved };
}

const FILE_SLICE_CHARS = 1 << 20;

/**
 * Writes the pieces to a new file as UTF-8, 1 MiB of characters at a time, never cutting a
 * surrogate pair, and stops before `maxBytes` (a results folder's budget). Says what it wrote.
 */
export async function writeTextFile(file: string, pieces: readonly string[], maxBytes = Infinity): Promise<{ readonly bytes: number; readonly chars: number }> {
  const handle = await fs.open(file, 'w');
  let [bytes, chars] = [0, 0];
  try {
    for (const text of pieces) {
      for (let at = 0; at < text.length; ) {
        let end = sliceEnd(text, at + FILE_SLICE_CHARS);
        let slice = Buffer.from(text.slice(at, end));
        const full = bytes + slice.length > maxBytes;
        // What still fits: a UTF-16 code unit is at most 3 bytes of UTF-8.
        if (full) slice = Buffer.from(text.slice(at, (end = sliceEnd(text, at + Math.floor((maxBytes - bytes) / 3)))));
        await handle.write(slice);
        [bytes, chars, at] = [bytes + slice.length, chars + end - at, end];
        if (full) return { bytes, chars };
      }
    }
  } finally {
    await handle.close();
  }
  return { bytes, chars };
}

/** `end`, or the text's length, moved back one when it would cut a surrogate pair in two (written as two U+FFFD). */
function sliceEnd(text: string, end: number): number {
  if (end >= text.length) return text.length;
  return isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
