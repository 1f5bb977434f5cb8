import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { visibleJson } from '../render/sanitize';
import { makeFolder, userStateFolder } from '../userFolders';
import type { AuditLog, AuditRecord } from './ports';

/**
 * The audit log as a JSON-lines file, one record per call. Appended synchronously: a line is
 * small, and the CLI may exit right after its one call.
 */
export class FileAuditLog implements AuditLog {
  /** Whether the folder was made: a gateway appends a line a call, and a mkdir each time doubled the cost. */
  protected folderMade = false;

  constructor(readonly file: string) {}

  append(record: AuditRecord): void {
    this.appendText(this.lineOf(record));
  }

  /** One record as its line: names as escapes (the same value to a parser), the log is read in editors and terminals. */
  protected lineOf(record: AuditRecord): string {
    return visibleJson(record) + '\n';
  }

  /** Appends whole lines, making the folder first when it is not there. */
  protected appendText(text: string): void {
    if (!this.folderMade) {
      makeFolder(path.dirname(this.file));
      this.folderMade = true;
    }
    try {
      fs.appendFileSync(this.file, text);
    } catch (err) {
      // The folder was removed meanwhile: made again, and the lines written.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      makeFolder(path.dirname(this.file));
      fs.appendFileSync(this.file, text);
    }
  }
}

/** Where the CLI keeps its audit log unless --audit says otherwise: the user's state folder. */
export function defaultCliAuditFile(env: NodeJS.ProcessEnv = process.env, platform = process.platform, home = os.homedir()): string {
  return path.join(userStateFolder(env, platform, home), 'mcp-tool-host', 'audit.jsonl');
}
