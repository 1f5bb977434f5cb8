import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PinPersistence, ServerPins } from '../core/policy/definitionPins';
import type { Disposable } from '../core/events';
import { CliError } from './args';
import { makeFolder } from '../core/userFolders';

/** Changes to the file that come together (a write, then its rename) are one change, read this long after the last. */
const SETTLE_MS = 100;
/** Where the folder cannot be watched (no inotify left, a network drive), its file is looked at this often. */
const POLL_MS = 1_000;

/** What the file holds: per server name, per launch (`launchKey`: another command under the same name is another server), its pins. */
type PinsByServer = Record<string, Record<string, ServerPins>>;

/** The CLI's pins file, and what a command or the gateway asks of it beyond loading and saving. */
export interface PinsFile extends PinPersistence {
  readonly file: string;
  /** Changes whenever the file does (an accept in another process): what read it may read it again. */
  version(): string;
  /** Every pinned launch of `server` (for `pins`: pins of a launch no longer configured are listed too). */
  launches(server: string): Record<string, ServerPins>;
  /**
   * Hears each change another process makes to the file (`pins accept`), once it settled and only
   * when the file can be read: a damaged one is left to the next listing, which refuses it.
   */
  watch(listener: () => void, warn: (line: string) => void): Disposable;
}

/**
 * The CLI's pinned tool definitions (trust on first use), a JSON file beside its audit log, readable
 * by the user alone (0600), written whole through a temporary file and renamed (a reader never
 * sees half a file). Read again when it changed, so `pins accept` in one terminal counts at once in
 * a gateway running in another; each save merges into the file as it is then. A damaged file is
 * never overwritten: loading it is a CliError that names it (the pins in it are the user's trust).
 */
export function pinsFile(file: string, launchOf: (server: string) => string | undefined): PinsFile {
  let cached: { version: string; pins: PinsByServer } | undefined;
  const version = () => {
    try {
      const s = fs.statSync(file);
      return `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch {
      return 'none';
    }
  };
  const read = (): PinsByServer => {
    const now = version();
    if (cached?.version === now) return cached.pins;
    cached = { version: now, pins: now === 'none' ? {} : parse(file) };
    return cached.pins;
  };
  /** The version this process last wrote: its own writes are no news to it. */
  let written: string | undefined;
  return {
    file,
    version,
    watch: (listener, warn) => watchFile(file, version, () => written, () => {
      try {
        read();
      } catch (err) {
        warn(`${(err as Error).message} The pins stay as they were read before.`);
        return;
      }
      listener();
    }),
    launches: (server) => (Object.hasOwn(read(), server) ? read()[server] : {}),
    load(server) {
      const launch = launchOf(server);
      const pins = read();
      return launch !== undefined && Object.hasOwn(pins, server) && Object.hasOwn(pins[server], launch) ? pins[server][launch] : undefined;
    },
    save(server, serverPins) {
      const launch = launchOf(server);
      if (launch === undefined) return;
      const pins = read();
      const next: PinsByServer = { ...pins, [server]: { ...(Object.hasOwn(pins, server) ? pins[server] : {}), [launch]: serverPins } };
      makeFolder(path.dirname(file), 0o700);
      const temp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, JSON.stringify(next, null, 1), { mode: 0o600 });
      fs.renameSync(temp, file);
      cached = { version: version(), pins: next };
      written = cached.version;
    },
  };
}

/**
 * Calls `changed` SETTLE_MS after the file's folder last changed, when the file's version differs
 * from the one last seen and from this process's own last write. The folder is watched, not the
 * file: a save renames a new file over it, and a missing file may come later.
 */
function watchFile(file: string, version: () => string, written: () => string | undefined, changed: () => void): Disposable {
  let seen = version();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settled = () => {
    timer = undefined;
    const now = version();
    if (now === seen) return;
    seen = now;
    if (now !== written()) changed();
  };
  const poke = () => {
    clearTimeout(timer);
    timer = setTimeout(settled, SETTLE_MS);
    timer.unref();
  };
  const name = path.basename(file);
  const poll = () => {
    fs.watchFile(file, { interval: POLL_MS, persistent: false }, poke);
    return () => fs.unwatchFile(file, poke);
  };
  let stop: () => void;
  try {
    makeFolder(path.dirname(file), 0o700);
    const watcher = fs.watch(path.dirname(file), { persistent: false }, (_event, changedName) => (changedName === null || changedName === name) && poke());
    // A watch that fails later (its folder removed) falls back to looking at the file.
    watcher.on('error', () => {
      watcher.close();
      stop = poll();
    });
    stop = () => watcher.close();
  } catch {
    stop = poll();
  }
  return {
    dispose() {
      clearTimeout(timer);
      stop();
    },
  };
}

function parse(file: string): PinsByServer {
  let read: unknown;
  try {
    read = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CliError(`The pins file ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); nothing was changed. Move it away to pin every tool anew.`);
  }
  const ok = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!ok(read) || !Object.values(read).every((launches) => ok(launches) && Object.values(launches).every((p) => ok(p) && ok(p.tools)))) {
    throw new CliError(`The pins file ${file} is not what mcp-tool-host writes; nothing was changed. Move it away to pin every tool anew.`);
  }
  return read as PinsByServer;
}
