// Whole tool results kept for the model to read on after a cut head: behind unguessable handles,
// in this process only (a VS Code window, a gateway), least recently used first out under a total
// size cap. A gateway keeps the results of all its clients in one store, each bound to its client.
import { randomBytes } from 'node:crypto';

/** The most characters all kept results may hold together (UTF-16: twice this in bytes). */
export const STORE_MAX_CHARS = 64 * 1024 * 1024;
export const STORE_MAX_RESULTS = 200;
/** A kept result's text is held in chunks of about this size, however many pieces it came in. */
const CHUNK_CHARS = 1 << 20;
/** Handles forgotten to make room, remembered (up to this many) to say "expired" rather than "unknown". */
const REMEMBERED_EXPIRED = 1_000;

const HANDLE = /^mcpres_[A-Za-z0-9_-]{24}$/;

/** One kept result: its text in chunks, with where each chunk starts. */
export class KeptText {
  private readonly _starts: number[] = [];
  readonly length: number;

  constructor(
    private readonly _chunks: readonly string[],
    readonly server: string,
    readonly tool: string,
    /** Content blocks left out of the model's answer (images, audio, binary resources), by their index in the result. */
    readonly parts: ReadonlyMap<number, unknown> = new Map(),
    /** The gateway client whose call produced it; only that client may read it. */
    readonly client?: string,
    partChars = 0,
  ) {
    let at = 0;
    for (const c of _chunks) {
      this._starts.push(at);
      at += c.length;
    }
    this.length = at;
    this.size = at + partChars;
  }
  /** What it holds in characters, its parts included: what the store's cap counts. */
  readonly size: number;

  /** Units [start, end) as one string (end clamped to the length). */
  slice(start: number, end: number): string {
    const to = Math.min(end, this.length);
    if (start >= to) return '';
    const out: string[] = [];
    for (let i = this._chunkAt(start); i < this._chunks.length && this._starts[i] < to; i++) {
      const from = Math.max(0, start - this._starts[i]);
      out.push(this._chunks[i].slice(from, Math.min(this._chunks[i].length, to - this._starts[i])));
    }
    return out.join('');
  }

  /** How many line breaks lie in [from, to), counted in place (no copy of the range). */
  newlines(from: number, to: number): number {
    let count = 0;
    for (let i = this._chunkAt(from); i < this._chunks.length && this._starts[i] < to; i++) {
      const chunk = this._chunks[i];
      const end = Math.min(chunk.length, to - this._starts[i]);
      for (let at = chunk.indexOf('\n', Math.max(0, from - this._starts[i])); at >= 0 && at < end; at = chunk.indexOf('\n', at + 1)) count++;
    }
    return count;
  }

  /** The chunks, each with its start: for a search that walks the text once. */
  *chunks(): Generator<{ readonly start: number; readonly text: string }> {
    for (let i = 0; i < this._chunks.length; i++) yield { start: this._starts[i], text: this._chunks[i] };
  }

  private _chunkAt(offset: number): number {
    let lo = 0;
    let hi = this._chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this._starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** Who kept a result: the tool that produced it and, on a gateway, the client that called it. */
export interface ResultOwner {
  readonly server: string;
  readonly tool: string;
  readonly client?: string;
}

export type Lookup = { readonly ok: true; readonly kept: KeptText } | { readonly ok: false; readonly error: string };

/** The results of one window, least recently used first out. */
export class ResultStore {
  private readonly _kept = new Map<string, KeptText>();
  /** Forgotten handles, with the client each belonged to. */
  private readonly _expired = new Map<string, string | undefined>();
  private _chars = 0;

  constructor(
    private readonly _limits: { readonly maxChars: number; readonly maxResults: number } = { maxChars: STORE_MAX_CHARS, maxResults: STORE_MAX_RESULTS },
    /** Where a handle is valid, in the words of the answer to an unknown one. */
    private readonly _scope: { readonly here: string; readonly valid: string } = { here: 'in this window', valid: 'in the VS Code window whose call produced it' },
  ) {}

  /**
   * Keeps a result (its text and the parts left out of it); its handle, or undefined when it alone
   * is larger than the store may hold. Older results go first to make room, whichever client kept them.
   */
  put(pieces: readonly string[], owner: ResultOwner, parts?: { readonly blocks: ReadonlyMap<number, unknown>; readonly chars: number }): string | undefined {
    const kept = new KeptText(chunked(pieces), owner.server, owner.tool, parts?.blocks, owner.client, parts?.chars);
    if (kept.size > this._limits.maxChars) return undefined;
    const handle = `mcpres_${randomBytes(18).toString('base64url')}`;
    this._kept.set(handle, kept);
    this._chars += kept.size;
    for (const [old, text] of this._kept) {
      if (this._chars <= this._limits.maxChars && this._kept.size <= this._limits.maxResults) break;
      this._kept.delete(old);
      this._chars -= text.size;
      this._remember(old, text.client);
    }
    return handle;
  }

  /**
   * The result of a handle (now the most recently used), or the reason there is none, in words a
   * model can act on. Another client's handle is answered as one never issued: a client learns
   * nothing of what others keep.
   */
  get(handle: unknown, client?: string): Lookup {
    if (typeof handle !== 'string' || !HANDLE.test(handle)) {
      return { ok: false, error: 'Not read: "handle" must be the handle a cut result named (mcpres_ and 24 letters, digits, - or _), copied exactly.' };
    }
    const found = this._kept.get(handle);
    const kept = found?.client === client ? found : undefined;
    if (!kept) {
      return this._expired.has(handle) && this._expired.get(handle) === client
        ? { ok: false, error: `Not read: the result "${handle}" has expired (newer results took its place). Call the tool again if you still need it.` }
        : { ok: false, error: `Not read: there is no result "${handle}" ${this._scope.here}. A handle is valid only ${this._scope.valid}, until newer results take its place; call the tool again.` };
    }
    this._kept.delete(handle);
    this._kept.set(handle, kept);
    return { ok: true, kept };
  }

  get size(): { readonly results: number; readonly chars: number } {
    return { results: this._kept.size, chars: this._chars };
  }

  private _remember(handle: string, client: string | undefined): void {
    this._expired.set(handle, client);
    if (this._expired.size > REMEMBERED_EXPIRED) this._expired.delete(this._expired.keys().next().value as string);
  }
}

/** Pieces merged into chunks of about CHUNK_CHARS: a million tiny pieces become a few strings. */
function chunked(pieces: readonly string[]): string[] {
  const out: string[] = [];
  let run: string[] = [];
  let runChars = 0;
  const flush = () => {
    if (run.length) out.push(run.join(''));
    run = [];
    runChars = 0;
  };
  for (const piece of pieces) {
    if (piece.length >= CHUNK_CHARS) {
      flush();
      out.push(piece);
      continue;
    }
    run.push(piece);
    runChars += piece.length;
    if (runChars >= CHUNK_CHARS) flush();
  }
  flush();
  return out;
}
