import { FileAuditLog } from './fileAuditLog';
import type { AuditRecord } from './ports';

/** Logs with lines not yet written; all written synchronously when the process exits, however it ends. */
const unwritten = new Set<BatchedAuditLog>();
let exitHooked = false;

/** At most one append in this time (ms): a burst of calls answered one by one (a tool that takes a while) does not pay an append a call. */
const WINDOW_MS = 10;

/**
 * The audit log of a long-running gateway: each record is taken when its call ends (in call
 * order) and made into its line (hash, escapes) when lines are appended: not on the way of the
 * answer. A record is appended at the end of its turn of the event loop, with the others of that
 * turn, unless lines were appended less than a window ago: then it waits for the window's end, with
 * the others that come meanwhile (a write a call cost a tenth of the gateway's work at 64 calls in
 * flight, and each answer of a slow tool comes alone). Nothing is dropped at exit: what is left is
 * written when the process exits (stdin closed, SIGINT/SIGTERM handled, process.exit, an uncaught
 * exception); only a process killed outright (SIGKILL) loses the lines of its last moment (at most
 * a window). A write that fails is thrown at the next call, as FileAuditLog throws it at its own:
 * an audit that cannot be written stops the calls.
 */
export class BatchedAuditLog extends FileAuditLog {
  /** Records are made into lines when written: the work is done after the answers went out. */
  private _records: AuditRecord[] = [];
  private _failed: Error | undefined;
  /** When lines were last appended (`performance.now()` ms). */
  private _wroteAt = -Infinity;

  constructor(file: string, private readonly _windowMs = WINDOW_MS) {
    super(file);
  }

  override append(record: AuditRecord): void {
    if (this._failed) throw this._failed;
    // The first line is written at once: a folder that cannot be made is the first call's error.
    if (!this.folderMade) {
      this._wroteAt = performance.now();
      return super.append(record);
    }
    if (this._records.length === 0) {
      unwritten.add(this);
      const since = performance.now() - this._wroteAt;
      // Unref'd: a gateway whose client left exits at once, and the exit hook writes what is left.
      if (since >= this._windowMs) setImmediate(this._flushQuietly).unref();
      else setTimeout(this._flushQuietly, this._windowMs - since).unref();
      if (!exitHooked) {
        exitHooked = true;
        process.on('exit', writeAllUnwritten);
      }
    }
    this._records.push(record);
  }

  /** Writes the lines not yet written (synchronously). */
  flush(): void {
    const records = this._records;
    if (records.length === 0) return;
    this._records = [];
    unwritten.delete(this);
    let lines = '';
    for (const record of records) lines += this.lineOf(record);
    this._wroteAt = performance.now();
    this.appendText(lines);
  }

  private readonly _flushQuietly = () => {
    try {
      this.flush();
    } catch (err) {
      this._failed = err instanceof Error ? err : new Error(String(err));
    }
  };
}

function writeAllUnwritten(): void {
  for (const log of [...unwritten]) {
    try {
      log.flush();
    } catch (err) {
      // The process is ending: say so where a person can see it rather than lose it quietly.
      process.stderr.write(`mcp-tool-host: the audit log ${log.file} could not be written at exit: ${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
}
