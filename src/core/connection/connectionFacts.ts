import type { ServerLog } from '../serverLog';

/** Run Doctor shows the last stderr lines of a failed start; this many are kept. */
const STDERR_LINES_KEPT = 20;

/** What a connection found out about its server, as values: Run Doctor reads these (the log has the same as text). */
export interface ConnectionFacts {
  /** The server's last stderr lines (secrets masked), oldest first. */
  readonly stderr: readonly string[];
  /** Why the last tool listing failed, if it did (secrets masked). */
  readonly listingError?: string;
  /** The server connected without declaring the "tools" capability: it offers no tools. */
  readonly noToolsCapability: boolean;
  /** A stdio server's process was started at the last start (false when its command was missing or the sandbox refused it). */
  readonly spawned: boolean;
}

/** Keeps the facts a connection learns as it goes; the connection adds what its tool catalog knows. */
export class FactRecorder {
  private readonly _stderr: string[] = [];
  noToolsCapability = false;
  spawned = false;

  /** `log`, with each stderr line also kept (give it lines already masked). */
  keepingStderr(log: ServerLog): ServerLog {
    return {
      info: (m) => log.info(m),
      warn: (m) => log.warn(m),
      error: (m) => log.error(m),
      stderr: (line) => {
        this._stderr.push(line);
        if (this._stderr.length > STDERR_LINES_KEPT) this._stderr.shift();
        log.stderr(line);
      },
    };
  }

  /**
   * A process of the server was spawned: the stderr kept from here on is its own. A start may spawn
   * two (a server that exits at the 2026-07-28 probe is started again for the classic handshake),
   * and Run Doctor shows the last one's lines, not both runs' mixed.
   */
  spawnedNow(): void {
    this.spawned = true;
    this._stderr.length = 0;
  }

  /** The facts so far, with the tool catalog's listing error (masked by the caller). */
  facts(listingError: string | undefined): ConnectionFacts {
    return { stderr: [...this._stderr], listingError, noToolsCapability: this.noToolsCapability, spawned: this.spawned };
  }
}
