// The user's own folders for what the CLI keeps, where each platform puts them. A folder named in
// the environment by a relative path (or an empty one) is ignored, as the XDG spec says: it would be
// under whatever folder a command runs in (a repository), which could bring files of its own there:
// pins, remembered eras, kept sign-ins, compiled code.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** `dir` when it is an absolute path on `platform`, else undefined. */
export function absoluteFolder(dir: string | undefined, platform: NodeJS.Platform = process.platform): string | undefined {
  return dir && (platform === 'win32' ? path.win32 : path.posix).isAbsolute(dir) ? dir : undefined;
}

/** The state folder: `$XDG_STATE_HOME` (~/.local/state without it), `%LOCALAPPDATA%` on Windows. */
export function userStateFolder(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
  if (platform === 'win32') return localAppData(env, home);
  return absoluteFolder(env.XDG_STATE_HOME, platform) ?? path.posix.join(home, '.local', 'state');
}

/**
 * The cache folder (what may be deleted at any time): `$XDG_CACHE_HOME` (~/.cache without it),
 * ~/Library/Caches on macOS, `%LOCALAPPDATA%` on Windows (an app keeps a Cache folder of its own there).
 */
export function userCacheFolder(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = os.homedir()): string {
  if (platform === 'win32') return localAppData(env, home);
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Caches');
  return absoluteFolder(env.XDG_CACHE_HOME, platform) ?? path.posix.join(home, '.cache');
}

function localAppData(env: NodeJS.ProcessEnv, home: string): string {
  return absoluteFolder(env.LOCALAPPDATA, 'win32') ?? path.win32.join(home, 'AppData', 'Local');
}

/**
 * `mkdir -p`, a level at a time: Node's recursive mkdirSync never returns for a folder under /proc
 * (it spins at full CPU), and an --audit, XDG_STATE_HOME or XDG_CACHE_HOME may name one. Throws
 * the error of the level that cannot be made.
 */
export function makeFolder(folder: string, mode?: number): void {
  const missing: string[] = [];
  for (let at = path.resolve(folder); !fs.existsSync(at) && path.dirname(at) !== at; at = path.dirname(at)) missing.push(at);
  for (const level of missing.reverse()) {
    try {
      fs.mkdirSync(level, mode);
    } catch (err) {
      // Made meanwhile by another process: fine.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}
