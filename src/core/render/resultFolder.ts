import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { writeTextFile } from './longText';
import { inertNote, resultFileType } from './resultFileName';
import type { SavedFile } from './renderResult';

import type { ResultBudget } from './resultBudget';

export type { ResultBudget } from './resultBudget';
/** At most this many files, whatever their size: a flood of tiny files would slow every scan of the folder. */
export const MAX_RESULT_FILES = 1000;


/** A saved long text (`keptChars` of `totalChars` when the budget did not hold all of it), or why none of it was saved. */
export type SavedText = { readonly file: string; readonly keptChars: number; readonly totalChars: number } | { readonly leftOut: string };

export interface ResultFolderOptions {
  /**
   * `folder`: the folder is ours (the extension's storage): every file in it counts and the oldest
   * go first. `run`: the folder is the user's (the CLI's --files): only what this process saved
   * counts, and nothing is ever removed.
   */
  readonly owns: 'folder' | 'run';
  /** Why content was left out, naming the budget's setting: "the results folder is full (...)". */
  readonly fullWhy: (maxBytes: number) => string;
}

interface Entry {
  readonly name: string;
  readonly bytes: number;
  readonly mtimeMs: number;
}

/**
 * A folder of saved results (images, audio, blobs, long texts) held to a size, a file count and
 * an age. Before each save it makes room by removing the oldest files, never one of the saving
 * call's own (its output has just named them); what still does not fit is left out, and the
 * caller tells the user. Saves run one at a time, so the sums hold when calls save at once.
 */
export class ResultFolder {
  private _queue: Promise<unknown> = Promise.resolve();
  /** Files of the folder, oldest first; read again at the first save of each call (another window may have saved). */
  private _entries: Entry[] = [];
  private _readFor: string | undefined;
  /** Which call saved each file this process saved. */
  private readonly _callOf = new Map<string, string>();

  constructor(readonly dir: string, private readonly _budget: () => ResultBudget, private readonly _options: ResultFolderOptions) {}

  /** Saves binary content with a name from ours for its type (resultFileName.ts); says so when the type was made inert. */
  saveBinary(callId: string, data: Buffer, mimeType: string, nameHint: string): Promise<SavedFile> {
    const type = resultFileType(mimeType);
    return this._serial(async () => {
      const budget = this._budget();
      if (!(await this._makeRoom(callId, data.length, budget))) return { leftOut: this._options.fullWhy(budget.maxBytes) };
      const name = this._name(callId, nameHint, type.extension);
      try {
        await fs.writeFile(path.join(this.dir, name), data, { flag: 'wx' });
      } catch (err) {
        return { leftOut: cannotWrite(err) };
      }
      this._add(callId, name, data.length);
      const note = inertNote(type);
      return { file: path.join(this.dir, name), ...(note && { note }) };
    });
  }

  /** Saves a long text given in pieces (never joined); as much of it as the budget holds. */
  saveText(callId: string, pieces: readonly string[], nameHint: string): Promise<SavedText> {
    return this._serial(async () => {
      const budget = this._budget();
      const totalChars = pieces.reduce((sum, piece) => sum + piece.length, 0);
      // A character is a byte at least: room for that much first (or for what the budget holds), then what is free is the cap.
      await this._makeRoom(callId, Math.min(totalChars, budget.maxBytes), budget);
      const free = budget.maxBytes - this._used();
      if (free <= 0 || this._entries.length >= MAX_RESULT_FILES) return { leftOut: this._options.fullWhy(budget.maxBytes) };
      const name = this._name(callId, nameHint, 'txt');
      let written: { readonly bytes: number; readonly chars: number };
      try {
        written = await writeTextFile(path.join(this.dir, name), pieces, free);
      } catch (err) {
        return { leftOut: cannotWrite(err) };
      }
      this._add(callId, name, written.bytes);
      return { file: path.join(this.dir, name), keptChars: written.chars, totalChars };
    });
  }

  /** Removes what is too old, then the oldest until the folder fits its budget (at activation: the setting may have shrunk). */
  prune(): Promise<void> {
    return this._serial(async () => {
      await this._makeRoom(undefined, 0, this._budget());
    });
  }

  /**
   * Removes files past the age limit, then the oldest (never `callId`'s) until `bytes` more fit the
   * budget and one more file fits the count. Returns whether they fit; when even removing every
   * other file would not make room, none of them goes.
   */
  private async _makeRoom(callId: string | undefined, bytes: number, budget: ResultBudget): Promise<boolean> {
    const fits = (used: number, count: number) => used + bytes <= budget.maxBytes && count + (bytes > 0 ? 1 : 0) <= MAX_RESULT_FILES;
    if (this._options.owns === 'run') return fits(this._used(), this._entries.length);
    if (callId === undefined || this._readFor !== callId) await this._read();
    this._readFor = callId;
    const removable = this._entries.filter((e) => callId === undefined || this._callOf.get(e.name) !== callId);
    const tooOld = Date.now() - budget.maxAgeMs;
    await this._remove(removable.filter((e) => e.mtimeMs < tooOld));
    const others = removable.filter((e) => e.mtimeMs >= tooOld);
    let [used, count, oldest] = [this._used(), this._entries.length, 0];
    for (; !fits(used, count) && oldest < others.length; oldest++) [used, count] = [used - others[oldest].bytes, count - 1];
    if (!fits(used, count)) return false;
    await this._remove(others.slice(0, oldest));
    return true;
  }

  private async _read(): Promise<void> {
    if (this._options.owns === 'run') return; // only what this process saved, already listed
    let names: string[];
    try {
      names = await fs.readdir(this.dir);
    } catch {
      names = []; // no folder yet
    }
    const entries = await Promise.all(
      names.map(async (name) => {
        const stat = await fs.stat(path.join(this.dir, name)).catch(() => undefined);
        return stat?.isFile() ? { name, bytes: stat.size, mtimeMs: stat.mtimeMs } : undefined;
      }),
    );
    this._entries = entries.filter((e): e is Entry => e !== undefined).sort((a, b) => a.mtimeMs - b.mtimeMs);
    const present = new Set(names);
    for (const name of this._callOf.keys()) if (!present.has(name)) this._callOf.delete(name);
  }

  private async _remove(entries: readonly Entry[]): Promise<void> {
    for (const entry of entries) {
      await fs.rm(path.join(this.dir, entry.name), { force: true }).catch(() => undefined);
      this._callOf.delete(entry.name);
    }
    const gone = new Set(entries);
    this._entries = this._entries.filter((e) => !gone.has(e));
  }

  private _add(callId: string, name: string, bytes: number): void {
    this._entries.push({ name, bytes, mtimeMs: Date.now() });
    this._callOf.set(name, callId);
  }

  private _used(): number {
    return this._entries.reduce((sum, e) => sum + e.bytes, 0);
  }

  /** Named so they sort by time and say which call saved them; unique within a call. */
  private _name(callId: string, nameHint: string, extension: string): string {
    const safe = (text: string) => text.replace(/[^\w.-]+/g, '_').slice(0, 60);
    return `${Date.now()}-${safe(callId)}-${safe(nameHint)}.${extension}`;
  }

  private _serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this._queue.then(async () => {
      await fs.mkdir(this.dir, { recursive: true }).catch(() => undefined); // a folder that cannot be made fails the write, which says why
      return work();
    });
    this._queue = run.catch(() => undefined);
    return run;
  }
}

/** A disk that refused a save (full, read-only, no permission): the content is left out, the call goes on. */
function cannotWrite(err: unknown): string {
  return `it could not be written (${err instanceof Error ? err.message : String(err)})`;
}
