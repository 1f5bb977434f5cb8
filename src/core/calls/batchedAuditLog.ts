import { FileAuditLog } from './fileAuditLog';
import type { AuditRecord } from './ports';

/** Logs with lines not yet written; all written synchronously when the process exits, however it ends. */
const unwritten = new Set<BatchedAuditLog>();
let exitHooked = false;

/** How long the lines of a burst of calls wait to be appended together: a call answered alone (a tool that takes a while) no longer pays its own append. */
const WINDOW_MS = 10;

/**
 * The audit log of a long-running gateway: each record is taken when its call ends (in call
 * order) and made into its line (hash, escapes) when the lines of the last few milliseconds are
 * appended together, in one write: not on the way of the answer (a write a call cost a tenth of
 * the gateway's work at 64 calls in flight, and each answer of a slow tool comes alone). Nothing
 * is dropped at exit: what is left is written when the process exits (stdin closed, SIGINT/SIGTERM
 * handled, process.exit, an uncaught exception); only a process killed outright (SIGKILL) loses
 * the lines of its last few milliseconds. A write that fails is thrown at the next call, as
 * FileAuditLog throws it at its own: an audit that cannot be written stops the calls.
 */
export class BatchedAuditLog extends FileAuditLog {
  /** Records are made into lines when written: the work is done after the answers went out. */
  private _records: AuditRecord[] = [];
  private _failed: Error | undefined;

  constructor(file: string, private readonly _windowMs = WINDOW_MS) {
    super(file);
  }

  override append(record: AuditRecord): void {
    if (this._failed) throw this._failed;
    // The first line is written at once: a folder that cannot be made is the first call's error.
    if (!this.folderMade) return super.append(record);
    if (this._records.length === 0) {
      unwritten.add(this);
      // Unref'd: a gateway whose client left exits at once, and the exit hook writes what is left.
      setTimeout(this._flushQuietly, this._windowMs).unref();
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
