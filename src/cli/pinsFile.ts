import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PinPersistence, ServerPins } from '../core/policy/definitionPins';
import { CliError } from './args';

/** What the file holds: per server name, per launch (`launchKey`: another command under the same name is another server), its pins. */
type PinsByServer = Record<string, Record<string, ServerPins>>;

/** The CLI's pins file, and what a command or the gateway asks of it beyond loading and saving. */
export interface PinsFile extends PinPersistence {
  readonly file: string;
  /** Changes whenever the file does (an accept in another process): what read it may read it again. */
  version(): string;
  /** Every pinned launch of `server` (for `pins`: pins of a launch no longer configured are listed too). */
  launches(server: string): Record<string, ServerPins>;
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
  return {
    file,
    version,
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
      fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const temp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, JSON.stringify(next, null, 1), { mode: 0o600 });
      fs.renameSync(temp, file);
      cached = { version: version(), pins: next };
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
